// The shared-memory side of the FP16 tensor-core stages 7-12 (kernels/stages/fp16/*.cuh): the
// operand tile layout, which thread stores which 16-byte vector, where each lane points its
// LDS.32 / ldmatrix fragment loads, and the staged epilogue's buffer. The kernels call these
// functions; sim/tests/test_kernel_banks.cpp feeds the same addresses to the bank model and
// compares with ncu.
//
// Operand tiles (A: m rows, B: n rows; both k-contiguous) are kRows x kTileK halves, row-major,
// optionally passed through CuTe's Swizzle<3,3,3> on the half offset:
//   kTileK 32, unswizzled: rows are 64 bytes apart, so an ldmatrix phase (8 rows at one k) puts
//     rows r and r+2 in the same four banks: 4 wavefronts per 8x8 matrix, 16 per .x4.
//   swizzled: the 16-byte chunk index (bits 3-5) is XORed with bits 6-8, and the 8 rows land in
//     8 different chunks: 1 wavefront per matrix, 4 per .x4.
#pragma once
#include <cstdint>

#include "gemmlab/fragments.h"
#include "gemmlab/hd.h"
#include "gemmlab/swizzle.h"
#include "gemmlab/thread_map.h"

namespace gemmlab::fp16_tile {

// Half offset of element (row, k) of a kRows x kTileK operand tile.
template <int kTileK, bool kSwizzled>
struct SmemOperandLayout {
  static_assert(kTileK % 8 == 0, "rows are made of whole 16-byte vectors");
  GL_HD static constexpr int offset(int row, int k) {
    const int linear = row * kTileK + k;
    return kSwizzled ? static_cast<int>(Swizzle<3, 3, 3>{}(linear)) : linear;
  }
};
static_assert(SmemOperandLayout<32, true>::offset(2, 0) == 72);   // row 2 (bit 6) -> chunk 1
static_assert(SmemOperandLayout<32, false>::offset(2, 0) == 64);

// Global -> shared: which 16-byte vectors of a kRows x kTileK tile one thread copies. CUTLASS's
// PitchLinearWarpRakedThreadMap (contiguous = k, strided = rows), 8 halves per access:
//   (32 halves, 128 rows), 256 threads, warp 4x8 -> Iterations (1,2), Delta (32,8)
//   (32 halves, 256 rows), 256 threads, warp 4x8 -> Iterations (1,4), Delta (32,8)
template <int kRows, int kTileK, int kThreads>
struct OperandThreadMap {
  static constexpr int kVectorsPerRow = kTileK / 8;
  using Map = PitchLinearWarpRakedThreadMap<kTileK, kRows, kThreads, kVectorsPerRow,
                                            32 / kVectorsPerRow, 8>;
  static_assert(Map::kIterationsC == 1, "one vector per row per access pass");
  static constexpr int kAccesses = Map::kIterationsS;
  static constexpr int kRowStep = Map::kDeltaS;
};
static_assert(OperandThreadMap<128, 32, 256>::kAccesses == 2 &&
              OperandThreadMap<128, 32, 256>::kRowStep == 8);
static_assert(OperandThreadMap<256, 32, 256>::kAccesses == 4);

// Half offset of a thread's vector i, from its thread-map start (c = k, s = row): one STS.128
// (stages 7-9) or one cp.async of 16 bytes (stages 10 and 12).
template <class Layout, class ThreadMap>
GL_HD constexpr int tile_store_offset(PitchCoord start, int i) {
  return Layout::offset(start.s + i * ThreadMap::kRowStep, start.c);
}

// Stage 7: the LDS.32 that fills register r (0..3) of an m16 x k16 A fragment (a_{2r}, a_{2r+1}
// are neighbours along k), of m16 tile mi of the warp, at k step kk; and register r (0..1) of a
// k16 x n8 B fragment of n8 tile ni. B is stored n-major: element (k, n) at row n, column k.
template <class Layout>
GL_HD constexpr int lds32_a_offset(int warp_m, int mi, int kk, int lane, int r) {
  const FragCoord e = mma_m16n8k16_a(lane, 2 * r);  // (m, k)
  return Layout::offset(warp_m + mi * 16 + e.row, kk + e.col);
}
template <class Layout>
GL_HD constexpr int lds32_b_offset(int warp_n, int ni, int kk, int lane, int r) {
  const FragCoord e = mma_m16n8k16_b(lane, 2 * r);  // (k, n)
  return Layout::offset(warp_n + ni * 8 + e.col, kk + e.row);
}

// Stages 8-12: ldmatrix.x4. Each lane's row offsets (halves) for k step 0 and the first m16
// (A) / n16 (B) block of its warp tile: A rows (lane % 16, k 8 * (lane / 16)); B rows n =
// (lane % 8) + 8 * (lane / 16), k 8 * ((lane / 8) % 2) (fragments.h, the PTX ldmatrix tables).
struct LdsmLaneOffsets {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  template <class Layout>
  GL_HD static constexpr LdsmLaneOffsets of(int warp_m, int warp_n, int lane) {
    const FragCoord a_row = ldsm_x4_a_row_start(lane);  // (m, k)
    const FragCoord b_row = ldsm_x4_b_row_start(lane);  // (k, n)
    return {static_cast<std::uint32_t>(Layout::offset(warp_m + a_row.row, a_row.col)),
            static_cast<std::uint32_t>(Layout::offset(warp_n + b_row.col, b_row.row))};
  }
};

// Lane's ldmatrix row at k step kk (halves, a multiple of 16) of 16-row block `block`, from its
// step-0 offset `base` without re-swizzling: (base ^ kk) + block * 16 * kTileK. kUnit 1: offsets
// in halves; kUnit 2: in bytes. Valid because Swizzle<3,3,3> only moves bits 6-8 into bits 3-5,
// so (a) adding whole 16-row blocks (16 * kTileK halves, a multiple of 512) commutes with it and
// (b) XORing a k16 step (kk < 64, bits 4-5, disjoint from the lane's own k bit 3) does too.
// ldsm_offsets_separable proves it for every row.
template <int kTileK, int kUnit = 1>
GL_HD constexpr std::uint32_t ldsm_step_offset(std::uint32_t base, int kk, int block) {
  return (base ^ static_cast<std::uint32_t>(kUnit * kk)) +
         static_cast<std::uint32_t>(block * 16 * kTileK * kUnit);
}

template <int kTileK, bool kSwizzled>
constexpr bool ldsm_offsets_separable() {
  using Layout = SmemOperandLayout<kTileK, kSwizzled>;
  for (int row = 0; row < 256; ++row)
    for (int lane_k = 0; lane_k <= 8; lane_k += 8)
      for (int kk = 0; kk < kTileK; kk += 16)
        for (int block = 0; block < 4; ++block) {
          const auto direct = static_cast<std::uint32_t>(Layout::offset(row + 16 * block, kk + lane_k));
          const auto base = static_cast<std::uint32_t>(Layout::offset(row, lane_k));
          if (direct != ldsm_step_offset<kTileK>(base, kk, block)) return false;
        }
  return true;
}
static_assert(ldsm_offsets_separable<32, true>() && ldsm_offsets_separable<64, true>() &&
              ldsm_offsets_separable<32, false>() && ldsm_offsets_separable<64, false>());

// Stage 12's epilogue buffer: per warp, kCols = 16 columns of its kWarpM-row tile, column-major,
// each column padded by 4 floats. Offsets in floats.
//   write: lane (g, t) = (lane / 4, lane % 4) writes c_i of 16x8 tile (mi, nn) at column
//     nn * 8 + 2t (+1), row mi * 16 + g (+8): word 2t * 68 + g puts the 32 lanes in 32 banks
//     (2t * 68 = 8t mod 32): conflict-free STS.32.
//   read: iteration it, lanes 0-15 read 4 rows each of column 2 it, lanes 16-31 of column
//     2 it + 1: each 8-lane phase of the LDS.128 covers 128 contiguous bytes, conflict-free.
template <int kWarpM>
struct StagedEpilogueLayout {
  static constexpr int kCols = 16;
  static constexpr int kPitch = kWarpM + 4;
  GL_HD static constexpr int buffer(int warp) { return warp * kCols * kPitch; }
  GL_HD static constexpr int write(int mi, int nn, int lane, int i) {
    const FragCoord e = mma_m16n8k16_c(lane, i);
    return (nn * 8 + e.col) * kPitch + mi * 16 + e.row;
  }
  GL_HD static constexpr int read_col(int it, int lane) { return 2 * it + lane / 16; }
  GL_HD static constexpr int read_row(int lane) { return 4 * (lane % 16); }
  // The LDS.128's first float: column col (read_col), row row (read_row) of the warp's buffer.
  template <class T>
  GL_HD static constexpr T* read_address(T* staged, int col, int row) {
    return staged + col * kPitch + row;
  }
};
static_assert(StagedEpilogueLayout<64>::write(0, 0, 5, 0) == 2 * 68 + 1);  // lane 5: g 1, t 1
static_assert(StagedEpilogueLayout<64>::read_col(1, 17) == 3 &&
              StagedEpilogueLayout<64>::read_row(17) == 4);

}  // namespace gemmlab::fp16_tile
