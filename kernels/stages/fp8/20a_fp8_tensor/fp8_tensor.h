// Stage 20a's host interface: D (bf16, row-major M x N) = scale_a * scale_b * A * B^T with A
// (e4m3, M x K) and B (e4m3, N x K) both K-contiguous: cuBLASLt's FP8 "TN" layout.
#pragma once
#include <cuda_runtime.h>

#include "stage_api.h"

namespace gemmlab::kernels::fp8 {

using kernels::Fp8GemmArgs;  // kernels/stage_api.h: the FP8 stages' call

// nullptr when stage 20a can run the problem on the current GPU, else what to change.
const char* check_fp8_tensor(int m, int n, int k);
// Launches stage 20a; cudaErrorInvalidValue where check_fp8_tensor refuses.
cudaError_t launch_fp8_tensor(const Fp8GemmArgs& args);

}  // namespace gemmlab::kernels::fp8
