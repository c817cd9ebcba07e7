// gemmlab sim fragment: which lane supplies which ldmatrix row address, and which (lane,
// register, element) holds which element of the fragment tile.
//
//   gemmlab sim fragment --op mma.m16n8k16.f16 --operand a
//   {"op":"mma.m16n8k16.f16","operand":"a","tile":[16,16],"element_bits":16,
//    "registers_per_lane":4,"elements_per_register":2,
//    "elements_columns":["lane","register","element","index","row","col"],
//    "elements":[[0,0,0,0,0,0],[0,0,1,1,0,1],[0,1,0,2,8,0],...,[31,3,1,7,15,15]],
//    "note":"groupID = lane >> 2, ..."}
//
//   gemmlab sim fragment --op ldsm.x4 --operand a     (ldmatrix feeding the m16n8k16 A fragment)
//   {"op":"ldsm.x4","operand":"a","tile":[16,16],"element_bits":16,"registers_per_lane":4,
//    "elements_per_register":2,"row_runs":"across",
//    "addresses_columns":["lane","used","matrix","row","tile_row","tile_col"],
//    "addresses":[[0,true,0,0,0,0],[1,true,0,1,1,0],...,[16,true,2,0,0,8],...],
//    "elements_columns":["lane","register","element","index","matrix","row","col"],
//    "elements":[[0,0,0,0,0,0,0],...], "note":"..."}
//
// Without --operand, ldmatrix's tile is its 8x8 matrices stacked: row 8m + r is row r of matrix
// m, whose address lane 8m + r supplies. "row_runs" says whether an address row runs across a tile
// row or down a tile column. --element R,C adds "owner": the lane, register and element holding
// tile element (R, C).
#include "commands.h"
#include "element_tables.h"
#include "gemmlab/fragment_analysis.h"

namespace gemmlab::cli {

Json cmd_fragment(const Args& a) {
  a.reject_unknown({"--op", "--operand", "--accumulator", "--element", "--json"});
  auto req = parse_fragment_op(a.str("--op"));
  if (!req) throw CliError(req.error());
  FragmentRequest r = *req;
  const bool ldsm = fragment_op_is_ldsm(r.op);
  if (ldsm ? a.has("--operand") : true) {
    auto operand = parse_fragment_operand(a.str("--operand"));
    if (!operand) throw CliError(operand.error());
    r.operand = *operand;
  }
  if (a.has("--accumulator")) {
    if (ldsm || r.operand != FragmentOperand::C)
      throw CliError("--accumulator applies to mma with --operand c only");
    const std::string acc = a.str("--accumulator");
    if (acc == "f32") r.accumulator = Accumulator::F32;
    else if (acc == "f16") r.accumulator = Accumulator::F16;
    else throw CliError("--accumulator '" + acc + "': use f32 or f16");
  }
  auto m = analyze_fragment(r);
  if (!m) throw CliError(m.error());

  Json out;
  out["op"] = fragment_op_name(r);
  out["operand"] = fragment_operand_name(r.operand);
  out["tile"] = {m->tile_rows, m->tile_cols};
  out["element_bits"] = m->element_bits;
  out["registers_per_lane"] = m->registers_per_lane;
  out["elements_per_register"] = m->elements_per_register;
  if (ldsm) {
    out["row_runs"] = m->row_runs_down ? "down" : "across";
    tables::put_ldmatrix_addresses(out, *m);
  }
  tables::put_fragment_elements(out, *m, ldsm);
  if (a.has("--element")) {
    const auto rc = a.int_tuple("--element", 2);
    if (rc[0] < 0 || rc[0] > 1024 || rc[1] < 0 || rc[1] > 1024)
      throw CliError("--element " + a.str("--element") + " is outside the tile");
    auto owner = fragment_owner(*m, static_cast<int>(rc[0]), static_cast<int>(rc[1]));
    if (!owner) throw CliError(owner.error());
    out["owner"] = {{"lane", owner->lane}, {"register", owner->reg}, {"element", owner->element},
                    {"index", owner->index}};
  }
  out["note"] = m->note;
  return out;
}

}  // namespace gemmlab::cli
