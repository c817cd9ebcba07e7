// What every stage's .cu file provides: a host launch function with this signature, declared
// here from its row in stages.def. The runner owns the buffers; a stage only launches.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "gemmlab/conv_problem.h"

namespace gemmlab::kernels {

struct GemmArgs {
  int m = 0, n = 0, k = 0;
  float alpha = 1.f, beta = 0.f;
  const void* A = nullptr;  // fp32 track: float, column-major (lda = m); fp16: __half, row-major (lda = k)
  const void* B = nullptr;  // float / __half, column-major (ldb = k)
  float* C = nullptr;       // column-major (ldc = m); read when beta != 0
  void* workspace = nullptr;  // split-k / stream-k partials; size from the stage's workspace()
  size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
};

// A convolution stage's call (the conv tracks): NHWC activations, KRSC filters of the stage's
// element type (int4: eight per 32-bit word, gemmlab/conv_problem.h), NPQK fp32 output.
struct ConvArgs {
  ::gemmlab::conv::Shape shape;
  float alpha = 1.f, beta = 0.f;
  const void* input = nullptr;
  const void* filter = nullptr;
  float* output = nullptr;  // read when beta != 0
  cudaStream_t stream = nullptr;
  // The fused epilogue (track conv-fused, stage 14e; every other conv stage leaves these unset):
  // output_f16 (__half NPQK) = ReLU where `relu` (alpha * conv + bias[k] + residual), summed in fp32,
  // rounded to fp16 once; `output` and beta unused.
  void* output_f16 = nullptr;
  const float* bias = nullptr;     // K fp32 values (batch norm's scale and shift folded in)
  const void* residual = nullptr;  // __half NPQK added before the ReLU, or nullptr
  bool relu = false;
};

// An FP8 stage's call (the fp8 and fp8-block tracks): D (bf16, row-major M x N, ldd = N) =
// scale_a * scale_b * A * B^T with A (e4m3, row-major M x K) and B (e4m3, N x K, K contiguous):
// both operands K-major, cuBLASLt's FP8 "TN" layout. Scales are device pointers:
//   fp8 (per tensor): one float each (as cuBLASLt's A/B_SCALE_POINTER);
//   fp8-block: scale_a ceil(K/128) x M floats, M contiguous ([kb][m]: one per 128 k of each row
//   of A); scale_b ceil(N/128) x ceil(K/128) floats ([nb][kb]: one per 128 x 128 block of B).
struct Fp8GemmArgs {
  const __nv_fp8_e4m3* A = nullptr;  // M x K, row stride K
  const __nv_fp8_e4m3* B = nullptr;  // N x K, row stride K
  __nv_bfloat16* D = nullptr;        // M x N, row stride N
  int m = 0, n = 0, k = 0;
  const float* scale_a = nullptr;
  const float* scale_b = nullptr;
  cudaStream_t stream = nullptr;
};

struct StageLaunch {
  // Returns nullptr when the stage can run this problem, else a message naming the rule
  // (e.g. "K must be a multiple of 8 for 16-byte fp16 loads").
  const char* (*check)(int m, int n, int k);
  size_t (*workspace)(int m, int n, int k);
  cudaError_t (*launch)(const GemmArgs& args);
  // Convolution stages only (nullptr elsewhere; their GEMM check refuses every problem).
  const char* (*check_conv)(const ::gemmlab::conv::Shape& shape) = nullptr;
  cudaError_t (*launch_conv)(const ConvArgs& args) = nullptr;
  // FP8 stages only (nullptr elsewhere; their GEMM check refuses every problem): nullptr when the
  // stage can run M x N x K here, else the rule (e.g. "K must be a multiple of 16: ...").
  const char* (*check_fp8)(int m, int n, int k) = nullptr;
  cudaError_t (*launch_fp8)(const Fp8GemmArgs& args) = nullptr;
};

#define GEMMLAB_STAGE(launch, ...) StageLaunch launch();
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE

}  // namespace gemmlab::kernels
