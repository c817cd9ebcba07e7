// What every stage's .cu file provides: a host launch function with this signature, declared
// here and listed in stages.def. The runner owns the buffers; a stage only launches.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

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

struct StageLaunch {
  // Returns nullptr when the stage can run this problem, else a message naming the rule
  // (e.g. "K must be a multiple of 8 for 16-byte fp16 loads").
  const char* (*check)(int m, int n, int k);
  size_t (*workspace)(int m, int n, int k);
  cudaError_t (*launch)(const GemmArgs& args);
};

#define GEMMLAB_STAGE(id, name, track, lesson, kernel, tm, tn, tk, threads, regs, smem, loads, raster, \
                      raster_param, partition, coresident, launch)                                     \
  StageLaunch launch();
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE

}  // namespace gemmlab::kernels
