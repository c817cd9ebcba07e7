// The split-K kernel of stages 19b and 19e (64-row tiles), 19d and 19f (128-row tiles) and its
// launch, the stages differing in tile and pipeline depth (gemmlab/hopper_shapes.h): stage
// 16's pipeline over one slice of K per block (grid tiles_m x tiles_n x slices), as many slices as
// fit one wave (gemmlab/raster.h split_k_wave_slices), partial tiles to the workspace and the
// reduction kernel (stages/split_k_reduce.cuh) as a programmatic dependent. The stage files say
// why each tile; this file says how.
#pragma once
#include "stages/hopper/hopper_launch.cuh"
#include "stages/hopper/wgmma_mainloop.cuh"
#include "gemmlab/raster.h"
#include "stages/split_k_reduce.cuh"

namespace gemmlab::kernels {
namespace hopper {

// Stage 16's k-tile loop (wgmma_mainloop.cuh run_k_tiles) over the k-tiles of the block's slice:
// kConsumers warpgroups of 64 rows share each stage's B box; thread 0 also issues the TMA.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    split_k_wgmma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                         float* C, float* partials, int M, int N, int K, float alpha, float beta, int slices) {
#if GEMMLAB_SM90A
  static_assert(!Shape::kProducer, "every warpgroup computes; thread 0 also copies");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + Shape::kStages * Shape::kStageBytes);
  const int m0 = int(blockIdx.x) * Shape::kTileM, n0 = int(blockIdx.y) * Shape::kTileN;
  const KRange range = split_k_parallel_range(int(blockIdx.z), K, Shape::kTileK, slices);
  const int t_begin = range.begin / Shape::kTileK, tiles_k = fp16::tiles_of(range.end, Shape::kTileK) - t_begin;

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, nullptr, Shape::kStages, 0);
  // The reduction kernel may be placed now: its blocks wait for this grid's end (split_k_reduce.cuh).
  asm volatile("griddepcontrol.launch_dependents;");
  __syncthreads();
  const int wg = int(threadIdx.x) / 128;
  float d[Shape::kAccumulators] = {};
  run_k_tiles<Shape>(d, tiles, full, &map_a, &map_b, m0, n0, t_begin, tiles_k, wg);
  const int row0 = m0 + 64 * wg, thread_in_wg = int(threadIdx.x) % 128;
  if (slices == 1)
    store_accumulators<Shape>(d, C, M, N, row0, n0, thread_in_wg, alpha, beta);
  else
    store_accumulators<Shape>(d, partials + size_t(blockIdx.z) * size_t(M) * size_t(N), M, N, row0, n0,
                              thread_in_wg, 1.f, 0.f);
#endif
}

}  // namespace hopper

namespace {

// A stage's launch functions (StageLaunch) for the kernel on tile Shape.
template <class Shape>
struct SplitKWgmma {
  static const void* kernel() { return reinterpret_cast<const void*>(hopper::split_k_wgmma_kernel<Shape>); }

  static int device_slots() {  // SMs x resident blocks of the main kernel
    int dev = 0, sms = 0, per_sm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        fp16::allow_shared_memory(hopper::split_k_wgmma_kernel<Shape>, Shape::kSmemBytes) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hopper::split_k_wgmma_kernel<Shape>, Shape::kThreads,
                                                      Shape::kSmemBytes) != cudaSuccess)
      return 0;
    return sms * per_sm;
  }

  static int slices_for(int m, int n, int k) {
    const long long tiles = 1ll * fp16::tiles_of(m, Shape::kTileM) * fp16::tiles_of(n, Shape::kTileN);
    return split_k_wave_slices(tiles, device_slots(), k, Shape::kTileK);
  }

  static const char* check(int m, int n, int k) {
    static_assert(Shape::kTileN == 128 || Shape::kTileN == 64, "the messages below name 65535 x 128 or x 64 columns");
    if (const char* why = hopper::check_hopper_device(kernel())) return why;
    if (const char* why = hopper::check_tma_problem(m, n, k)) return why;
    if (fp16::tiles_of(n, Shape::kTileN) > 65535)
      return Shape::kTileN == 128 ? "wgmma split-k: N must be at most 8388480 (grid.y limit)"
                                  : "wgmma split-k: N must be at most 4194240 (grid.y limit)";
    return nullptr;
  }
  static size_t workspace(int m, int n, int k) {
    const int slices = slices_for(m, n, k);
    return slices > 1 ? size_t(slices) * size_t(m) * size_t(n) * sizeof(float) : 0;
  }

  static cudaError_t run(const GemmArgs& a) {
    if (check(a.m, a.n, a.k) != nullptr) return cudaErrorInvalidValue;
    const int slices = slices_for(a.m, a.n, a.k);
    if (slices < 1) return cudaErrorInvalidConfiguration;
    if (a.workspace_bytes < workspace(a.m, a.n, a.k)) return cudaErrorInvalidValue;
    if (const cudaError_t e = fp16::allow_shared_memory(hopper::split_k_wgmma_kernel<Shape>, Shape::kSmemBytes);
        e != cudaSuccess)
      return e;
    CUtensorMap map_a, map_b;
    if (const cudaError_t e = hopper::encode_maps<Shape>(a, &map_a, &map_b); e != cudaSuccess) return e;
    float* partials = static_cast<float*>(a.workspace);
    const dim3 grid(fp16::tiles_of(a.m, Shape::kTileM), fp16::tiles_of(a.n, Shape::kTileN), slices);
    hopper::split_k_wgmma_kernel<Shape><<<grid, Shape::kThreads, Shape::kSmemBytes, a.stream>>>(
        map_a, map_b, a.C, partials, a.m, a.n, a.k, a.alpha, a.beta, slices);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess || slices == 1) return e;
    return reduce_split_k(a.m, a.n, slices, a.alpha, a.beta, partials, a.C, a.stream, /*overlap=*/true);
  }

  static StageLaunch launch() { return {check, workspace, run}; }
};

}  // namespace
}  // namespace gemmlab::kernels
