// Stage 20a's host interface: D (bf16, row-major M x N) = scale_a * scale_b * A * B^T with A
// (e4m3, M x K) and B (e4m3, N x K) both K-contiguous: cuBLASLt's FP8 "TN" layout.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

namespace gemmlab::kernels::fp8 {

struct Fp8GemmArgs {
  const __nv_fp8_e4m3* A;  // M x K, row stride K
  const __nv_fp8_e4m3* B;  // N x K, row stride K
  __nv_bfloat16* D;        // M x N, row stride N
  int m, n, k;
  const float* scale_a;    // device pointers, one float each (as cuBLASLt's A/B_SCALE_POINTER)
  const float* scale_b;
  cudaStream_t stream;
};

// nullptr when stage 20a can run the problem on the current GPU, else what to change.
const char* check_fp8_tensor(int m, int n, int k);
// Launches stage 20a; cudaErrorInvalidValue where check_fp8_tensor refuses.
cudaError_t launch_fp8_tensor(const Fp8GemmArgs& args);

}  // namespace gemmlab::kernels::fp8
