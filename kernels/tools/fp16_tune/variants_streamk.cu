// Probe: stage 12 with stage 7's stream-k schedule (CUTLASS 2.x GemmUniversal with
// ThreadblockSwizzleStreamK, planned by gemmlab/streamk.h). Stage 12 runs one block per SM, so a
// problem whose tiles are not a multiple of the SMs ends on a partial wave: 512 tiles of 256x128
// at 4096^3 are 3.88 waves of 132 (the last 12% of the run leaves 16 SMs idle), 2048 at 8192^3
// 15.5 waves. Stream-k gives the tail's tiles to one wave of blocks that split their
// k-iterations evenly and add up partial accumulators through a workspace.
// The k loop, the copies and the epilogue are stage 12's; only the block's work changes.
#include "fp16_tune/variants.h"
#include "gemmlab/streamk.h"
#include "stages/fp16/12_epilogue.cuh"

#include <algorithm>

using namespace gemmlab::kernels;
using gemmlab::GemmCoord;
namespace streamk = gemmlab::streamk;

namespace {

using Shape = fp16::EpilogueStage::Shape;
constexpr int kThreads = Shape::kThreads;
constexpr int kAccFloats = (Shape::kWarpM / 16) * (Shape::kWarpN / 8) * 4;  // 128 a thread
constexpr int kPartialFloats = kAccFloats * kThreads;                       // one 256x128 tile
constexpr size_t kFlagBytes = 256;
using Acc = float[Shape::kWarpM / 16][Shape::kWarpN / 8][4];

struct Workspace {
  int* flags;
  float* partials;
};

// CpAsyncCopies with the block's first k-tile: a stream-k segment starts inside K.
template <class S, class CopyA, class CopyB>
struct SegmentCopies {
  static constexpr int kStageBytes = S::kStageHalves * 2;
  static constexpr int kBOffsetBytes = S::kBOffsetHalves * 2;
  const CopyA& copy_a;
  const CopyB& copy_b;
  __half* smem;
  uint32_t smem_base;
  int first_k_tile;

  __device__ __forceinline__ void issue(int tile, int stage) const {
    const uint32_t stage_address = smem_base + stage * kStageBytes;
    __half* stage_ptr = smem + stage * S::kStageHalves;
    const int k0 = (first_k_tile + tile) * S::kTileK;
    fp16::copy_tile_async(copy_a, k0, stage_address, stage_ptr);
    fp16::copy_tile_async(copy_b, k0, stage_address + kBOffsetBytes, stage_ptr + S::kBOffsetHalves);
  }
  __device__ __forceinline__ void start() const {
#pragma unroll
    for (int s = 0; s < S::kStages - 1; ++s) {
      issue(s, s);
      fp16::cp_async_commit();
    }
    fp16::cp_async_wait<S::kStages - 2>();
    __syncthreads();
  }
  __device__ __forceinline__ void await(int) const { fp16::cp_async_wait<S::kStages - 2>(); }
  __device__ __forceinline__ void copy_step(int step, int& next_tile, int& write_stage) const {
    if (step != 0) return;
    issue(next_tile, write_stage);
    fp16::cp_async_commit();
    ++next_tile;
    write_stage = write_stage == S::kStages - 1 ? 0 : write_stage + 1;
  }
  __device__ __forceinline__ void finish(int, int) const { fp16::cp_async_wait<0>(); }
};

template <bool kVectorized>
__device__ __forceinline__ void mainloop_segment(Acc& acc, const __half* A, const __half* B, int M, int N, int K,
                                                 int m0, int n0, int first_k_tile, int k_tiles, __half* smem) {
  using S = Shape;
  using Layout = fp16::SmemOperandLayout<S::kTileK, S::kSwizzled>;
  using CopyA = fp16::OperandTileCopy<S::kTileM, S::kTileK, S::kThreads, S::kSwizzled, kVectorized>;
  using CopyB = fp16::OperandTileCopy<S::kTileN, S::kTileK, S::kThreads, S::kSwizzled, kVectorized>;
  const int thread = threadIdx.x, warp = thread / 32;
  const int warp_m = (warp / S::kWarpsN) * S::kWarpM, warp_n = (warp % S::kWarpsN) * S::kWarpN;
  const CopyA copy_a(A, m0, M, K, thread);
  const CopyB copy_b(B, n0, N, K, thread);
  const uint32_t smem_base = fp16::shared_address(smem);
  const fp16::LdsmLaneOffsets lane = fp16::LdsmLaneOffsets::of<Layout>(warp_m, warp_n, threadIdx.x % 32);
  SegmentCopies<S, CopyA, CopyB> copies{copy_a, copy_b, smem, smem_base, first_k_tile};
  fp16::run_multistage_k_tiles<S, true>(acc, copies, k_tiles, smem_base, 2u * lane.a,
                                        S::kBOffsetHalves * 2 + 2u * lane.b);
}

__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Partials as [float4 j][thread]: each j is 4 KB of consecutive 16-byte stores across the block.
__device__ __forceinline__ void share_partial(const Workspace& ws, int block, const Acc& acc) {
  float4* slot = reinterpret_cast<float4*>(ws.partials + size_t(block) * kPartialFloats) + threadIdx.x;
  const float* a = &acc[0][0][0];
#pragma unroll
  for (int j = 0; j < kAccFloats / 4; ++j)
    __stcg(slot + j * kThreads, make_float4(a[4 * j], a[4 * j + 1], a[4 * j + 2], a[4 * j + 3]));
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    store_release(&ws.flags[block], 1);
  }
}

__device__ __forceinline__ void wait_and_add(const Workspace& ws, int first_peer, int last_peer, Acc& acc) {
  if (threadIdx.x == 0)
    for (int peer = last_peer; peer >= first_peer; --peer)
      while (load_acquire(&ws.flags[peer]) == 0) __nanosleep(64);
  __syncthreads();
  float* a = &acc[0][0][0];
  for (int peer = first_peer; peer <= last_peer; ++peer) {
    const float4* slot = reinterpret_cast<const float4*>(ws.partials + size_t(peer) * kPartialFloats) + threadIdx.x;
#pragma unroll
    for (int j = 0; j < kAccFloats / 4; ++j) {
      const float4 v = __ldcg(slot + j * kThreads);
      a[4 * j] += v.x, a[4 * j + 1] += v.y, a[4 * j + 2] += v.z, a[4 * j + 3] += v.w;
    }
  }
}

// Tile index -> tile: the plan's (CUTLASS's) raster, or stage 12's serpentine slabs of `stride`
// n tiles (the valid tiles only, in stage 12's launch order).
template <bool kSerpentine>
__device__ __forceinline__ GemmCoord tile_of(const streamk::Plan& plan, int i, int stride) {
  if constexpr (!kSerpentine) {
    return streamk::tile_offset(plan, i);
  } else {
    const int tm = plan.tiled_shape.m, tn = plan.tiled_shape.n;
    const int full = tn / stride;
    int z, x, y;
    if (i < full * stride * tm) {
      z = i / (stride * tm);
      const int r = i % (stride * tm);
      y = r / stride, x = r % stride;
    } else {
      const int w = tn - full * stride, r = i - full * stride * tm;
      z = full, y = r / w, x = r % w;
    }
    return GemmCoord{(z & 1) ? tm - 1 - y : y, z * stride + x, 0};
  }
}

struct Position {
  int tile;
  int end_or_left;
};

struct Work {
  int tile, end_or_left, tile_begin, seg_begin, seg_end;
  GemmCoord coord;
};
template <bool kSerpentine>
__device__ __forceinline__ Work current_work(const streamk::Plan& plan, bool sk, int block, const Position& pos,
                                             int stride) {
  Work w;
  w.tile = pos.tile;
  w.end_or_left = pos.end_or_left;
  w.tile_begin = pos.tile * plan.iters_per_tile;
  w.seg_begin = w.tile_begin;
  w.seg_end = w.tile_begin + plan.iters_per_tile;
  if (sk) {
    w.seg_begin = max(streamk::sk_iter_extents(plan, block).begin, w.tile_begin);
    w.seg_end = pos.end_or_left;
  }
  w.coord = tile_of<kSerpentine>(plan, pos.tile, stride);
  return w;
}

// After the tile's k segment: a partial to the workspace, or (the block that owns the tile's last
// iteration) the peers' partials added and the epilogue.
template <bool kSerpentine>
__device__ __forceinline__ void finish_tile(Acc& acc, float* C, int M, int N, float alpha, float beta, bool vector_c,
                                            const Workspace& ws, const streamk::Plan& plan, bool sk, int block,
                                            const Position& pos, int stride, __half* smem) {
  const Work w = current_work<kSerpentine>(plan, sk, block, pos, stride);
  if (w.seg_end < w.tile_begin + plan.iters_per_tile) {
    share_partial(ws, block, acc);
    return;
  }
  if (w.seg_begin > w.tile_begin) {
    int first_peer = block - 1;
    while (streamk::sk_iter_extents(plan, first_peer).begin > w.tile_begin) --first_peer;
    wait_and_add(ws, first_peer, block - 1, acc);
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  float* staged = reinterpret_cast<float*>(smem) + fp16::StagedEpilogue<Shape>::Layout::buffer(warp);
  fp16::StagedEpilogue<Shape>::store(acc, staged, C, M, N, w.coord.m * Shape::kTileM + warp_m,
                                     w.coord.n * Shape::kTileN + warp_n, lane, alpha, beta, vector_c);
}

template <bool kVectorized, bool kSerpentine>
__global__ void __launch_bounds__(kThreads, 1)
    streamk_epilogue_kernel(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                            float beta, bool vector_c, Workspace ws, streamk::Plan plan, int stride) {
  extern __shared__ __align__(128) __half smem[];
  __shared__ Position position;
  const int block = streamk::block_idx_of(plan, blockIdx.x);
  const bool sk = block < plan.sk_padding_start();
  if (!sk && (block < plan.dp_start() || block >= plan.reduce_start())) return;
  if (threadIdx.x == 0) {
    if (sk) {
      const streamk::IterRange range = streamk::sk_iter_extents(plan, block);
      position = {(range.end - 1) / plan.iters_per_tile, range.end};
    } else {
      const int dp_block = block - plan.dp_start();
      Position p{(plan.cohort_raster ? 0 : plan.sk_tiles) + dp_block, plan.dp_first_wave_tiles};
      if (dp_block >= plan.avail_sms) {
        p.end_or_left = 1;
        p.tile += (plan.dp_first_wave_tiles - 1) * plan.avail_sms;
      }
      position = p;
    }
  }
  __syncthreads();
  while (true) {
    {
      const Work w = current_work<kSerpentine>(plan, sk, block, position, stride);
      if (!sk && (w.tile < plan.sk_tiles || !gemmlab::tile_in_problem(w.coord, plan.tiled_shape))) return;
      Acc acc = {};
      mainloop_segment<kVectorized>(acc, A, B, M, N, K, w.coord.m * Shape::kTileM, w.coord.n * Shape::kTileN,
                                    w.seg_begin - w.tile_begin, w.seg_end - w.seg_begin, smem);
      __syncthreads();  // every warp is done with the pipeline's buffers
      // Everything but acc is recomputed after the loop (held across it, it spilled).
      finish_tile<kSerpentine>(acc, C, M, N, alpha, beta, vector_c, ws, plan, sk, streamk::block_idx_of(plan, blockIdx.x),
                               position, stride, smem);
    }
    const int block_ = streamk::block_idx_of(plan, blockIdx.x);
    const Work w = current_work<kSerpentine>(plan, sk, block_, position, stride);
    __syncthreads();  // shared memory (buffers and position) is reused for the next tile
    if (sk) {
      if (w.seg_begin <= streamk::sk_iter_extents(plan, block_).begin) return;
      if (threadIdx.x == 0) position = {w.tile - 1, w.seg_begin};
    } else {
      if (w.end_or_left <= 1) return;
      if (threadIdx.x == 0) position = {w.tile + plan.avail_sms, w.end_or_left - 1};
    }
    __syncthreads();
  }
}

// The data-parallel blocks run stage 12's kernel body verbatim (one tile each, all of K), so
// that their k loop is the one ptxas schedules for stage 12; only the SK blocks loop over
// segments. Tiles are numbered in stage 12's serpentine order; the SK tiles are the first ones.
template <bool kVectorized, int kRegs>
__global__ void __maxnreg__(kRegs)
    streamk_split_kernel(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                         float beta, bool vector_c, Workspace ws, streamk::Plan plan, int stride) {
  extern __shared__ __align__(128) __half smem[];
  __shared__ Position position;
  const int block = streamk::block_idx_of(plan, blockIdx.x);
  if (block >= plan.sk_padding_start()) {
    if (block < plan.dp_start()) return;  // SK padding
    const GemmCoord tile = tile_of<true>(plan, plan.sk_tiles + block - plan.dp_start(), stride);
    const int m0 = tile.m * Shape::kTileM, n0 = tile.n * Shape::kTileN;
    float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
    fp16::MultistageMainloop<Shape, true, kVectorized>::run(acc, A, B, M, N, K, m0, n0, smem);
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
    const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
    float* staged = reinterpret_cast<float*>(smem) + fp16::StagedEpilogue<Shape>::Layout::buffer(warp);
    fp16::StagedEpilogue<Shape>::store(acc, staged, C, M, N, m0 + warp_m, n0 + warp_n, lane, alpha, beta,
                                       vector_c);
    return;
  }
  if (threadIdx.x == 0) {
    const streamk::IterRange range = streamk::sk_iter_extents(plan, block);
    position = {(range.end - 1) / plan.iters_per_tile, range.end};
  }
  __syncthreads();
  while (true) {
    {
      const Work w = current_work<true>(plan, true, block, position, stride);
      Acc acc = {};
      mainloop_segment<kVectorized>(acc, A, B, M, N, K, w.coord.m * Shape::kTileM, w.coord.n * Shape::kTileN,
                                    w.seg_begin - w.tile_begin, w.seg_end - w.seg_begin, smem);
      __syncthreads();
      finish_tile<true>(acc, C, M, N, alpha, beta, vector_c, ws, plan, true,
                        streamk::block_idx_of(plan, blockIdx.x), position, stride, smem);
    }
    const int block_ = streamk::block_idx_of(plan, blockIdx.x);
    const Work w = current_work<true>(plan, true, block_, position, stride);
    __syncthreads();
    if (w.seg_begin <= streamk::sk_iter_extents(plan, block_).begin) return;
    if (threadIdx.x == 0) position = {w.tile - 1, w.seg_begin};
    __syncthreads();
  }
}

cudaError_t make_plan(int m, int n, int k, streamk::Plan& plan) {
  int dev = 0, sms = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e != cudaSuccess) return e;
  plan = streamk::make_plan({m, n, k}, {Shape::kTileM, Shape::kTileN, Shape::kTileK}, 1, 1, sms, sms);
  return cudaSuccess;
}

size_t workspace_for(const streamk::Plan& plan) {
  const int sk = plan.sk_padding_start();
  return sk > 0 ? kFlagBytes * ((size_t(sk) * sizeof(int) + kFlagBytes - 1) / kFlagBytes) +
                      size_t(sk) * kPartialFloats * sizeof(float)
                : 0;
}

const char* check(int m, int n, int k) { return fp16::check_extents(m, n, k); }
size_t workspace(int m, int n, int k) {
  streamk::Plan plan;
  return make_plan(m, n, k, plan) == cudaSuccess ? workspace_for(plan) : 0;
}

template <bool kSerpentine>
cudaError_t launch(const GemmArgs& a) {
  streamk::Plan plan;
  if (cudaError_t e = make_plan(a.m, a.n, a.k, plan); e != cudaSuccess) return e;
  const size_t need = workspace_for(plan);
  if (a.workspace_bytes < need) return cudaErrorInvalidValue;
  Workspace ws{nullptr, nullptr};
  if (need) {
    const int sk = plan.sk_padding_start();
    ws.flags = static_cast<int*>(a.workspace);
    ws.partials = reinterpret_cast<float*>(static_cast<char*>(a.workspace) + need -
                                           size_t(sk) * kPartialFloats * sizeof(float));
    if (cudaError_t e = cudaMemsetAsync(ws.flags, 0, size_t(sk) * sizeof(int), a.stream)) return e;
  }
  const bool vector_c = a.m % 4 == 0 && reinterpret_cast<uintptr_t>(a.C) % 16 == 0;
  const bool vectorized = fp16::rows_16_byte_aligned(a.A, a.B, a.k);
  auto* kernel = vectorized ? streamk_epilogue_kernel<true, kSerpentine> : streamk_epilogue_kernel<false, kSerpentine>;
  if (cudaError_t e = fp16::allow_shared_memory(kernel, Shape::kSmemBytes); e != cudaSuccess) return e;
  const int stride = gemmlab::serpentine_swizzle::launch_stride(plan.tiled_shape.n, 8);
  kernel<<<plan.num_blocks(), kThreads, Shape::kSmemBytes, a.stream>>>(
      static_cast<const __half*>(a.A), static_cast<const __half*>(a.B), a.C, a.m, a.n, a.k, a.alpha, a.beta,
      vector_c, ws, plan, stride);
  return cudaGetLastError();
}

template <int kRegs>
cudaError_t launch_split(const GemmArgs& a) {
  streamk::Plan plan;
  if (cudaError_t e = make_plan(a.m, a.n, a.k, plan); e != cudaSuccess) return e;
  const size_t need = workspace_for(plan);
  if (a.workspace_bytes < need) return cudaErrorInvalidValue;
  Workspace ws{nullptr, nullptr};
  if (need) {
    const int sk = plan.sk_padding_start();
    ws.flags = static_cast<int*>(a.workspace);
    ws.partials = reinterpret_cast<float*>(static_cast<char*>(a.workspace) + need -
                                           size_t(sk) * kPartialFloats * sizeof(float));
    if (cudaError_t e = cudaMemsetAsync(ws.flags, 0, size_t(sk) * sizeof(int), a.stream)) return e;
  }
  const bool vector_c = a.m % 4 == 0 && reinterpret_cast<uintptr_t>(a.C) % 16 == 0;
  const bool vectorized = fp16::rows_16_byte_aligned(a.A, a.B, a.k);
  auto* kernel = vectorized ? streamk_split_kernel<true, kRegs> : streamk_split_kernel<false, kRegs>;
  if (cudaError_t e = fp16::allow_shared_memory(kernel, Shape::kSmemBytes); e != cudaSuccess) return e;
  const int stride = gemmlab::serpentine_swizzle::launch_stride(plan.tiled_shape.n, 8);
  const int blocks = plan.dp_start() + plan.dp_tiles;
  kernel<<<blocks, kThreads, Shape::kSmemBytes, a.stream>>>(
      static_cast<const __half*>(a.A), static_cast<const __half*>(a.B), a.C, a.m, a.n, a.k, a.alpha, a.beta,
      vector_c, ws, plan, stride);
  return cudaGetLastError();
}
template <int kRegs>
StageLaunch get_split() { return {check, workspace, launch_split<kRegs>}; }

template <bool kSerpentine>
StageLaunch get() {
  return {check, workspace, launch<kSerpentine>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::streamk_variants() {
  return {
      variant("epilogue/now-sk", "12, stream-k (CUTLASS raster)", 256, 128, 32, 256, get<false>),
      variant("epilogue/now-sk-serp", "12, stream-k, serpentine tiles", 256, 128, 32, 256, get<true>),
      variant("epilogue/now-sk-split", "12, stream-k, DP blocks as stage 12", 256, 128, 32, 256, get_split<255>),
      variant("epilogue/now-sk-split-r240", "12, stream-k split, 240 registers", 256, 128, 32, 256, get_split<240>),
      variant("epilogue/now-sk-split-r248", "12, stream-k split, 248 registers", 256, 128, 32, 256, get_split<248>),
  };
}
