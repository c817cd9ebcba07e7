// Exercise 09-swizzle/smem-offset on the GPU: stage 9's kernel (stages/fp16/sync_tile.cuh,
// ldmatrix fragments) with the learner's smem_offset(row, k) as the shared layout of both operand
// tiles, for every 16-byte store and every ldmatrix row. NVRTC compiles this file with the
// learner's after it (grade_device_gpu.cpp); nothing else includes it.
#pragma once
#include "stages/fp16/ldmatrix_fragments.cuh"

int smem_offset(int row, int k);  // the learner's: the half offset of (row, k) in the 128 x 32 tile

namespace gemmlab::kernels::exercise_gpu {

// The host grade passed only layouts inside the tile with aligned 16-byte vectors. Anything else
// that reaches the GPU is still kept inside the tile and aligned: a wrong C, never a fault.
// For a layout that passed, the clamp changes nothing (its vectors start at multiples of 8).
struct LearnerLayout {
  __device__ __forceinline__ static int offset(int row, int k) {
    const int o = ::smem_offset(row, k);
    return static_cast<unsigned>(o) < 4096u ? (o & ~7) : 0;
  }
};

}  // namespace gemmlab::kernels::exercise_gpu

namespace gemmlab::kernels::fp16 {

// Stage 9 asks its layout once per lane and steps the address by XOR (ldsm_step_offset), which
// holds for Swizzle<3,3,3> alone. A learner's layout that passes the host grade need not be
// separable like that, so here every ldmatrix row asks the layout: correct for any bijection.
template <int kTileK>
struct FragmentLoads<FragmentLoad::Ldmatrix, exercise_gpu::LearnerLayout, kTileK> {
  using Layout = exercise_gpu::LearnerLayout;
  int warp_m, warp_n;
  FragCoord a_row, b_row;  // this lane's ldmatrix row at k step 0: A (m, k), B (k, n)
  __device__ __forceinline__ FragmentLoads(int warp_m_, int warp_n_, int lane)
      : warp_m(warp_m_), warp_n(warp_n_), a_row(ldsm_x4_a_row_start(lane)), b_row(ldsm_x4_b_row_start(lane)) {}

  template <int kWarpM, int kWarpN>
  __device__ __forceinline__ void load(WarpTile<kWarpM, kWarpN>& f, const __half* sA, const __half* sB,
                                       int kk) const {
    using Tile = WarpTile<kWarpM, kWarpN>;
#pragma unroll
    for (int mi = 0; mi < Tile::kMmaM; ++mi)
      ldmatrix_x4(f.a[mi], shared_address(sA + Layout::offset(warp_m + 16 * mi + a_row.row, kk + a_row.col)));
#pragma unroll
    for (int nj = 0; nj < Tile::kMmaN / 2; ++nj) {
      uint32_t r[4];
      ldmatrix_x4(r, shared_address(sB + Layout::offset(warp_n + 16 * nj + b_row.col, kk + b_row.row)));
      f.b[2 * nj][0] = r[0];
      f.b[2 * nj][1] = r[1];
      f.b[2 * nj + 1][0] = r[2];
      f.b[2 * nj + 1][1] = r[3];
    }
  }
};

}  // namespace gemmlab::kernels::fp16
