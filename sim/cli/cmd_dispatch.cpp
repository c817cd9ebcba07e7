// gemmlab sim dispatch: the launch the dispatch rule (gemmlab/dispatch.h) picks for an fp16 GEMM
// on a device, with its one-line reason.
//
//   gemmlab sim dispatch --problem 16,8192,8192 --device h200 --json
//   {"problem":[16,8192,8192],"device":"H200","sms":132,"tile":[64,128,64],"tiles":[1,64],
//    "cluster":[1,1],"split":"split-k","splits":2,...,"order":"along-m:1",
//    "explanation":"M = 16: 1 wave of 64 tiles of 64 x 128 would fill 48% of the 132 SMs -> ...",
//    "auto_stage":{"stage":"wgmma-split-k","stage_name":"19b wgmma split-K",...,"explanation":"M = 16: ...",
//                  "launch":{"tile":[64,128,64],"threads":128,...,"split_k":5,"blocks":320,"facts":"19c ..."}}}
#include "commands.h"
#include <algorithm>

#include "gemmlab/dispatch.h"
#include "gemmlab/launch_facts.h"

namespace gemmlab::cli {

Json cmd_dispatch(const Args& a) {
  a.reject_unknown({"--problem", "--device", "--sms", "--json"});
  const std::vector<long long> p = a.int_tuple("--problem", 3);
  for (long long v : p)
    if (v < 1 || v > (1 << 20)) throw CliError("--problem M,N,K: each must be 1 .. 1048576");
  auto preset = device_preset(a.str("--device", "h200"));
  if (!preset) throw CliError(preset.error());
  DeviceDesc dev = *preset;
  dev.sms = a.int_in("--sms", 1, 4096, dev.sms);
  const auto d = dispatch_fp16(GemmCoord{int(p[0]), int(p[1]), int(p[2])}, dev);
  if (!d) throw CliError(d.error());

  Json out;
  out["problem"] = {d->problem.m, d->problem.n, d->problem.k};
  out["device"] = dev.name;
  out["sms"] = d->sms;
  out["tile"] = {d->tile_m, d->tile_n, d->tile_k};
  out["tiles"] = {d->tiles_m, d->tiles_n};
  out["k_tiles"] = d->k_tiles;
  out["cluster"] = {d->cluster_m, d->cluster_n};
  out["split"] = k_split_name(d->split);
  out["splits"] = d->splits;
  if (d->split == KSplit::StreamK) out["stream_k"] = {{"dp_tiles", d->dp_tiles}, {"sk_blocks", d->sk_blocks}};
  out["blocks"] = d->blocks;
  out["fill"] = d->fill;
  out["order"] = d->order;
  out["wave_footprint_bytes"] = d->wave_footprint_bytes;
  Json table = Json::array();
  for (const TileFill& f : d->candidates)
    table.push_back({{"tile", {f.tile_m, f.tile_n}}, {"tiles", f.tiles}, {"waves", f.waves}, {"fill", f.fill}});
  out["candidates"] = table;
  out["explanation"] = d->explanation;
  // What the `auto` stage runs there: one of the ladder's launches (gemmlab/auto_dispatch.h).
  const auto a2 = dispatch_auto(GemmCoord{int(p[0]), int(p[1]), int(p[2])}, dev);
  if (!a2) throw CliError(a2.error());
  out["auto_stage"] = {{"stage", a2->stage->id},
                 {"stage_name", a2->stage->name},
                 {"big_tiles", a2->pick.big_tiles},
                 {"small_tiles", a2->pick.small_tiles},
                 {"k_tiles", a2->pick.k_tiles},
                 {"explanation", a2->explanation}};
  // That stage's launch facts there, as `sim schedule --stage auto` and the Grid view print them.
  const auto rows = stage_table();
  const auto dispatcher = std::find_if(rows.begin(), rows.end(), [](const StageDesc& s) {
    return s.schedule == BlockSchedule::Dispatch;
  });
  if (dispatcher == rows.end()) return out;
  if (const auto f = launch_facts(*dispatcher, GemmCoord{int(p[0]), int(p[1]), int(p[2])}, dev))
    out["auto_stage"]["launch"] = {{"tile", {f->tile.m, f->tile.n, f->tile.k}},
                                   {"threads", f->resources.threads},
                                   {"regs", f->resources.regs_per_thread},
                                   {"smem", f->resources.smem_per_block},
                                   {"split_k", f->split_k},
                                   {"blocks", f->blocks},
                                   {"facts", f->line}};
  else
    out["auto_stage"]["launch"] = {{"error", f.error()}};
  return out;
}

}  // namespace gemmlab::cli
