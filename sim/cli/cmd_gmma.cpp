// gemmlab sim gmma-layout: where each element of a wgmma operand tile sits in shared memory, for
// CuTe's GMMA layouts (K- or MN-major, no swizzle or 32/64/128-byte swizzle).
//
//   gemmlab sim gmma-layout --swizzle 32B --major MN --shape 32,16 --element-bits 16 --json
//   {"swizzle":"32B","major":"MN","element_bits":16,"shape":[32,16],"atom":[16,8],"repeat_bytes":256,
//    "offsets":[0,16,32,48,72,88,104,120,256,...]}          (element (r,c) at r*16 + c)
//   --descriptor ROW0,K0 [--operand-rows 64] adds the wgmma descriptor of that k step:
//    "descriptor":{"hex":"0x...","start_bytes":..,"leading_bytes":..,"stride_bytes":..,
//                  "layout":1,"core_matrices":[[row0,k0,byte],...]}   (tile base at address 0)
//
// gemmlab sim wgmma: which thread of the warpgroup holds which element of m64nNk16's A or D.
//
//   gemmlab sim wgmma --shape m64n16k16 --operand d --json
//   {"shape":"m64n16k16","operand":"d","tile":[64,16],"thread_value_to_mn":[[[0,0],[0,1],[8,0],...],...]}
#include <cstdio>

#include "commands.h"
#include "gemmlab/fragment_analysis.h"
#include "gemmlab/gmma_analysis.h"

namespace gemmlab::cli {

Json cmd_gmma_layout(const Args& a) {
  a.reject_unknown({"--swizzle", "--major", "--shape", "--element-bits", "--descriptor", "--operand-rows", "--json"});
  auto s = parse_gmma_swizzle(a.str("--swizzle"));
  if (!s) throw CliError("--swizzle: " + s.error());
  auto m = parse_gmma_major(a.str("--major"));
  if (!m) throw CliError("--major: " + m.error());
  const std::vector<int> shape = a.int_tuple_in("--shape", 2, 1, kMaxGmmaTileElements);
  const int bits = a.int_in("--element-bits", 1, 64, 16);
  auto t = make_gmma_layout(*s, *m, bits, shape[0], shape[1]);
  if (!t) throw CliError(t.error());
  Json out;
  out["swizzle"] = gmma_swizzle_name(t->swizzle);
  out["major"] = gmma_major_name(t->major);
  out["element_bits"] = t->element_bits;
  out["shape"] = {t->rows, t->cols};
  out["atom"] = {t->atom_rows(), t->atom_cols()};
  out["repeat_bytes"] = gmma::repeat_bytes(t->swizzle);
  out["offsets"] = gmma_layout_offsets(*t);
  if (a.has("--descriptor")) {
    const std::vector<int> at = a.int_tuple_in("--descriptor", 2, 0, kMaxGmmaTileElements);
    const int rows = a.int_in("--operand-rows", 8, 256, 64);
    auto d = describe_gmma_operand(*t, at[0], rows, at[1]);
    if (!d) throw CliError("--descriptor: " + d.error());
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(d->bits));
    Json cores = Json::array();
    for (const auto& c : d->cores) cores.push_back({c.row0, c.k0, c.byte});
    out["descriptor"] = {{"hex", hex},          {"start_bytes", d->start}, {"leading_bytes", d->leading},
                         {"stride_bytes", d->stride}, {"layout", d->layout_field}, {"core_matrices", cores}};
  } else if (a.has("--operand-rows")) {
    throw CliError("--operand-rows goes with --descriptor ROW0,K0");
  }
  return out;
}

Json cmd_wgmma(const Args& a) {
  a.reject_unknown({"--shape", "--operand", "--json"});
  auto n = parse_wgmma_shape(a.str("--shape"));
  if (!n) throw CliError("--shape: " + n.error());
  const std::string operand = a.str("--operand");
  FragmentRequest r;
  r.op = FragmentOp::WgmmaM64nNk16F16;
  r.wgmma_n = *n;
  if (operand == "d") r.operand = FragmentOperand::C;
  else if (operand == "a") r.operand = FragmentOperand::A;
  else if (operand == "b") r.operand = FragmentOperand::B;
  else throw CliError("--operand '" + operand + "': use d (accumulator) or a (A from registers)");
  auto m = analyze_fragment(r);
  if (!m) throw CliError(m.error());
  Json threads = Json::array();
  for (int t = 0; t < 128; ++t) threads.push_back(Json::array());
  for (const auto& e : m->elements) threads[e.lane].push_back({e.at.row, e.at.col});
  Json out;
  out["shape"] = "m64n" + std::to_string(*n) + "k16";
  out["operand"] = operand;
  out["tile"] = {m->tile_rows, m->tile_cols};
  out["thread_value_to_mn"] = threads;
  out["note"] = m->note;
  return out;
}

}  // namespace gemmlab::cli
