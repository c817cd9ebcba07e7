// Run-time form of the layouts for the GUI and the CLI: validate a user's settings, then list the
// offset of every element of a tile. Messages name CUTLASS's rule (or say "GEMM Lab rule").
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/layout.h"
#include "gemmlab/tensorop_multiplicand.h"

namespace gemmlab {

enum class LayoutKind : int {
  PitchLinear,                   // (c, s) -> c + s * ld
  RowMajor,                      // (row, col) -> row * ld + col
  ColumnMajor,                   // (row, col) -> row + col * ld
  Padded,                        // pitch-linear with ld = C + pad
  TensorOpMultiplicand,          // pitch-linear (c, s), TensorOpMultiplicand<bits, crosswise>
  TensorOpCongruous,             // pitch-linear, TensorOpMultiplicandCongruous
  TensorOpCrosswise,             // pitch-linear, TensorOpMultiplicandCrosswise
  TensorOpCongruousRowMajor,     // matrix (row, col), RowMajorTensorOpMultiplicandCongruous
  TensorOpCongruousColumnMajor,  // ColumnMajorTensorOpMultiplicandCongruous
  TensorOpCrosswiseRowMajor,     // RowMajorTensorOpMultiplicandCrosswise
  TensorOpCrosswiseColumnMajor,  // ColumnMajorTensorOpMultiplicandCrosswise
};

struct LayoutRequest {
  LayoutKind kind = LayoutKind::RowMajor;
  // Pitch-linear kinds: (C, S) = (contiguous, strided). Matrix kinds: (rows, columns).
  int extent0 = 0;
  int extent1 = 0;
  long long ld = 0;       // 0 = packed (the contiguous extent)
  int pad = 0;            // Padded only, in elements
  int element_bits = 0;   // tensorop kinds only
  int crosswise = 0;      // tensorop kinds only
};

struct LayoutResult {
  LayoutRequest request;
  bool matrix_coords = false;        // offsets are in (row, col) order rather than (c, s)
  long long ld = 0;                  // the leading dimension actually used
  PitchCoord pitch_extent;           // the pitch-linear tile underneath (tensorop matrix views)
  TensorOpMultiplicandGeometry tensorop;  // tensorop kinds only
  bool congruous32 = false;          // TensorOpMultiplicandCongruous<32, X> specialisation
  // offsets[s * C + c] for pitch kinds, offsets[row * columns + col] for matrix kinds.
  std::vector<long long> offsets;
};

bool layout_is_tensorop(LayoutKind k);
bool layout_is_matrix(LayoutKind k);  // takes (rows, columns) rather than (C, S)

Expected<LayoutKind> parse_layout_kind(const std::string& name);
const char* layout_kind_name(LayoutKind k);
const char* layout_kind_names();  // "rowmajor|columnmajor|..." for usage lines

// The TensorOp rule in words, with this configuration's numbers.
std::string tensor_op_rule_text(TensorOpRule rule, const TensorOpMultiplicandParams& p,
                                const TensorOpMultiplicandGeometry& g, PitchCoord extent,
                                long long ld);
// The TensorOp geometry plus the GEMM Lab tile rules for a (C, S) tile with stride ld.
TensorOpRule tensor_op_tile_rule(const TensorOpMultiplicandParams& p,
                                 const TensorOpMultiplicandGeometry& g, PitchCoord extent,
                                 long long ld);

Expected<LayoutResult> analyze_layout(const LayoutRequest& r);

// ---- The column-major-C swap, for the app to show ---------------------------------------------
struct GemmSwapExplanation {
  GemmLayouts original;
  GemmLayouts underlying;          // what device::Gemm really runs
  std::vector<std::string> steps;  // one sentence per step, in order
};
// Refuses non-positive sizes and an ld smaller than the operand's contiguous extent.
Expected<GemmSwapExplanation> explain_column_major_c_swap(const GemmLayouts& g);

}  // namespace gemmlab
