#include "exercise_nvrtc.h"

#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#ifndef GEMMLAB_EXERCISE_ROOT
#define GEMMLAB_EXERCISE_ROOT ""
#endif
#ifndef GEMMLAB_CUDA_INCLUDE
#define GEMMLAB_CUDA_INCLUDE "/usr/local/cuda/include"
#endif

namespace gemmlab::exercise {
namespace {
namespace fs = std::filesystem;

std::string project_root() {
  if (const char* env = std::getenv("GEMMLAB_ROOT"); env && *env) return env;
  return GEMMLAB_EXERCISE_ROOT;
}

// NVRTC has no C++ standard library: the headers the kernel sources name come from libcu++ (the C
// ones for cuda.h, whose CUtensorMap the Hopper kernels take), and so do the ones a learner's file
// may include (<cmath>: exercise 20-fp8/quantize's std::frexp, std::nearbyint, ...).
constexpr const char* kCstdint =
    "#pragma once\n#include <cuda/std/cstdint>\nnamespace std { using namespace cuda::std; }\n"
    "using cuda::std::uint32_t; using cuda::std::uint64_t; using cuda::std::int64_t; using cuda::std::uintptr_t;\n";
constexpr const char* kCstddef = "#pragma once\n#include <cuda/std/cstddef>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kCmath = "#pragma once\n#include <cuda/std/cmath>\nnamespace std { using namespace cuda::std; }\n";
constexpr const char* kCstring = "#pragma once\n#include <cuda/std/cstring>\nnamespace std { using namespace cuda::std; }\n";

std::string nvrtc_log(nvrtcProgram p) {
  size_t n = 0;
  nvrtcGetProgramLogSize(p, &n);
  std::string log(n, '\0');
  if (n) nvrtcGetProgramLog(p, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

// The harness comes first and the learner's file after it, so that nothing the learner defines (a
// macro K, a global kThreads) changes the stage's code; the harness declares the learner's function
// itself.
void compile_harness(const char* harness, const char* fast_kernel, const char* other_kernel, const std::string& source,
                     const std::string& gpu_arch, CompiledKernels& out) {
  const std::string root = project_root();
  const std::string unit = "#include \"" + std::string(harness) + "\"\n#line 1 \"solution.cpp\"\n" + source + "\n";
  const char* headers[] = {kCstdint, kCstddef, kCstdint, kCstddef, kCmath, kCmath, kCstring};
  const char* names[] = {"cstdint", "cstddef", "stdint.h", "stdlib.h", "cmath", "math.h", "cstring"};
  nvrtcProgram prog = nullptr;
  if (nvrtcCreateProgram(&prog, unit.c_str(), "exercise.cu", static_cast<int>(std::size(names)), headers, names) !=
      NVRTC_SUCCESS)
    return void(out.error = words("NVRTC could not start"));
  std::unique_ptr<_nvrtcProgram, void (*)(_nvrtcProgram*)> owner(prog, [](_nvrtcProgram* p) { nvrtcDestroyProgram(&p); });
  if (nvrtcAddNameExpression(prog, fast_kernel) != NVRTC_SUCCESS ||
      (other_kernel && nvrtcAddNameExpression(prog, other_kernel) != NVRTC_SUCCESS))
    return void(out.error = words("NVRTC refused the harness's kernel names"));
  const std::string arch = "--gpu-architecture=" + gpu_arch;
  const std::string inc_kernels = "--include-path=" + (fs::path(root) / "kernels").string();
  const std::string inc_device = "--include-path=" + (fs::path(root) / "sim" / "device").string();
  const std::string inc_cuda = std::string("--include-path=") + GEMMLAB_CUDA_INCLUDE;
  const std::string inc_cccl = std::string("--include-path=") + GEMMLAB_CUDA_INCLUDE + "/cccl";
  const char* options[] = {arch.c_str(), "--std=c++20", "-default-device",
                           inc_kernels.c_str(), inc_device.c_str(), inc_cuda.c_str(), inc_cccl.c_str()};
  if (nvrtcCompileProgram(prog, static_cast<int>(std::size(options)), options) != NVRTC_SUCCESS) {
    const std::string log = nvrtc_log(prog);
    out.learners_error = log.find("solution.cpp(") != std::string::npos;
    out.error = log.empty() ? words("NVRTC stopped without a log") : literal(log);
    return;
  }
  size_t bytes = 0;
  const char *fast = nullptr, *other = nullptr;
  if (nvrtcGetCUBINSize(prog, &bytes) != NVRTC_SUCCESS || bytes == 0)
    return void(out.error = words("NVRTC made no code for %s", gpu_arch));
  std::vector<char> cubin(bytes);
  if (nvrtcGetCUBIN(prog, cubin.data()) != NVRTC_SUCCESS || nvrtcGetLoweredName(prog, fast_kernel, &fast) != NVRTC_SUCCESS ||
      (other_kernel && nvrtcGetLoweredName(prog, other_kernel, &other) != NVRTC_SUCCESS))
    return void(out.error = words("NVRTC did not return the compiled kernels"));
  cudaError_t e = cudaLibraryLoadData(&out.library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e == cudaSuccess) e = cudaLibraryGetKernel(&out.fast, out.library, fast);
  if (e == cudaSuccess && other) e = cudaLibraryGetKernel(&out.other, out.library, other);
  if (e != cudaSuccess) out.error = words("the GPU did not load the compiled kernel: %s", cudaGetErrorString(e));
}

}  // namespace gemmlab::exercise
