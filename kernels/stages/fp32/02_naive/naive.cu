// Stages 2a (`naive-uncoalesced`) and 2b (`naive`), lesson 02-naive: the starting point. One
// thread per C element walks the whole K loop, reading A and B straight from global memory (2K
// loads for 2K flops). The two stages differ only in which C element a lane owns: 2b puts
// threadIdx.x along m, so a warp's loads of A and stores of C are coalesced and B is a broadcast;
// 2a puts it along n, and every lane touches its own sector. Any M, N, K.
// Run: gemmlab bench --stages naive-uncoalesced,naive --sizes 1024
#include "stage_api.h"

namespace gemmlab::kernels {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;  // 256 threads

template <bool kRowsAlongLanes>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    naive_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                 const float* __restrict__ B, float beta, float* __restrict__ C) {
  const int fast = blockIdx.x * kBlockX + threadIdx.x;
  const int slow = blockIdx.y * kBlockY + threadIdx.y;
  const int i = kRowsAlongLanes ? fast : slow;  // row of C (m)
  const int j = kRowsAlongLanes ? slow : fast;  // column of C (n)
  if (i >= M || j >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[i + k * M] * B[k + j * K];  // A(i,k), B(k,j)
  float* c = C + i + size_t(j) * M;
  *c = beta == 0.f ? alpha * acc : alpha * acc + beta * *c;
}

// blockIdx.y counts the slow dimension in steps of 8: CUDA allows 65535 of them.
const char* check_rows_along_lanes(int, int n, int) {
  return n > 65535 * kBlockY ? "naive: N must be at most 524280 (grid.y limit)" : nullptr;
}
const char* check_columns_along_lanes(int m, int, int) {
  return m > 65535 * kBlockY ? "naive-uncoalesced: M must be at most 524280 (grid.y limit)"
                             : nullptr;
}
size_t no_workspace(int, int, int) { return 0; }

template <bool kRowsAlongLanes>
cudaError_t launch(const GemmArgs& a) {
  const int fast = kRowsAlongLanes ? a.m : a.n, slow = kRowsAlongLanes ? a.n : a.m;
  const dim3 grid((fast + kBlockX - 1) / kBlockX, (slow + kBlockY - 1) / kBlockY);
  naive_kernel<kRowsAlongLanes><<<grid, dim3(kBlockX, kBlockY), 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C);
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_naive() { return {check_rows_along_lanes, no_workspace, launch<true>}; }
StageLaunch launch_naive_uncoalesced() {
  return {check_columns_along_lanes, no_workspace, launch<false>};
}

}  // namespace gemmlab::kernels
