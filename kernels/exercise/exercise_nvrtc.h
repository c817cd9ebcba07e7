// The NVRTC build of an exercise's GPU harness with the learner's file in it (grade_device_gpu.cpp,
// grade_fp8_quantize_gpu.cpp): the harness (kernels/exercise/<grader>_harness.cuh) first, the
// learner's file after it as solution.cpp, compiled for one GPU architecture and loaded.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "words.h"

namespace gemmlab::exercise {

struct CompiledKernels {
  Words error;                // non-empty: what went wrong (the compiler's log, or the runtime's words)
  bool learners_error = false;  // the compiler stopped in the learner's file
  // The runtime's library API (CUDA 12+), not the driver's: GEMM Lab must start on a machine
  // without the NVIDIA driver, so nothing links libcuda directly.
  cudaLibrary_t library = nullptr;
  cudaKernel_t fast = nullptr, other = nullptr;
  CompiledKernels() = default;
  CompiledKernels(const CompiledKernels&) = delete;
  CompiledKernels& operator=(const CompiledKernels&) = delete;
  ~CompiledKernels() {
    if (!library) return;
    cudaDeviceSynchronize();  // an exception between launches may leave the kernels queued
    cudaLibraryUnload(library);
  }
};

// Fills `out` with the kernels named `fast_kernel` and `other_kernel` (name expressions, e.g.
// "&gemmlab::kernels::exercise_gpu::tma_box_kernel"; other_kernel may be nullptr) of `harness` (a
// path under kernels/) built with `source` for `gpu_arch` ("sm_90a"), or with what failed in
// out.error.
void compile_harness(const char* harness, const char* fast_kernel, const char* other_kernel, const std::string& source,
                     const std::string& gpu_arch, CompiledKernels& out);

}  // namespace gemmlab::exercise
