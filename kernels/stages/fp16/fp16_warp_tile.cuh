// One warp's share of the block tile: kWarpM x kWarpN of C as (kWarpM/16) x (kWarpN/8) mma.sync
// m16n8k16 tiles, their A/B fragments loaded from shared memory, and the accumulators written to C.
// Which lane holds which element comes from gemmlab/fragments.h (the PTX ISA tables), the same
// functions the simulator's fragment view lists.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "stages/fp16/fp16_ptx.cuh"
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

// Stages 7-10: accumulators straight to C (column-major, ldc = M), C = alpha * acc + beta * C.
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
