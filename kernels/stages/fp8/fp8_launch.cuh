// The FP8 stages' host side beyond their maps (fp8_maps.h): the problem checks they share and
// how many of a stage's clusters the current GPU holds. Shared by stages 20a and 20b.
#pragma once
#include <atomic>
#include <cstdint>
#include <initializer_list>

#include "stages/fp8/fp8_maps.h"
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

// Launches an FP8 stage's kernel (S: its shape; tma / direct: its two epilogues, one signature)
// on as many clusters of S::kClusterM blocks as are resident, at most one per unit (a pair of
// tile rows x a tile column). D leaves through the TMA where its rows are 16-byte multiples
// (N % 8 == 0) and it starts 16-byte aligned, unless `direct_only`; units in groups of
// `group_pairs` m pairs.
template <class S, class Kernel>
cudaError_t launch_fp8_units(const Fp8GemmArgs& args, Kernel tma, Kernel direct, bool direct_only, int group_pairs) {
  CUtensorMap map_a, map_b_half;
  if (const cudaError_t e = encode_fp8_map(&map_a, args.A, args.m, args.k, S::kTileM); e != cudaSuccess) return e;
  if (const cudaError_t e = encode_fp8_map(&map_b_half, args.B, args.n, args.k, S::kTileN / S::kClusterM);
      e != cudaSuccess)
    return e;
  int clusters = 0;
  if (const cudaError_t e = resident_clusters<S>(&clusters, tma, direct); e != cudaSuccess) return e;
  const int m_tiles = (args.m + S::kTileM - 1) / S::kTileM, n_tiles = (args.n + S::kTileN - 1) / S::kTileN;
  const int m_pairs = (m_tiles + 1) / 2, units = m_pairs * n_tiles;
  if (clusters > units) clusters = units;
  const hopper::ClusterLaunch launch(dim3(S::kClusterM * clusters), dim3(S::kClusterM, 1, 1), S::kThreads,
                                     S::kSmemBytes, args.stream);
  CUtensorMap map_d{};
  const bool tma_store = !direct_only && args.n % 8 == 0 && reinterpret_cast<uintptr_t>(args.D) % 16 == 0 &&
                         encode_d_map(&map_d, args.D, args.m, args.n) == cudaSuccess;
  return cudaLaunchKernelEx(&launch.config, tma_store ? tma : direct, map_a, map_b_half, map_d, args.D, args.m, args.n,
                            args.k, args.scale_a, args.scale_b, m_pairs, n_tiles, group_pairs);
}

}  // namespace gemmlab::kernels::fp8
