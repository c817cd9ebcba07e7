// What every Hopper stage's launch does the same way: refuse what it cannot run (wrong GPU, K
// not a multiple of 8, a grid too large), encode the two operand maps for the stage's tile, and
// launch on stage 12's serpentine grid with the stage's dynamic shared memory. `cluster_m`: blocks
// per cluster along gridDim.y (m tiles), which the grid's y extent is rounded up to.
#pragma once
#include <cuda.h>

#include "stages/hopper/hopper_host.h"
#include "stage_api.h"
#include "stages/fp16/staged_epilogue.cuh"

namespace gemmlab::kernels::hopper {

template <class Shape>
Dim3 serpentine_cluster_grid(int m, int n, int max_stride, int cluster_m) {
  Dim3 g = fp16::serpentine_grid<Shape>(m, n, max_stride);
  g.y = (g.y + cluster_m - 1) / cluster_m * cluster_m;
  return g;
}

template <class Shape>
const char* check_serpentine_tma(const void* kernel, int m, int n, int k, int max_stride, int cluster_m = 1) {
  if (const char* why = check_hopper_device(kernel)) return why;
  if (const char* why = check_tma_problem(m, n, k)) return why;
  if (const char* why = fp16::check_serpentine<Shape>(m, n, k, max_stride)) return why;
  if (serpentine_cluster_grid<Shape>(m, n, max_stride, cluster_m).y > fp16::kMaxGridYZ)
    return "m is too large: the grid has one block per 128 rows on gridDim.y, rounded up to whole "
           "clusters, which holds at most 65535 blocks";
  return nullptr;
}

// A box is 64 halves x the tile's rows of its operand (A: kTileM rows of m, B: kTileN rows of n,
// or a share of them where the blocks of a cluster each load part of B).
template <class Shape>
cudaError_t encode_maps(const GemmArgs& args, CUtensorMap* map_a, CUtensorMap* map_b, int b_shares = 1) {
  if (const cudaError_t e = encode_operand_map(map_a, args.A, args.m, args.k, Shape::kTileM); e != cudaSuccess)
    return e;
  return encode_operand_map(map_b, args.B, args.n, args.k, Shape::kTileN / b_shares);
}

// The launch configuration of `blocks` blocks of `threads` in clusters of `cluster` blocks.
struct ClusterLaunch {
  cudaLaunchAttribute attribute{};
  cudaLaunchConfig_t config{};
  ClusterLaunch(dim3 blocks, dim3 cluster, int threads, size_t smem_bytes, cudaStream_t stream) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = cluster.x;
    attribute.val.clusterDim.y = cluster.y;
    attribute.val.clusterDim.z = cluster.z;
    config.gridDim = blocks;
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem_bytes;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;  // config points at attribute
};

template <class Shape, class... Params, class... Values>
cudaError_t launch_serpentine(void (*kernel)(Params...), int max_stride, int cluster_m, size_t smem_bytes,
                              const GemmArgs& args, const Values&... values) {
  if (const cudaError_t e = fp16::allow_shared_memory(kernel, smem_bytes); e != cudaSuccess) return e;
  const Dim3 g = serpentine_cluster_grid<Shape>(args.m, args.n, max_stride, cluster_m);
  if (cluster_m == 1) {
    kernel<<<dim3(g.x, g.y, g.z), Shape::kThreads, smem_bytes, args.stream>>>(values...);
    return cudaGetLastError();
  }
  const ClusterLaunch launch(dim3(g.x, g.y, g.z), dim3(1, cluster_m, 1), Shape::kThreads, smem_bytes, args.stream);
  return cudaLaunchKernelEx(&launch.config, kernel, values...);
}

}  // namespace gemmlab::kernels::hopper
