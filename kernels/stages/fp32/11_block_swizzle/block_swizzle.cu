// Stage 11 (`block-swizzle`), lesson 11-block-swizzle. Adds over stage 6: the order in which the
// C tiles run. CUTLASS's GemmIdentityThreadblockSwizzle<8> puts 8 n tiles under consecutive
// blockIdx.x, grid (tiles_m * 8, ceil(tiles_n / 8)), so co-resident blocks share fewer A row
// bands in L2. The mapping is the simulator's (gemmlab/raster.h). Same main loop as stage 6.
// Run: gemmlab bench --stages double-buffer,block-swizzle --sizes 8192
#include "stages/fp32/fp32_simt.cuh"
#include "gemmlab/raster.h"

namespace gemmlab::kernels {
namespace {
using namespace simt;
using Swizzle = GemmIdentitySwizzle<simt_tile::kBlockSwizzleN>;  // 8

template <int kAccess>
__global__ void __launch_bounds__(kThreads, 2)
    block_swizzle_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                         const float* __restrict__ B, float beta, float* __restrict__ C,
                         bool vec_ok, int log_tile, GemmCoord tiled) {
  __shared__ SmemStage smem[2];
  const GemmCoord tile =
      Swizzle::get_tile_offset(log_tile, Dim3{int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)});
  if (!tile_in_problem(tile, tiled)) return;
  const int m0 = tile.m * kTileM, n0 = tile.n * kTileN;
  float acc[kThreadM][kThreadN];
  clear(acc);
  mainloop_pipelined<kAccess>(A, B, M, N, K, m0, n0, 0, K, smem, acc);
  store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
}

const char* check(int, int, int) { return nullptr; }  // grid.y = ceil(N/1024) <= 1024
size_t no_workspace(int, int, int) { return 0; }

cudaError_t launch(const GemmArgs& a) {
  const GemmCoord tiled = Swizzle::get_tiled_shape({a.m, a.n, a.k}, {kTileM, kTileN, kTileK}, 1);
  const int log_tile = Swizzle::get_log_tile(tiled);
  const Dim3 grid = Swizzle::get_grid_shape(tiled);
  (ab_vector_ok(a) ? block_swizzle_kernel<4> : block_swizzle_kernel<1>)<<<dim3(grid.x, grid.y, grid.z), kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, c_vector_ok(a), log_tile, tiled);
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_block_swizzle() { return {check, no_workspace, launch}; }

}  // namespace gemmlab::kernels
