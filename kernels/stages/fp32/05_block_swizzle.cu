// Stage 5: threadblock swizzle - CUTLASS GemmIdentityThreadblockSwizzle<8> raster (CUTLASS's device::Gemm).
//
// What it adds over stage 4: the order in which C tiles run. Blocks start in launch order
// (blockIdx.x fastest); with the plain grid (m tiles along x) the ~264 co-resident blocks of a
// large problem cover every m tile and a few n tiles, so they stream all of A through the L2 at
// once. The swizzle puts 2^3 = 8 n tiles under consecutive blockIdx.x:
//   grid (tiles_m * 8, ceil(tiles_n / 8)); blockIdx (x, y) -> tile (x >> 3, (y << 3) + (x & 7))
// so co-resident blocks share fewer A row bands (8192^3 on 132 SMs x 2 blocks: 33 A bands and 8
// B bands in flight instead of 64 and 5). The mapping is sim's own (gemmlab/raster.h, the code
// `gemmlab sim raster` draws). Blocks past the problem edge return at once.
// Same main loop as stage 4 (fp32_simt.cuh). Measured (H200): equal to stage 4 at 4096^3
// (46.6 TFLOP/s: with 32 m tiles the plain grid's first wave already covers whole tile columns),
// +0.7% on the lesson's 32768x1024x1024 (46.34 against 46.01): A row bands are reused from L2
// (a study of CUTLASS's device::Gemm measured +1.2% on a 3060 Ti). SGEMM moves few bytes per flop: the gain stays small.
// Run: gemmlab bench --stages double-buffer,block-swizzle --sizes 8192
#include "fp32_simt.cuh"
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
