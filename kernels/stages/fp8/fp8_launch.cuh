// The FP8 stages' host side beyond their maps (fp8_maps.h): the problem checks they share and
// how many of a stage's clusters the current GPU holds. Shared by stages 20a and 20b.
#pragma once
#include <atomic>
#include <initializer_list>

#include "stages/hopper/hopper_host.h"      // check_hopper_device
#include "stages/hopper/hopper_launch.cuh"  // ClusterLaunch

namespace gemmlab::kernels::fp8 {

// nullptr when an FP8 stage whose kernel is `kernel` can run M x N x K on the current GPU.
inline const char* check_fp8_problem(int m, int n, int k, const void* kernel) {
  if (m < 1 || n < 1 || k < 1) return "m, n and k must be at least 1";
  if (m > (1 << 30) || n > (1 << 30) || k > (1 << 30))
    return "m, n and k must be at most 1073741824 (2^30): the kernel indexes in 32-bit ints";
  if (k % 16 != 0)
    return "K must be a multiple of 16: TMA needs 16-byte row strides (K e4m3 bytes per row of A and B); "
           "pad K with zeros";
  return hopper::check_hopper_device(kernel);
}

// An FP8 stage's StageLaunch answers for the fp32 / fp16 problem: it solves none (the runner
// calls check_fp8 / launch_fp8).
inline const char* refuse_gemm(int, int, int) {
  return "an FP8 stage: it runs e4m3 problems (gemmlab bench --stages fp8,fp8-block)";
}
inline size_t no_workspace(int, int, int) { return 0; }

// Clusters of S::kClusterM blocks of `kernels` (a stage's instantiations, one shared memory size
// and block) the current GPU holds at once (66 on a 132-SM H100 / H200), asked once per device.
template <class S, class First, class... More>
cudaError_t resident_clusters(int* clusters, First first, More... more) {
  constexpr int kDevices = 64;
  static std::atomic<int> known[kDevices] = {};
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (device < kDevices && (*clusters = known[device].load()) > 0) return cudaSuccess;
  for (const void* kernel : {reinterpret_cast<const void*>(first), reinterpret_cast<const void*>(more)...})
    if (const cudaError_t e =
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(S::kSmemBytes));
        e != cudaSuccess)
      return e;
  hopper::ClusterLaunch probe(dim3(S::kClusterM), dim3(S::kClusterM, 1, 1), S::kThreads, S::kSmemBytes, nullptr);
  if (const cudaError_t e = cudaOccupancyMaxActiveClusters(clusters, first, &probe.config);
      e != cudaSuccess)
    return e;
  if (*clusters < 1) return cudaErrorInvalidConfiguration;
  if (device < kDevices) known[device] = *clusters;
  return cudaSuccess;
}

}  // namespace gemmlab::kernels::fp8
