// Stage 4: double buffer - CUTLASS MmaPipelined (CUTLASS's device::Gemm): prologue, two shared-memory stages,
// warp-fragment double buffering.
//
// What it adds over stage 3: overlap. The loads of k-tile t+1 are issued into registers at the
// start of tile t and written to the second shared-memory stage at its last k step, so global
// latency hides behind 8 k steps of math; one __syncthreads per tile instead of two. Inside a
// tile the fragment for step k+1 is read while step k's 64 FFMAs run (two register fragments).
// Same tile, warps, thread map and 8x8 per thread as stage 3 (fp32_simt.cuh).
// Measured (H200): 46.7 TFLOP/s at 4096^3 (91.8% of cuBLAS SGEMM, no TF32), 47.5 at 8192^3
// (93.6%); simt-tile: 40.3. With M, K multiples of 4 the loads are 128-bit (the same thread-map
// function with kElementsPerAccess = 4; scalar loads: 43.3 at 4096^3).
// Run: gemmlab bench --stages simt-tile,double-buffer --sizes 4096
#include "fp32_simt.cuh"

namespace gemmlab::kernels {
namespace {
using namespace simt;

template <int kAccess>
__global__ void __launch_bounds__(kThreads, 2)
    double_buffer_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                         const float* __restrict__ B, float beta, float* __restrict__ C,
                         bool vec_ok) {
  __shared__ SmemStage smem[2];
  const int m0 = blockIdx.x * kTileM, n0 = blockIdx.y * kTileN;
  float acc[kThreadM][kThreadN];
  clear(acc);
  mainloop_pipelined<kAccess>(A, B, M, N, K, m0, n0, 0, K, smem, acc);
  store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
}

const char* check(int, int n, int) {
  return (n + kTileN - 1) / kTileN > 65535
             ? "double-buffer: N must be at most 8388480 (grid.y limit)"
             : nullptr;
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t launch(const GemmArgs& a) {
  const dim3 grid((a.m + kTileM - 1) / kTileM, (a.n + kTileN - 1) / kTileN);
  (ab_vector_ok(a) ? double_buffer_kernel<4> : double_buffer_kernel<1>)<<<grid, kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, c_vector_ok(a));
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_double_buffer() { return {check, no_workspace, launch}; }

}  // namespace gemmlab::kernels
