// Stage 19b (`wgmma-split-k`), lesson 19-persistent (sm_90a). Adds over stage 16: few output
// tiles still fill the GPU. A decode step (M = 16 .. 128) or a small square gives stage 16's
// 128 x 128 tiles a few dozen blocks for 132 SMs. Here a tile is 64 rows (one warpgroup, which
// also issues the TMA), and K is cut into slices as stage 13a cuts it (grid tiles_m x tiles_n x
// slices, gemmlab/raster.h split_k_parallel_slices / _range): each block runs stage 16's pipeline
// over its slice and writes a partial tile to the workspace, and a second kernel adds the slices
// in order (stages/split_k_reduce.cuh: the same C every run). One slice, no workspace, where the
// tiles fill the GPU. The dispatcher (19c) runs it where its rule says (gemmlab/auto_dispatch.h).
// K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma,wgmma-split-k --sizes 16x8192x8192,512x512x16384 --check
#include "stages/hopper/hopper_launch.cuh"
#include "stages/hopper/wgmma_mainloop.cuh"
#include "gemmlab/raster.h"
#include "stages/split_k_reduce.cuh"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <random>
#include <type_traits>

namespace gemmlab::kernels {
namespace hopper {

// One word per output tile: (launch epoch << 6) | blocks of the tile done. A word left by an
// earlier launch (or poison) holds another epoch and counts as 0, so it needs no reset.
inline constexpr unsigned kArrivalBits = 6, kMaxFusedSlices = (1u << kArrivalBits) - 1;  // 63
__device__ __forceinline__ bool arrive_last(unsigned* word, unsigned epoch, int slices) {
  unsigned seen = *reinterpret_cast<volatile unsigned*>(word), want = 0;
  for (;;) {
    want = (seen >> kArrivalBits) == epoch ? seen + 1 : (epoch << kArrivalBits) | 1u;
    const unsigned before = atomicCAS(word, seen, want);
    if (before == seen) break;
    seen = before;
  }
  return (want & kMaxFusedSlices) == unsigned(slices);
}

// The tile's last block adds the slices in order 0, 1, ... from the workspace (its own too, just
// written): the same sum as split_k_reduce_kernel whichever block is last. Each thread takes
// kBatch groups of V rows of one column at a time, so kBatch loads are in flight per slice; V = 4
// (16-byte loads) where every column of the tile starts 16-byte aligned.
template <class Shape, int V>
__device__ __forceinline__ void add_slices(const float* partials, float* C, int M, int N, int m0, int n0,
                                           int slices, float alpha, float beta) {
  using Vec = std::conditional_t<V == 4, float4, float>;
  constexpr int kBatch = 8;
  const size_t plane = size_t(M) * size_t(N);
  const int rows = min(Shape::kTileM, M - m0), per_col = rows / V, groups = per_col * min(Shape::kTileN, N - n0);
#pragma unroll 1
  for (int g0 = 0; g0 < groups; g0 += kBatch * Shape::kThreads) {
    size_t at[kBatch];
    float sum[kBatch][V] = {};
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int g = min(g0 + u * Shape::kThreads + int(threadIdx.x), groups - 1);  // a repeat past the end
      at[u] = size_t(n0 + g / per_col) * size_t(M) + size_t(m0 + (g % per_col) * V);
    }
#pragma unroll 1
    for (int s = 0; s < slices; ++s)
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const Vec v = __ldcg(reinterpret_cast<const Vec*>(partials + size_t(s) * plane + at[u]));
        const float* f = reinterpret_cast<const float*>(&v);
#pragma unroll
        for (int j = 0; j < V; ++j) sum[u][j] += f[j];
      }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      if (g0 + u * Shape::kThreads + int(threadIdx.x) >= groups) break;
#pragma unroll
      for (int j = 0; j < V; ++j) {
        float* c = C + at[u] + j;
        *c = alpha * sum[u][j] + (beta != 0.f ? beta * *c : 0.f);
      }
    }
  }
}

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    split_k_wgmma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                         float* C, float* partials, unsigned* arrivals, unsigned epoch, int M, int N, int K,
                         float alpha, float beta, int slices) {
#if GEMMLAB_SM90A
  static_assert(!Shape::kProducer && Shape::kConsumers == 1, "one warpgroup computes; its thread 0 also copies");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + Shape::kStages * Shape::kStageBytes);
  const int m0 = int(blockIdx.x) * Shape::kTileM, n0 = int(blockIdx.y) * Shape::kTileN;
  const KRange range = split_k_parallel_range(int(blockIdx.z), K, Shape::kTileK, slices);
  const int t_begin = range.begin / Shape::kTileK, tiles_k = fp16::tiles_of(range.end, Shape::kTileK) - t_begin;

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, nullptr, Shape::kStages, 0);
  __syncthreads();
  const uint32_t tiles_address = smem_u32(tiles);
  auto issue_tile = [&](int i) {  // thread 0 only; i counts the slice's k-tiles
    const int stage = i % Shape::kStages, t = t_begin + i;
    unsigned char* dst = tiles + stage * Shape::kStageBytes;
    mbarrier_arrive_expect_tx(&full[stage], Shape::kStageBytes);
    tma_load_2d(dst, &map_a, &full[stage], t * Shape::kTileK, m0);
    tma_load_2d(dst + Shape::kABytes, &map_b, &full[stage], t * Shape::kTileK, n0);
  };
  if (threadIdx.x == 0)
    for (int i = 0; i < Shape::kStages && i < tiles_k; ++i) issue_tile(i);

  float d[Shape::kAccumulators] = {};
  fence_accumulators(d);
#pragma unroll 1
  for (int i = 0; i < tiles_k; ++i) {
    const int stage = i % Shape::kStages;
    mbarrier_wait(&full[stage], static_cast<uint32_t>(i / Shape::kStages) & 1u);
    consume_tile<Shape>(d, tiles_address + stage * Shape::kStageBytes, 0);
    wgmma_wait<1>();
    fence_accumulators(d);
    __syncthreads();  // k-tile i-1's group is done: its stage is free
    if (threadIdx.x == 0 && i > 0 && i - 1 + Shape::kStages < tiles_k) issue_tile(i - 1 + Shape::kStages);
  }
  wgmma_wait<0>();
  fence_accumulators(d);
  if (slices == 1)
    store_accumulators<Shape>(d, C, M, N, m0, n0, threadIdx.x, alpha, beta);
  else
    store_accumulators<Shape>(d, partials + size_t(blockIdx.z) * size_t(M) * size_t(N), M, N, m0, n0, threadIdx.x,
                              1.f, 0.f);
  if (slices == 1 || arrivals == nullptr) return;
  // The partial is out (fence: before the count says so); the tile's last block adds them up.
  __shared__ int last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = arrive_last(&arrivals[blockIdx.y * gridDim.x + blockIdx.x], epoch, slices);
  __syncthreads();
  if (!last) return;
  __threadfence();
  const bool vec4 = M % 4 == 0 && reinterpret_cast<uintptr_t>(C) % 16 == 0 && reinterpret_cast<uintptr_t>(partials) % 16 == 0;
  if (vec4)
    add_slices<Shape, 4>(partials, C, M, N, m0, n0, slices, alpha, beta);
  else
    add_slices<Shape, 1>(partials, C, M, N, m0, n0, slices, alpha, beta);
#endif
}

}  // namespace hopper

namespace {

using Shape = hopper::SplitKStage::Shape;  // 64 x 128 x 64, one warpgroup, 4 stages (hopper_shapes.h)
const void* kKernel = reinterpret_cast<const void*>(hopper::split_k_wgmma_kernel<Shape>);

int device_slots() {  // SMs x resident blocks of the main kernel
  int dev = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      fp16::allow_shared_memory(hopper::split_k_wgmma_kernel<Shape>, Shape::kSmemBytes) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hopper::split_k_wgmma_kernel<Shape>, Shape::kThreads,
                                                    Shape::kSmemBytes) != cudaSuccess)
    return 0;
  return sms * per_sm;
}

int slices_for(int m, int n, int k) {
  if (const char* lab = std::getenv("GEMMLAB_LAB_SLICES"); lab && *lab)
    return std::max(1, std::min(std::atoi(lab), std::min(int(hopper::kMaxFusedSlices), fp16::tiles_of(k, Shape::kTileK))));
  const long long tiles = 1ll * fp16::tiles_of(m, Shape::kTileM) * fp16::tiles_of(n, Shape::kTileN);
  return split_k_parallel_slices(tiles, device_slots(), k, Shape::kTileK);  // 16x8192x8192: 64 tiles -> 5
}

const char* check_split_k(int m, int n, int k) {
  if (const char* why = hopper::check_hopper_device(kKernel)) return why;
  if (const char* why = hopper::check_tma_problem(m, n, k)) return why;
  if (fp16::tiles_of(n, Shape::kTileN) > 65535) return "wgmma split-k: N must be at most 8388480 (grid.y limit)";
  return nullptr;
}
size_t arrivals_offset(int m, int n, int slices) { return size_t(slices) * size_t(m) * size_t(n) * sizeof(float); }
size_t workspace(int m, int n, int k) {
  const int slices = slices_for(m, n, k);
  const size_t tiles = size_t(fp16::tiles_of(m, Shape::kTileM)) * size_t(fp16::tiles_of(n, Shape::kTileN));
  return slices > 1 ? arrivals_offset(m, n, slices) + tiles * sizeof(unsigned) : 0;
}

cudaError_t run_split_k(const GemmArgs& a) {
  if (check_split_k(a.m, a.n, a.k) != nullptr) return cudaErrorInvalidValue;
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
  static std::atomic<unsigned> next_epoch{std::random_device{}()};  // a stale word's epoch never matches
  const bool fused = std::getenv("GEMMLAB_LAB_UNFUSED") == nullptr;
  unsigned* arrivals = slices > 1 && fused ? reinterpret_cast<unsigned*>(static_cast<char*>(a.workspace) +
                                                                        arrivals_offset(a.m, a.n, slices))
                                           : nullptr;
  hopper::split_k_wgmma_kernel<Shape><<<grid, Shape::kThreads, Shape::kSmemBytes, a.stream>>>(
      map_a, map_b, a.C, partials, arrivals, next_epoch++ & ((1u << (32 - hopper::kArrivalBits)) - 1), a.m, a.n,
      a.k, a.alpha, a.beta, slices);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess || slices == 1 || fused) return e;
  return reduce_split_k(a.m, a.n, slices, a.alpha, a.beta, partials, a.C, a.stream);
}

}  // namespace

StageLaunch launch_wgmma_split_k() { return {check_split_k, workspace, run_split_k}; }

}  // namespace gemmlab::kernels
