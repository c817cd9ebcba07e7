// Exercise 11-block-swizzle/block-order on the GPU: stage 11's kernel (stages/fp32/11_block_swizzle,
// the main loop and epilogue of stages/fp32/fp32_simt.cuh) with the learner's block_tile choosing
// each block's C tile, blocks launched in order on a 1-D grid. NVRTC compiles this file with the
// learner's after it (grade_device_gpu.cpp); nothing else includes it.
#pragma once
#include "stages/fp32/fp32_simt.cuh"

// The learner's: the tile (*m_tile, *n_tile) block `block` computes, blocks in launch order.
void block_tile(int block, int tiles_m, int tiles_n, int* m_tile, int* n_tile);

namespace gemmlab::kernels::exercise_gpu {

using namespace simt;

template <int kAccess>
__global__ void __launch_bounds__(kThreads, 2)
    block_order_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                       const float* __restrict__ B, float beta, float* __restrict__ C, bool vec_ok,
                       int tiles_m, int tiles_n) {
  __shared__ SmemStage smem[2];
  int tile_m = -1, tile_n = -1;
  ::block_tile(static_cast<int>(blockIdx.x), tiles_m, tiles_n, &tile_m, &tile_n);
  if (tile_m < 0 || tile_m >= tiles_m || tile_n < 0 || tile_n >= tiles_n) return;  // C keeps its poison
  const int m0 = tile_m * kTileM, n0 = tile_n * kTileN;
  float acc[kThreadM][kThreadN];
  clear(acc);
  mainloop_pipelined<kAccess>(A, B, M, N, K, m0, n0, 0, K, smem, acc);
  store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
}

}  // namespace gemmlab::kernels::exercise_gpu
