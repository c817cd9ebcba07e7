// Where the tensor memory accelerator (TMA) puts an operand tile in shared memory, for the Hopper
// stages (kernels/stages/hopper). No CUDA here: the kernels include it for their box sizes and
// offsets, the simulator and sim/tests/test_hopper_addressing.cpp for the same numbers.
//
// Both fp16 operands are K-contiguous (A row-major m x k, B column-major k x n), so each operand
// tile is one 2D box of the tensor: inner dimension K (kBoxK = 64 halves = 128 bytes, the widest
// row CU_TENSOR_MAP_SWIZZLE_128B allows), outer dimension the tile's rows (m for A, n for B, at
// most 256 per box). The copy engine writes row r of the box at byte r * 128 and, with the
// 128-byte swizzle, moves 16-byte chunk c of the row to chunk c ^ (r % 8): Swizzle<3,4,3> on byte
// offsets, i.e. CuTe's Swizzle<3,3,3> on half offsets (checked against CUTLASS's values in
// test_hopper_addressing.cpp). The pattern repeats every 8 rows = 1024 bytes, so each box must
// start 1024-byte aligned in shared memory.
//   row 0 chunk 1 -> byte 16; row 1 chunk 0 -> byte 128 + 16; row 9 chunk 3 -> 1152 + 32
#pragma once
#include <cstdint>

#include "gemmlab/hd.h"
#include "gemmlab/swizzle.h"

namespace gemmlab::tma {

constexpr int kBoxK = 64;              // halves per box row
constexpr int kRowBytes = kBoxK * 2;   // 128
constexpr int kSwizzleAtomBytes = 1024;  // 8 rows of 128 bytes: one repeat of the swizzle
constexpr int kMaxBoxRows = 256;       // cuTensorMapEncodeTiled: boxDim[i] <= 256

// Byte offset of byte b of box row `row` (128-byte rows) with CU_TENSOR_MAP_SWIZZLE_128B.
// (CuTe's Swizzle<3,4,3> on bytes; gmma_layout.h names the other swizzle modes the same way.)
GL_HD constexpr std::uint32_t sw128_byte_offset(int row, int b) {
  return static_cast<std::uint32_t>(swizzle_apply(SwizzleParams{3, 4, 3}, row * kRowBytes + b));
}
// Byte offset of half (row, k) inside an operand box.
GL_HD constexpr std::uint32_t sw128_offset(int row, int k) { return sw128_byte_offset(row, 2 * k); }
static_assert(sw128_offset(0, 8) == 16 && sw128_offset(1, 0) == 144 && sw128_offset(9, 24) == 1152 + 32);
static_assert(sw128_offset(7, 56) == 7 * 128 + 0);  // chunk 7 of row 7 -> chunk 0

// Bytes one box of `rows` rows lands as; what the stage's mbarrier expects (expect_tx) per box.
GL_HD constexpr int box_bytes(int rows) { return rows * kRowBytes; }

// A B box `cols` rows long shared by the two blocks of a cluster (stages 18, 19): each block loads
// tile_n / 2 rows of it and multicasts them to both. Block `rank` (0 or 1) starts at this row:
// rank 1 at cols - tile_n / 2, so a whole tile splits in halves and a narrowed one (240 or 248
// columns, stage 19) has halves that overlap by 16 or 8 rows, which both blocks write alike.
//   (rank 1, 256, 256) -> 128; (rank 1, 240, 256) -> 112
GL_HD constexpr int pair_b_part_row(int rank, int cols, int tile_n) { return rank * (cols - tile_n / 2); }
static_assert(pair_b_part_row(0, 240, 256) == 0 && pair_b_part_row(1, 256, 256) == 128 &&
              pair_b_part_row(1, 240, 256) == 112);


// TMA needs every global row stride a multiple of 16 bytes: K % 8 == 0 for fp16 rows.
constexpr bool k_supported(long long k) { return k % 8 == 0; }

// The persistent stage's C boxes (TMA stores): C is f32 and column-major, so a box row is a
// column of C; 32 rows of m (128 bytes, the swizzle's width) x 32 columns = 4 KB. Row r, column c
// of the box is at sw128_byte_offset(c, 4 r): the 8 rows g and the 4 column pairs 2t a warp's
// accumulator store covers land in 32 different banks.
//   (row 5, col 3) -> 3 * 128 + ((1 ^ 3) << 4) + 4 = 420
constexpr int kCBoxRows = 32, kCBoxCols = 32;
constexpr int kCBoxBytes = kCBoxRows * kCBoxCols * 4;
GL_HD constexpr std::uint32_t c_box_offset(int row, int col) { return sw128_byte_offset(col, 4 * row); }
static_assert(c_box_offset(5, 3) == 420);

}  // namespace gemmlab::tma
