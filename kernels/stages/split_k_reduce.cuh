// The second kernel of the split-k stages (13a on the fp32 track, 19b on the Hopper one):
// C = alpha * sum_s partial[s] + beta * C, the slices added in order, so that every run gives the
// same C (no atomics). partial[s] is an M x N column-major tile set, as C.
// On sm_90 it may be launched as a programmatic dependent of the split kernel (`overlap`): its
// blocks are placed while the split kernel still runs and wait at griddepcontrol.wait until that
// kernel has finished and its partials are visible, so no launch gap sits between the two.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>

namespace gemmlab::kernels {
namespace {  // each stage's file has its own copy (no -rdc: a kernel must live in one file)

__global__ void __launch_bounds__(256)
    split_k_reduce_kernel(long long elements, int slices, float alpha, float beta,
                          const float* __restrict__ partials, float* __restrict__ C) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");  // a no-op unless launched with `overlap`
#endif
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < elements; i += gridDim.x * 256ll) {
    float sum = 0.f;
    for (int s = 0; s < slices; ++s) sum += partials[s * elements + i];
    C[i] = beta == 0.f ? alpha * sum : alpha * sum + beta * C[i];
  }
}

// Launches the reduction of `slices` partial sets of m x n into C on `stream`; with `overlap`, as a
// programmatic dependent of the kernel before it on the stream (which triggers it).
cudaError_t reduce_split_k(int m, int n, int slices, float alpha, float beta, const float* partials, float* C,
                           cudaStream_t stream, bool overlap = false) {
  const long long elements = 1ll * m * n;
  const int blocks = int(std::min<long long>((elements + 255) / 256, 4096));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks), config.blockDim = dim3(256), config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute, config.numAttrs = overlap ? 1 : 0;
  return cudaLaunchKernelEx(&config, split_k_reduce_kernel, elements, slices, alpha, beta, partials, C);
}

}  // namespace
}  // namespace gemmlab::kernels
