// Stage 8's new code: ldmatrix. One `ldmatrix.sync.aligned.m8n8.x4.shared.b16` (SASS
// LDSM.16.M88.4) gives a warp a whole 16x16 A fragment or a pair of 16x8 B fragments, where
// stage 7 needed 4 + 4 LDS.32: each lane names one 16-byte row and the hardware hands every lane
// exactly the elements mma.sync wants. Stages 9-12 and 15 read their fragments the same way.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "stages/fp16/sync_tile.cuh"

namespace gemmlab::kernels::fp16 {

// Four 8x8 b16 matrices; matrix i's eight row addresses come from lanes 8i .. 8i+7, and lane L
// receives row L/4, elements 2*(L%4) and 2*(L%4)+1 of each matrix in r[i].
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_row_address));
}

// ldmatrix row addresses: LdsmLaneOffsets (each lane's row for k step 0, swizzled once) and
// ldsm_step_offset ((base ^ kk) + block * 16 * kTileK, no re-swizzling per use; proved for
// every row by ldsm_offsets_separable) come from gemmlab/fp16_smem_tile.h.

// Stages 8-9: ldmatrix.x4. One instruction per m16 x k16 A tile (four 8x8 matrices, registers in
// a0a1..a6a7 order) and one per pair of k16 x n8 B tiles. Each lane gives one 16-byte row address.
template <class Layout, int kTileK>
struct FragmentLoads<FragmentLoad::Ldmatrix, Layout, kTileK> {
  LdsmLaneOffsets lane_offsets;  // this lane's row for k step 0, swizzled once
  __device__ __forceinline__ FragmentLoads(int warp_m, int warp_n, int lane)
      : lane_offsets(LdsmLaneOffsets::of<Layout>(warp_m, warp_n, lane)) {}

  template <int kWarpM, int kWarpN>
  __device__ __forceinline__ void load(WarpTile<kWarpM, kWarpN>& f, const __half* sA, const __half* sB,
                                       int kk) const {
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
};

}  // namespace gemmlab::kernels::fp16
