// gemmlab sim layout: the offset of every element of a tile under one layout.
//
//   gemmlab sim layout --kind tensorop-multiplicand --element-bits 16 --crosswise 32 --shape 32,8
//   {"kind":"tensorop-multiplicand","coords":"pitch-linear","shape":[32,8],
//    "order":"offsets[s*C + c]","ld":32,"element_bits":16,"crosswise":32,
//    "elements_per_access":8,"k_factor":2,"tile_shape_vectors":[8,4],"offsets":[0,1,...]}
//
// Pitch-linear kinds take --shape C,S (contiguous, strided); matrix kinds (rowmajor, columnmajor
// and the tensorop-*-rowmajor / -columnmajor views) take --shape ROWS,COLS and list offsets in
// row-major order of the logical (row, col).
#include "commands.h"
#include "gemmlab/layout_analysis.h"

namespace gemmlab::cli {

namespace {
int to_int(long long v, const char* what) {
  if (v < -(1LL << 30) || v > (1LL << 30))
    throw CliError(std::string(what) + " " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}
}  // namespace

Json cmd_layout(const Args& a) {
  a.reject_unknown({"--kind", "--shape", "--ld", "--pad", "--element-bits", "--crosswise", "--json"});
  auto kind = parse_layout_kind(a.str("--kind"));
  if (!kind) throw CliError(kind.error());
  const auto shape = a.int_tuple("--shape", 2);
  LayoutRequest r;
  r.kind = *kind;
  r.extent0 = to_int(shape[0], "--shape");
  r.extent1 = to_int(shape[1], "--shape");
  r.ld = a.integer("--ld", 0);
  if (a.has("--ld") && r.ld <= 0) throw CliError("--ld must be positive (leave it out for packed)");
  if (*kind == LayoutKind::Padded && !a.has("--pad"))
    throw CliError("--kind padded needs --pad P (elements added to each row)");
  r.pad = to_int(a.integer("--pad", 0), "--pad");
  if (layout_is_tensorop(*kind)) {
    r.element_bits = to_int(a.integer("--element-bits"), "--element-bits");
    r.crosswise = to_int(a.integer("--crosswise"), "--crosswise");
  } else if (a.has("--element-bits") || a.has("--crosswise")) {
    throw CliError("--element-bits and --crosswise apply to the tensorop-* kinds only");
  }
  auto res = analyze_layout(r);
  if (!res) throw CliError(res.error());

  Json out;
  out["kind"] = layout_kind_name(r.kind);
  out["coords"] = res->matrix_coords ? "matrix" : "pitch-linear";
  out["shape"] = {r.extent0, r.extent1};
  out["order"] = res->matrix_coords ? "offsets[row*COLS + col]" : "offsets[s*C + c]";
  out["ld"] = res->ld;
  if (r.kind == LayoutKind::Padded) out["pad"] = r.pad;
  if (layout_is_tensorop(r.kind)) {
    out["element_bits"] = r.element_bits;
    out["crosswise"] = r.crosswise;
    if (res->matrix_coords) out["pitch_linear_shape"] = {res->pitch_extent.c, res->pitch_extent.s};
    out["elements_per_access"] = res->tensorop.elements_per_access;
    out["k_factor"] = res->tensorop.factor;
    out["tile_shape_vectors"] = {res->tensorop.tile_contiguous, res->tensorop.tile_strided};
    if (res->congruous32)
      out["specialisation"] = "TensorOpMultiplicandCongruous<32, Crosswise> (Crosswise unused)";
  }
  out["offsets"] = res->offsets;
  return out;
}

}  // namespace gemmlab::cli
