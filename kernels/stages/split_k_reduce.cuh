// The second kernel of the split-k stages (13a on the fp32 track, 19c on the Hopper one):
// C = alpha * sum_s partial[s] + beta * C, the slices added in order, so that every run gives the
// same C (no atomics). partial[s] is an M x N column-major tile set, as C.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>

namespace gemmlab::kernels {
namespace {  // each stage's file has its own copy (no -rdc: a kernel must live in one file)

__global__ void __launch_bounds__(256)
    split_k_reduce_kernel(long long elements, int slices, float alpha, float beta,
                          const float* __restrict__ partials, float* __restrict__ C) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < elements; i += gridDim.x * 256ll) {
    float sum = 0.f;
    for (int s = 0; s < slices; ++s) sum += partials[s * elements + i];
    C[i] = beta == 0.f ? alpha * sum : alpha * sum + beta * C[i];
  }
}

// Launches the reduction of `slices` partial sets of m x n into C on `stream`.
cudaError_t reduce_split_k(int m, int n, int slices, float alpha, float beta, const float* partials, float* C,
                                  cudaStream_t stream) {
  const long long elements = 1ll * m * n;
  const int blocks = int(std::min<long long>((elements + 255) / 256, 4096));
  split_k_reduce_kernel<<<blocks, 256, 0, stream>>>(elements, slices, alpha, beta, partials, C);
  return cudaGetLastError();
}

}  // namespace
}  // namespace gemmlab::kernels
