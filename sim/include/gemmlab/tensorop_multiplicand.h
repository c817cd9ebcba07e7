// CUTLASS's shared-memory layouts for tensor-core operands (cutlass/layout/
// tensor_op_multiplicand_sm75.h), as constexpr functions of a run-time description plus
// compile-time wrappers with CUTLASS's names. The arithmetic is CUTLASS's, step for step, so the
// simulator shows exactly where CUTLASS puts each element.
//
// The idea: one 128-byte shared-memory line holds 8 vectors of 128 bits. Rows of the tile are
// XOR-permuted in 128-bit units (4x4 "partitions" of vectors, plus a partition swap every 4 rows) so
// that 8 consecutive rows read by ldmatrix hit 8 different 16-byte bank groups. When the
// crosswise extent (the K of a tile, in elements) is shorter than a line, kFactor = line / crosswise
// rows share one line.
//
//   TensorOpMultiplicand<16, 64>: (c=0, s=1) -> 72, (c=8, s=1) -> 64   (CUTLASS 4.7, packed 64x16)
//   TensorOpMultiplicand<16, 32>: kFactor 2, (c=0, s=2) -> 72            (CUTLASS 4.7, packed 32x8)
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

// Each rule is one of CUTLASS's static_asserts or, where the comment says so, a GEMM Lab rule that
// keeps the layout a permutation of the tile (CUTLASS leaves those to the caller).
enum class TensorOpRule : int {
  Ok = 0,
  ElementBitsUnsupported,     // GEMM Lab: 4, 8, 16 or 32 bits (64-bit uses the sm80 layouts)
  CrosswiseNonPositive,       // GEMM Lab: Crosswise must be > 0
  CrosswiseLongerThanLine,    // CUTLASS: static_assert(kFactor > 0, "kCrosswise should be no large
                              //          than one shared memory cache line.")
  CrosswiseShorterThanVector, // GEMM Lab: kFactor > 8 makes TileShape::kContiguous / kFactor zero
                              //           (a division by zero in CUTLASS's arithmetic)
  CrosswiseNotLineDivisor,    // GEMM Lab: kFactor * Crosswise must fill the 128-byte line exactly
  ShapeNonPositive,           // GEMM Lab: the tile extents must be > 0
  ContiguousNotMultipleOfCrosswise,  // GEMM Lab: partial 128-byte lines are not a permutation
  StridedNotMultipleOfFactor,        // GEMM Lab: kFactor rows share one line; all must exist
  StrideTooSmall,             // GEMM Lab: the stride (ld) must be >= the contiguous extent
  StrideNotMultipleOfCrosswise,      // GEMM Lab: same reason as ContiguousNotMultipleOfCrosswise
};

struct TensorOpMultiplicandParams {
  int element_bits = 16;  // ElementSize
  int crosswise = 64;     // Crosswise, in elements
};

// What CUTLASS derives at compile time from <ElementSize, Crosswise>; PartitionShape is (4,4).
struct TensorOpMultiplicandGeometry {
  TensorOpRule rule = TensorOpRule::Ok;
  int elements_per_access = 0;  // kElementsPerAccess = 128 bits / ElementSize
  int tile_contiguous = 0;      // TileShape::kContiguous, in vectors: one 128 B line = 8
  int factor = 0;               // kFactor = kTileShapeContiguous * kElementsPerAccess / kCrosswise
  int tile_strided = 0;         // TileShape::kStrided = max(8 / kFactor, 32 / 8)
};

constexpr int kTensorOpAccessBits = 128;   // kAccessSize
constexpr int kTensorOpPartitionVectors = 4;  // PartitionShape is (4, 4) vectors

GL_HD constexpr TensorOpMultiplicandGeometry tensor_op_multiplicand_geometry(
    const TensorOpMultiplicandParams& p) {
  TensorOpMultiplicandGeometry g;
  if (p.element_bits != 4 && p.element_bits != 8 && p.element_bits != 16 && p.element_bits != 32) {
    g.rule = TensorOpRule::ElementBitsUnsupported;
    return g;
  }
  if (p.crosswise <= 0) {
    g.rule = TensorOpRule::CrosswiseNonPositive;
    return g;
  }
  g.elements_per_access = kTensorOpAccessBits / p.element_bits;
  g.tile_contiguous = 128 / (kTensorOpAccessBits / 8);  // = 8 vectors per 128-byte line
  g.factor = g.tile_contiguous * g.elements_per_access / p.crosswise;
  if (g.factor <= 0) {
    g.rule = TensorOpRule::CrosswiseLongerThanLine;
    return g;
  }
  if (g.factor > g.tile_contiguous) {
    g.rule = TensorOpRule::CrosswiseShorterThanVector;
    return g;
  }
  if (g.factor * p.crosswise != g.tile_contiguous * g.elements_per_access) {
    g.rule = TensorOpRule::CrosswiseNotLineDivisor;
    return g;
  }
  const int conflict_free_rows = g.tile_contiguous / g.factor;
  const int warp_rows = 32 / g.tile_contiguous;
  g.tile_strided = conflict_free_rows > warp_rows ? conflict_free_rows : warp_rows;
  return g;
}

// TensorOpMultiplicand::operator()(PitchLinearCoord): the element offset of (c, s) for a layout
// whose stride (ldm, in elements) is `stride`. g must be valid.
// Geometry by value: binding a reference to a static constexpr member would odr-use it, which
// nvcc refuses in device code.
GL_HD constexpr long long tensor_op_multiplicand_offset(TensorOpMultiplicandGeometry g,
                                                        long long stride, PitchCoord coord) {
  const int vectors_per_tile_row = g.tile_contiguous / g.factor;  // TileShape::kContiguous / kFactor
  const int vec_contiguous_idx = coord.c / g.elements_per_access;
  const int vec_strided_idx = coord.s / g.factor;

  const int tile_contiguous_idx = vec_contiguous_idx / vectors_per_tile_row;
  const int tile_contiguous_residual =
      vec_contiguous_idx % vectors_per_tile_row + (coord.s % g.factor) * vectors_per_tile_row;
  const int tile_strided_residual = vec_strided_idx % g.tile_strided;

  const int partition_contiguous_idx = tile_contiguous_residual / kTensorOpPartitionVectors;
  const int partition_strided_idx = tile_strided_residual / kTensorOpPartitionVectors;
  const int partition_contiguous_residual = tile_contiguous_residual % kTensorOpPartitionVectors;
  const int partition_strided_residual = tile_strided_residual % kTensorOpPartitionVectors;

  // The swizzle: vectors within a partition XOR the row within the partition; partitions swap
  // every 4 rows.
  const int permuted_vec_contiguous_within_partition =
      partition_contiguous_residual ^ (partition_strided_residual % 4);
  const int permuted_partition_contiguous_within_tile =
      partition_contiguous_idx ^ (partition_strided_idx % 2);

  const long long element_contiguous =
      static_cast<long long>(tile_contiguous_idx * g.tile_contiguous +
                             permuted_partition_contiguous_within_tile * kTensorOpPartitionVectors +
                             permuted_vec_contiguous_within_partition) *
          g.elements_per_access +
      coord.c % g.elements_per_access;
  const long long element_strided = vec_strided_idx;
  return element_contiguous + element_strided * stride * g.factor;
}

// TensorOpMultiplicandCongruous<32, Crosswise> is a separate specialisation in CUTLASS ("just for
// TF32 NT kernel"): 8x4-vector tiles, vector c of row s goes to c ^ (2 * (s % 4)); Crosswise unused.
GL_HD constexpr long long tensor_op_congruous32_offset(long long stride, PitchCoord coord) {
  constexpr int kElementsPerAccess = 4;
  const int tc = coord.c / 32;
  const int ts = coord.s / 4;
  const int c = (coord.c % 32) / kElementsPerAccess;
  const int s = coord.s % 4;
  return static_cast<long long>(c ^ (2 * s)) * kElementsPerAccess + s * stride + tc * 32 +
         ts * stride * 4 + coord.c % 4;
}

// Congruous (the contiguous dimension is M or N: the operand is stored "along" the tile) and
// Crosswise (the contiguous dimension is K) are thin wrappers in CUTLASS; the only arithmetic
// difference is the 32-bit congruous specialisation above.
enum class TensorOpVariant : int { Multiplicand = 0, Congruous = 1, Crosswise = 2 };

GL_HD constexpr bool tensor_op_uses_congruous32(TensorOpVariant v, int element_bits) {
  return v == TensorOpVariant::Congruous && element_bits == 32;
}

GL_HD constexpr long long tensor_op_offset(TensorOpVariant v, TensorOpMultiplicandParams p,
                                           TensorOpMultiplicandGeometry g, long long stride,
                                           PitchCoord coord) {
  return tensor_op_uses_congruous32(v, p.element_bits)
             ? tensor_op_congruous32_offset(stride, coord)
             : tensor_op_multiplicand_offset(g, stride, coord);
}

// ---- Compile-time wrappers with CUTLASS's names (a bad configuration fails to compile) ---------
template <int ElementSize, int Crosswise>
struct TensorOpMultiplicand {
  static constexpr TensorOpMultiplicandParams kParams{ElementSize, Crosswise};
  static constexpr TensorOpMultiplicandGeometry kGeometry = tensor_op_multiplicand_geometry(kParams);
  static_assert(kGeometry.rule == TensorOpRule::Ok,
                "invalid TensorOpMultiplicand: run `gemmlab sim layout --kind tensorop-multiplicand` "
                "with these values for the rule");
  static constexpr int kElementsPerAccess = kGeometry.elements_per_access;
  static constexpr int kFactor = kGeometry.factor;
  static constexpr int kCrosswise = Crosswise;

  long long stride = 0;  // ldm in elements; packed() uses the contiguous extent
  GL_HD static constexpr TensorOpMultiplicand packed(PitchCoord extent) { return {extent.c}; }
  GL_HD constexpr long long operator()(PitchCoord coord) const {
    return tensor_op_multiplicand_offset(kGeometry, stride, coord);
  }
};

template <int ElementSize, int Crosswise>
struct TensorOpMultiplicandCongruous {
  using Base = TensorOpMultiplicand<ElementSize, Crosswise>;
  long long stride = 0;
  GL_HD static constexpr TensorOpMultiplicandCongruous packed(PitchCoord extent) { return {extent.c}; }
  GL_HD constexpr long long operator()(PitchCoord coord) const { return Base{stride}(coord); }
};

template <int Crosswise>
struct TensorOpMultiplicandCongruous<32, Crosswise> {
  long long stride = 0;
  GL_HD static constexpr TensorOpMultiplicandCongruous packed(PitchCoord extent) { return {extent.c}; }
  GL_HD constexpr long long operator()(PitchCoord coord) const {
    return tensor_op_congruous32_offset(stride, coord);
  }
};

template <int ElementSize, int Crosswise>
struct TensorOpMultiplicandCrosswise {
  using Base = TensorOpMultiplicand<ElementSize, Crosswise>;
  static constexpr int kFactor = Base::kFactor;
  long long stride = 0;
  GL_HD static constexpr TensorOpMultiplicandCrosswise packed(PitchCoord extent) { return {extent.c}; }
  GL_HD constexpr long long operator()(PitchCoord coord) const { return Base{stride}(coord); }
};

// Matrix views: RowMajor* maps (row, column) to pitch-linear (column, row) and packs with the
// column count; ColumnMajor* maps it to (row, column) and packs with the row count.
template <class PitchLayout>
struct RowMajorTensorOpView {
  long long stride = 0;
  GL_HD static constexpr RowMajorTensorOpView packed(int rows, int columns) {
    (void)rows;
    return {columns};
  }
  GL_HD constexpr long long operator()(int row, int column) const {
    return PitchLayout{stride}(PitchCoord{column, row});
  }
};
template <class PitchLayout>
struct ColumnMajorTensorOpView {
  long long stride = 0;
  GL_HD static constexpr ColumnMajorTensorOpView packed(int rows, int columns) {
    (void)columns;
    return {rows};
  }
  GL_HD constexpr long long operator()(int row, int column) const {
    return PitchLayout{stride}(PitchCoord{row, column});
  }
};

template <int ElementSize, int Crosswise>
using RowMajorTensorOpMultiplicandCongruous =
    RowMajorTensorOpView<TensorOpMultiplicandCongruous<ElementSize, Crosswise>>;
template <int ElementSize, int Crosswise>
using ColumnMajorTensorOpMultiplicandCongruous =
    ColumnMajorTensorOpView<TensorOpMultiplicandCongruous<ElementSize, Crosswise>>;
template <int ElementSize, int Crosswise>
using RowMajorTensorOpMultiplicandCrosswise =
    RowMajorTensorOpView<TensorOpMultiplicandCrosswise<ElementSize, Crosswise>>;
template <int ElementSize, int Crosswise>
using ColumnMajorTensorOpMultiplicandCrosswise =
    ColumnMajorTensorOpView<TensorOpMultiplicandCrosswise<ElementSize, Crosswise>>;

// Values from cutlass_layouts.json (CUTLASS 4.7 evaluated on the host), packed layouts.
static_assert(TensorOpMultiplicand<16, 64>::packed({64, 16})({0, 1}) == 72);
static_assert(TensorOpMultiplicand<16, 64>::packed({64, 16})({8, 1}) == 64);
static_assert(TensorOpMultiplicand<16, 32>::kFactor == 2);
static_assert(TensorOpMultiplicand<16, 32>::packed({32, 8})({0, 2}) == 72);
static_assert(TensorOpMultiplicand<32, 32>::packed({32, 8})({0, 1}) == 36);
static_assert(TensorOpMultiplicand<8, 64>::packed({64, 16})({8, 1}) == 72);

}  // namespace gemmlab
