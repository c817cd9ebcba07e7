// Which lane holds which element of a tensor-core fragment, and which shared-memory row each lane
// must point ldmatrix at. Formulas from the PTX ISA ("Matrix Fragments for mma.m16n8k16 with
// floating point type", "Matrix Fragments for mma.m8n8k32", "ldmatrix"); the kernels call these
// functions directly, the simulator lists them for every lane.
//
// Conventions:
//   - A is M x K, B is K x N, C/D is M x N; FragCoord is (row, col) in that tile.
//   - Element index i counts "low to high" as in the PTX tables: a0..a7, b0..b3, c0..c3. Register r
//     holds elements [r * per_register, (r + 1) * per_register).
//   - groupID = lane >> 2, threadID_in_group = lane % 4 (the PTX names).
//
//   mma.m16n8k16 A, lane 5 (group 1, thread 1): a0 -> (1,2), a1 -> (1,3), a2 -> (9,2), a7 -> (9,11)
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

struct FragCoord {
  int row = 0;
  int col = 0;
  GL_HD constexpr bool operator==(const FragCoord& o) const { return row == o.row && col == o.col; }
};

constexpr int kWarpSize = 32;

/// PTX groupID: the lane's quad (0..7); lanes 4g..4g+3 share a row of A and C.
GL_HD constexpr int mma_group_id(int lane) { return lane >> 2; }
/// PTX threadID_in_group: the lane's place in its quad (0..3).
GL_HD constexpr int mma_thread_in_group(int lane) { return lane & 3; }

// ---- mma.sync.aligned.m16n8k16 .f16 / .bf16 ----------------------------------------------------
constexpr int kM16n8k16ElementsA = 8;  // a0..a7 in four .f16x2 registers
constexpr int kM16n8k16ElementsB = 4;  // b0..b3 in two .f16x2 registers
constexpr int kM16n8k16ElementsC = 4;  // c0..c3: four .f32 registers (or two .f16x2)

/// (row, col) of the 16x16 A tile that lane's element a_i holds (i = 0..7; register i/2).
GL_HD constexpr FragCoord mma_m16n8k16_a(int lane, int i) {
  return {mma_group_id(lane) + 8 * ((i >> 1) & 1), mma_thread_in_group(lane) * 2 + (i & 1) + 8 * (i >> 2)};
}
/// (row, col) of the 16x8 B tile (k, n) that lane's element b_i holds (i = 0..3; register i/2).
GL_HD constexpr FragCoord mma_m16n8k16_b(int lane, int i) {
  return {mma_thread_in_group(lane) * 2 + (i & 1) + 8 * (i >> 1), mma_group_id(lane)};
}
/// (row, col) of the 16x8 C/D tile that lane's accumulator c_i holds (i = 0..3).
GL_HD constexpr FragCoord mma_m16n8k16_c(int lane, int i) {
  return {mma_group_id(lane) + 8 * (i >> 1), mma_thread_in_group(lane) * 2 + (i & 1)};
}

// ---- mma.sync.aligned.m8n8k32 .s4 / .u4 (CUTLASS's turing_tensorop_conv2dfprop) ------------
constexpr int kM8n8k32ElementsA = 8;  // a0..a7: eight 4-bit values in one .b32 register
constexpr int kM8n8k32ElementsB = 8;  // b0..b7 in one .b32 register
constexpr int kM8n8k32ElementsC = 2;  // c0, c1: two .s32 registers

/// (row, col) of the 8x32 A tile that lane's a_i holds (i = 0..7, all in one register).
GL_HD constexpr FragCoord mma_m8n8k32_a(int lane, int i) {
  return {mma_group_id(lane), mma_thread_in_group(lane) * 8 + i};
}
/// (row, col) of the 32x8 B tile (k, n) that lane's b_i holds (i = 0..7).
GL_HD constexpr FragCoord mma_m8n8k32_b(int lane, int i) {
  return {mma_thread_in_group(lane) * 8 + i, mma_group_id(lane)};
}
/// (row, col) of the 8x8 s32 C/D tile that lane's c_i holds (i = 0..1).
GL_HD constexpr FragCoord mma_m8n8k32_c(int lane, int i) {
  return {mma_group_id(lane), mma_thread_in_group(lane) * 2 + i};
}

// ---- ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}.b16 -------------------------------------------
// Source side: lanes 8m..8m+7 give the addresses of rows 0..7 of matrix m. With .x1 only lanes
// 0..7 are read, with .x2 lanes 0..15 (on sm_75 the others must still hold valid addresses).
// Destination side: register m of every lane receives two 16-bit elements of matrix m.

/// Matrix (0..3) whose row address lane supplies.
GL_HD constexpr int ldsm_address_matrix(int lane) { return lane >> 3; }
/// Row (0..7) of that matrix whose address lane supplies.
GL_HD constexpr int ldsm_address_row(int lane) { return lane & 7; }
/// Whether ldmatrix .x{num} reads lane's address at all (num = 1, 2 or 4).
GL_HD constexpr bool ldsm_address_used(int num, int lane) { return lane < 8 * num; }

/// (row, col) of the 8x8 matrix as stored (row = the row whose address lane 8m+row gave) that
/// lane's register element j (0 or 1) receives. .trans delivers the transpose.
GL_HD constexpr FragCoord ldsm_dest(int lane, int j, bool trans) {
  return trans ? FragCoord{mma_thread_in_group(lane) * 2 + j, mma_group_id(lane)}
               : FragCoord{mma_group_id(lane), mma_thread_in_group(lane) * 2 + j};
}

// ---- ldmatrix feeding mma.m16n8k16: where each lane's row address must point -------------------
// Each function returns the (row, col) in the operand tile (A: m,k; B: k,n) of the FIRST of the
// 8 contiguous 16-bit elements lane's address covers. The row runs along k for the plain forms
// (operand stored K-contiguous) and along m or n for the .trans forms.

/// A stored row-major (K contiguous), ldmatrix.x4: lane -> (lane % 16, 8 * (lane / 16)).
/// Registers 0..3 then hold a0a1, a2a3, a4a5, a6a7 exactly as mma.m16n8k16 wants.
GL_HD constexpr FragCoord ldsm_x4_a_row_start(int lane) { return {lane & 15, 8 * (lane >> 4)}; }
/// A stored column-major (M contiguous), ldmatrix.x4.trans: the address row is k, 8 m's long.
GL_HD constexpr FragCoord ldsm_x4_trans_a_row_start(int lane) {
  return {8 * ((lane >> 3) & 1), (lane & 7) + 8 * (lane >> 4)};
}
/// B stored N x K (K contiguous, mma's ".col" B), ldmatrix.x2: lane -> (k = 8 * ((lane/8) & 1),
/// n = lane % 8). Lanes 16..31 repeat lanes 0..15 (ignored by .x2, valid addresses for sm_75).
GL_HD constexpr FragCoord ldsm_x2_b_row_start(int lane) { return {8 * ((lane >> 3) & 1), lane & 7}; }
/// B stored K x N (N contiguous), ldmatrix.x2.trans: lane -> (k = lane % 16, n = 0).
GL_HD constexpr FragCoord ldsm_x2_trans_b_row_start(int lane) { return {lane & 15, 0}; }
/// Two n8 B fragments (n = 0..15) at once, B stored N x K, ldmatrix.x4: registers 0,1 feed the
/// mma for n 0..7 and registers 2,3 the one for n 8..15.
GL_HD constexpr FragCoord ldsm_x4_b_row_start(int lane) {
  return {8 * ((lane >> 3) & 1), (lane & 7) + 8 * (lane >> 4)};
}
/// Two n8 B fragments, B stored K x N, ldmatrix.x4.trans: lane -> (k = lane % 16, n = 8 * (lane/16)).
GL_HD constexpr FragCoord ldsm_x4_trans_b_row_start(int lane) { return {lane & 15, 8 * (lane >> 4)}; }

// Spot values worked by hand from the PTX formulas (the tests compare every lane and element).
static_assert(mma_m16n8k16_a(5, 0) == FragCoord{1, 2});   // Figure "m16n8k16 A f16": T5 a0 at (1,2)
static_assert(mma_m16n8k16_a(5, 7) == FragCoord{9, 11});  // T5 a7 at row 9, col 11
static_assert(mma_m16n8k16_b(31, 3) == FragCoord{15, 7}); // T31 b3 at k 15, n 7
static_assert(mma_m16n8k16_c(30, 2) == FragCoord{15, 4}); // T30 c2 at row 15, col 4
static_assert(mma_m8n8k32_a(3, 7) == FragCoord{0, 31});   // T3 a7 at col 31
static_assert(ldsm_dest(6, 1, false) == FragCoord{1, 5}); // ldmatrix: T6 holds row 1, cols 4,5
static_assert(ldsm_x4_a_row_start(17) == FragCoord{1, 8}); // the hand-written mma_base HGEMM: row lane&15, col (lane>>4)<<3

}  // namespace gemmlab
