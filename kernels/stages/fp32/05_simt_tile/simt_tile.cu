// Stage 5 (`simt-tile`), lesson 05-register-tiling. Adds over stage 3: register tiling, CUTLASS's
// SIMT threadblock (128x128x8 tile, 256 threads, 32x64 warp tiles, 8x8 accumulators a thread).
// Per k step a thread reads 8 A and 8 B values (four LDS.128) for 64 FFMAs. The global->shared
// thread map is CUTLASS's PitchLinearStripminedThreadMap from gemmlab/thread_map.h; one shared
// buffer: load, barrier, 8 k steps, barrier. The main loop is shared: fp32_simt.cuh. Any M, N, K.
// Run: gemmlab bench --stages sliced-k,simt-tile --sizes 4096
#include "stages/fp32/fp32_simt.cuh"

namespace gemmlab::kernels {
namespace {
using namespace simt;

__global__ void __launch_bounds__(kThreads, 2)
    simt_tile_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                     const float* __restrict__ B, float beta, float* __restrict__ C, bool vec_ok) {
  __shared__ SmemStage smem;
  const int m0 = blockIdx.x * kTileM, n0 = blockIdx.y * kTileN;
  TileLoader<1> loader(A, B, M, N, K, m0, n0, 0);
  const ThreadTile tt;
  float acc[kThreadM][kThreadN];
  clear(acc);
  float ra[kLoads], rb[kLoads];
  // The partial k-tile first (element-wise k predicate), then whole tiles.
  for (int k0 = 0, step = first_tile_k(0, K); k0 < K; k0 += step, step = kTileK) {
    if (k0 == 0) loader.load_residue(ra, rb, step);
    else loader.load(ra, rb);
    loader.advance(step);
    __syncthreads();  // everyone is done reading the previous tile
    loader.store(smem, ra, rb);
    __syncthreads();  // the tile is complete
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      Fragment f;
      load_fragment(smem, k, tt, f);
      outer_product(acc, f);
    }
  }
  store_tile(C, M, N, m0, n0, tt, acc, alpha, beta, vec_ok);
}

const char* check(int, int n, int) {
  return (n + kTileN - 1) / kTileN > 65535 ? "simt-tile: N must be at most 8388480 (grid.y limit)"
                                           : nullptr;
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t launch(const GemmArgs& a) {
  const dim3 grid((a.m + kTileM - 1) / kTileM, (a.n + kTileN - 1) / kTileN);
  simt_tile_kernel<<<grid, kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, c_vector_ok(a));
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_simt_tile() { return {check, no_workspace, launch}; }

}  // namespace gemmlab::kernels
