// One warp's share of the block tile: kWarpM x kWarpN of C as (kWarpM/16) x (kWarpN/8) mma.sync
// m16n8k16 tiles, their A/B fragments loaded from shared memory, and the accumulators written to C.
// Which lane holds which element comes from gemmlab/fragments.h (the PTX ISA tables), the same
// functions the simulator's fragment view lists.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "fp16_ptx.cuh"
#include "gemmlab/fp16_smem_tile.h"
#include "gemmlab/fragments.h"

namespace gemmlab::kernels::fp16 {

using namespace ::gemmlab::fp16_tile;  // layouts and lane offsets: gemmlab/fp16_smem_tile.h

template <int kWarpM, int kWarpN>
struct WarpTile {
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "whole m16 tiles, pairs of n8 tiles");
  static constexpr int kMmaM = kWarpM / 16;  // m16 tiles
  static constexpr int kMmaN = kWarpN / 8;   // n8 tiles
  uint32_t a[kMmaM][4];  // A fragments: a0a1, a2a3, a4a5, a6a7 of each m16 x k16 tile
  uint32_t b[kMmaN][2];  // B fragments: b0b1, b2b3 of each k16 x n8 tile
};

// Stage 8: plain 32-bit shared loads. Register r of the A fragment holds a_{2r} and a_{2r+1},
// two neighbours along k, so one LDS.32 at a_{2r}'s (row, col) fills it; likewise for B, whose
// tile is stored n-major (the element (k, n) lives at row n, column k). 4 + 2 loads per mma tile.
template <class Layout, int kWarpM, int kWarpN>
__device__ __forceinline__ void load_fragments_lds32(WarpTile<kWarpM, kWarpN>& f, const __half* sA,
                                                     const __half* sB, int warp_m, int warp_n,
                                                     int kk, int lane) {
  using Tile = WarpTile<kWarpM, kWarpN>;
#pragma unroll
  for (int mi = 0; mi < Tile::kMmaM; ++mi)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      f.a[mi][r] = *reinterpret_cast<const uint32_t*>(
          sA + lds32_a_offset<Layout>(warp_m, mi, kk, lane, r));
    }
#pragma unroll
  for (int ni = 0; ni < Tile::kMmaN; ++ni)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      f.b[ni][r] = *reinterpret_cast<const uint32_t*>(
          sB + lds32_b_offset<Layout>(warp_n, ni, kk, lane, r));
    }
}

// ldmatrix row addresses: LdsmLaneOffsets (each lane's row for k step 0, swizzled once) and
// ldsm_step_offset ((base ^ kk) + block * 16 * kTileK, no re-swizzling per use; proved for
// every row by ldsm_offsets_separable) come from gemmlab/fp16_smem_tile.h.

// Stages 9-10: ldmatrix.x4. One instruction per m16 x k16 A tile (four 8x8 matrices, registers in
// a0a1..a6a7 order) and one per pair of k16 x n8 B tiles. Each lane gives one 16-byte row address.
template <int kTileK, int kWarpM, int kWarpN>
__device__ __forceinline__ void load_fragments_ldsm(WarpTile<kWarpM, kWarpN>& f, const __half* sA,
                                                    const __half* sB, LdsmLaneOffsets lane_offsets,
                                                    int kk) {
  using Tile = WarpTile<kWarpM, kWarpN>;
#pragma unroll
  for (int mi = 0; mi < Tile::kMmaM; ++mi)
    ldmatrix_x4(f.a[mi], shared_address(sA + ldsm_step_offset<kTileK>(lane_offsets.a, kk, mi)));
#pragma unroll
  for (int nj = 0; nj < Tile::kMmaN / 2; ++nj) {
    uint32_t r[4];
    ldmatrix_x4(r, shared_address(sB + ldsm_step_offset<kTileK>(lane_offsets.b, kk, nj)));
    f.b[2 * nj][0] = r[0];
    f.b[2 * nj][1] = r[1];
    f.b[2 * nj + 1][0] = r[2];
    f.b[2 * nj + 1][1] = r[3];
  }
}

// All mma tiles of the warp for one k16 step. kSerpentine (the hand-written mma_base HGEMM): odd m rows walk n backwards,
// so consecutive mma share a B fragment at every row turn (register reuse, fewer bank reads).
template <bool kSerpentine, int kWarpM, int kWarpN>
__device__ __forceinline__ void warp_mma(float (&acc)[kWarpM / 16][kWarpN / 8][4],
                                         const WarpTile<kWarpM, kWarpN>& f) {
  using Tile = WarpTile<kWarpM, kWarpN>;
#pragma unroll
  for (int mi = 0; mi < Tile::kMmaM; ++mi)
#pragma unroll
    for (int j = 0; j < Tile::kMmaN; ++j) {
      const int ni = (kSerpentine && (mi & 1)) ? Tile::kMmaN - 1 - j : j;
      mma_m16n8k16(acc[mi][ni], f.a[mi], f.b[ni]);
    }
}

// Stages 8-11: accumulators straight to C (column-major, ldc = M), C = alpha * acc + beta * C.
// Lane holds c0..c3 at (group, 2*thread_in_group + {0,1}) and 8 rows below: a warp's 32-bit
// stores cover 4 columns x 8 rows, 32-byte pieces of 4 different columns (stage 12 fixes this).
// C is read only when beta != 0: the runner poisons C with NaN and 0 * NaN is NaN.
template <int kWarpM, int kWarpN>
__device__ __forceinline__ void store_accumulators_direct(
    const float (&acc)[kWarpM / 16][kWarpN / 8][4], float* C, int M, int N, int row0, int col0,
    int lane, float alpha, float beta) {
#pragma unroll
  for (int mi = 0; mi < kWarpM / 16; ++mi)
#pragma unroll
    for (int ni = 0; ni < kWarpN / 8; ++ni)
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const FragCoord e = mma_m16n8k16_c(lane, i);
        const int row = row0 + mi * 16 + e.row, col = col0 + ni * 8 + e.col;
        if (row < M && col < N) {
          float* c = C + static_cast<size_t>(col) * static_cast<size_t>(M) + row;
          float v = alpha * acc[mi][ni][i];
          if (beta != 0.f) v += beta * *c;
          *c = v;
        }
      }
}

}  // namespace gemmlab::kernels::fp16
