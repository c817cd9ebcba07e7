// What every stage's .cu file provides: a host launch function with this signature, declared
// here from its row in stages.def. The runner owns the buffers; a stage only launches.
#pragma once
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
};

#define GEMMLAB_STAGE(launch, ...) StageLaunch launch();
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE

}  // namespace gemmlab::kernels
