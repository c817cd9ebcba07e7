// Plain matrix layouts (CUTLASS's layout::RowMajor, ColumnMajor, PitchLinear), padding, and the
// column-major-C swap of CUTLASS's device::Gemm: C^T = B^T A^T lets every GEMM run
// with a row-major C without moving a byte.
//
//   RowMajor, ld 8:     (row 2, col 3) -> 2*8 + 3 = 19
//   ColumnMajor, ld 16: (row 2, col 3) -> 2 + 3*16 = 50
//   128x32 half tile padded by 8 halves (16 B): ld 40, row 1 starts at element 40
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

// (contiguous, strided) -> c + s * ld. The layout every other one is written in terms of.
struct PitchLinearLayout {
  long long ld = 0;  // elements between consecutive strided indices
  GL_HD static constexpr PitchLinearLayout packed(PitchCoord extent) { return {extent.c}; }
  GL_HD constexpr long long operator()(PitchCoord coord) const { return coord.c + coord.s * ld; }
};

// (row, column) -> row * ld + column: rows are contiguous.
struct RowMajorLayout {
  long long ld = 0;
  GL_HD static constexpr RowMajorLayout packed(int rows, int columns) {
    (void)rows;
    return {columns};
  }
  GL_HD constexpr long long operator()(int row, int column) const { return row * ld + column; }
};

// (row, column) -> row + column * ld: columns are contiguous.
struct ColumnMajorLayout {
  long long ld = 0;
  GL_HD static constexpr ColumnMajorLayout packed(int rows, int columns) {
    (void)columns;
    return {rows};
  }
  GL_HD constexpr long long operator()(int row, int column) const { return row + column * ld; }
};

// Padding: the leading dimension grows by pad elements so that consecutive rows start in
// different banks (e.g. __shared__ half tile[128][32 + 8]).
GL_HD constexpr long long padded_ld(long long packed_ld, int pad_elements) {
  return packed_ld + pad_elements;
}

// ---- The column-major-C swap (cutlass::gemm::device::Gemm<..., layout::ColumnMajor C, ...>) ----
enum class MatrixOrder : int { RowMajor = 0, ColumnMajor = 1 };

/// layout::LayoutTranspose: the same bytes read as the transposed matrix.
GL_HD constexpr MatrixOrder transpose(MatrixOrder o) {
  return o == MatrixOrder::RowMajor ? MatrixOrder::ColumnMajor : MatrixOrder::RowMajor;
}

GL_HD constexpr long long matrix_offset(MatrixOrder o, long long ld, int row, int column) {
  return o == MatrixOrder::RowMajor ? RowMajorLayout{ld}(row, column)
                                    : ColumnMajorLayout{ld}(row, column);
}

struct GemmOperandLayout {
  MatrixOrder order = MatrixOrder::RowMajor;
  long long ld = 0;
};

// D (m x n) = A (m x k) * B (k x n) with each operand's layout.
struct GemmLayouts {
  int m = 0, n = 0, k = 0;
  GemmOperandLayout a, b, c;
};

/// What device::Gemm's ColumnMajor-C specialisation hands to its UnderlyingOperator: problem
/// (n, m, k), A' = B read transposed, B' = A read transposed, C' = C read as row-major; every
/// pointer and ld unchanged. Element (i, j) of C' is element (j, i) of C at the same address.
GL_HD constexpr GemmLayouts column_major_c_as_row_major(const GemmLayouts& g) {
  GemmLayouts u;
  u.m = g.n;
  u.n = g.m;
  u.k = g.k;
  u.a = {transpose(g.b.order), g.b.ld};
  u.b = {transpose(g.a.order), g.a.ld};
  u.c = {transpose(g.c.order), g.c.ld};
  return u;
}

// Seed 002's example: every matrix column-major. After the swap C' is row-major, and C'(i, j)
// sits where C(j, i) sat; A' = B^T is row-major with B's ld.
static_assert(column_major_c_as_row_major(GemmLayouts{
                  128, 64, 32, {MatrixOrder::ColumnMajor, 128}, {MatrixOrder::ColumnMajor, 32},
                  {MatrixOrder::ColumnMajor, 128}})
                  .c.order == MatrixOrder::RowMajor);
static_assert(matrix_offset(MatrixOrder::RowMajor, 128, 5, 7) ==
              matrix_offset(MatrixOrder::ColumnMajor, 128, 7, 5));  // C'(5,7) is C(7,5): 647
static_assert(RowMajorLayout{8}(2, 3) == 19);
static_assert(ColumnMajorLayout{16}(2, 3) == 50);

}  // namespace gemmlab
