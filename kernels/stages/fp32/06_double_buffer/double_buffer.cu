// Stage 6 (`double-buffer`), lesson 06-double-buffer. Adds over stage 5: overlap, CUTLASS's
// MmaPipelined. Tile t+1 is loaded into registers while tile t computes and stored to the second
// shared buffer at its last k step; one barrier per tile instead of two; the warp fragments are
// double-buffered in registers. The loop is mainloop_pipelined in fp32_simt.cuh; with M and K
// multiples of 4 the loads are 128-bit. Any M, N, K.
// Run: gemmlab bench --stages simt-tile,double-buffer --sizes 4096
#include "stages/fp32/fp32_simt.cuh"

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
