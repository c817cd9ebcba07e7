// Stage 3 (`sliced-k`), lesson 03-sliced-k. Adds over stage 2b: reuse through shared memory.
// A block of 32x32 threads owns a 32x32 C tile and walks K in 32-deep slices (CuTe's "sliced-k"
// split), staging a slice of A and of B in shared memory; each global load now feeds 32 FMAs.
// Still one C element per thread, so each FMA costs two shared loads: shared-memory bound.
// The layout (As[k][m], Bs[n][k]) is the simulator's gemmlab/sliced_k_tile.h. Any M, N, K.
// Run: gemmlab bench --stages naive,sliced-k --sizes 4096
#include "gemmlab/sliced_k_tile.h"
#include "stage_api.h"

namespace gemmlab::kernels {
namespace {

// The shared-memory layout (As[k][m], Bs[n][k]) is the simulator's: gemmlab/sliced_k_tile.h.
using sliced_k_tile::a_at;
using sliced_k_tile::b_at;
using sliced_k_tile::kTile;

__global__ void __launch_bounds__(kTile* kTile)
    sliced_k_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                    const float* __restrict__ B, float beta, float* __restrict__ C) {
  __shared__ float As[kTile][kTile];  // As[k][m]
  __shared__ float Bs[kTile][kTile];  // Bs[n][k]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.x * kTile, n0 = blockIdx.y * kTile;
  const int m = m0 + tx, n = n0 + ty;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    // A(m0 + tx, k0 + ty) and B(k0 + tx, n0 + ty): tx runs along the contiguous dimension.
    a_at(As, ty, tx) = (m < M && k0 + ty < K) ? A[m + size_t(k0 + ty) * M] : 0.f;
    b_at(Bs, ty, tx) = (n < N && k0 + tx < K) ? B[(k0 + tx) + size_t(n) * K] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) acc = fmaf(a_at(As, k, tx), b_at(Bs, ty, k), acc);
    __syncthreads();
  }
  if (m < M && n < N) {
    float* c = C + m + size_t(n) * M;
    *c = beta == 0.f ? alpha * acc : alpha * acc + beta * *c;
  }
}

const char* check(int, int n, int) {
  return (n + kTile - 1) / kTile > 65535 ? "sliced-k: N must be at most 2097120 (grid.y limit)"
                                         : nullptr;
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t launch(const GemmArgs& a) {
  const dim3 grid((a.m + kTile - 1) / kTile, (a.n + kTile - 1) / kTile);
  sliced_k_kernel<<<grid, dim3(kTile, kTile), 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C);
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_sliced_k() { return {check, no_workspace, launch}; }

}  // namespace gemmlab::kernels
