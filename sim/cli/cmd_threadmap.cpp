#include "commands.h"
#include "element_tables.h"
#include "gemmlab/thread_map_analysis.h"

namespace gemmlab::cli {

Json cmd_threadmap(const Args& a) {
  a.reject_unknown({"--map", "--shape", "--threads", "--warp-arrangement", "--access", "--json",
                    "--elements"});
  auto kind = parse_thread_map_kind(a.str("--map"));
  if (!kind) throw CliError(kind.error());
  // Limits wide enough for any threadblock tile, narrow enough that no product overflows an int.
  const auto shape = a.int_tuple_in("--shape", 2, 1, 1 << 22);
  ThreadMapParams p;
  p.kind = *kind;
  p.shape_c = shape[0];
  p.shape_s = shape[1];
  p.threads = a.int_in("--threads", 1, 1024);
  p.access = a.int_in("--access", 1, 64, 1);
  if (p.kind != ThreadMapKind::Stripmined) {
    const auto w = a.int_tuple_in("--warp-arrangement", 2, 1, 32);
    p.warp_c = w[0];
    p.warp_s = w[1];
  } else if (a.has("--warp-arrangement")) {
    throw CliError("--warp-arrangement applies to warp-raked and warp-striped maps only");
  }
  auto r = analyze_thread_map(p);
  if (!r) throw CliError(r.error());
  const auto& g = r->geometry;
  Json out;
  out["map"] = thread_map_kind_name(p.kind);
  out["iterations"] = {g.iterations.c, g.iterations.s};
  out["delta"] = {g.delta.c, g.delta.s};
  if (p.kind != ThreadMapKind::Stripmined) out["warp_arrangement"] = {g.warps.c, g.warps.s};
  Json offsets = Json::array();
  for (const auto& o : r->initial_offsets) offsets.push_back({o.c, o.s});
  out["offsets"] = std::move(offsets);
  // --elements 1 adds every (thread, s, c, v) -> element, in CUTLASS's iterator order.
  if (a.integer("--elements", 0)) tables::put_thread_map_elements(out, *r);
  return out;
}

}  // namespace gemmlab::cli
