// Stage 13b (`stream-k`), lesson 13-split-k-stream-k. Adds over stage 13a: an even split of the
// MAC iterations rather than of K per tile. Stream-k blocks take equal runs of k-tiles across tile
// boundaries, the remaining whole tiles go to data-parallel blocks; the plan is the simulator's
// (gemmlab/streamk.h). A block that does not finish a tile leaves its partial sums and a flag;
// the finishing block waits for its peers' flags (blocks start in launch order) and adds them.
// Run: gemmlab bench --stages double-buffer,split-k,stream-k --sizes 512x512x16384
#include "stages/fp32/fp32_simt.cuh"
#include "gemmlab/streamk.h"

#include <algorithm>

namespace gemmlab::kernels {
namespace {
using namespace simt;

constexpr int kPartialFloats = kTileM * kTileN;  // one slot: the block's 256 x 64 accumulators
constexpr size_t kFlagBytes = 256;               // flags are padded so the slots stay aligned

struct Workspace {
  int* flags;        // flags[sk_block] = 1 once its partial is stored
  float* partials;   // slot per SK block, [64 accumulators][256 threads] (coalesced)
};

__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ void share_partial(const Workspace& ws, int block,
                              const float (&acc)[kThreadM][kThreadN]) {
  float* slot = ws.partials + size_t(block) * kPartialFloats;
#pragma unroll
  for (int i = 0; i < kThreadM; ++i)
#pragma unroll
    for (int j = 0; j < kThreadN; ++j) slot[(i * kThreadN + j) * kThreads + threadIdx.x] = acc[i][j];
  __syncthreads();  // every thread's partial is written ...
  if (threadIdx.x == 0) {
    __threadfence();  // ... and visible GPU-wide before the flag
    store_release(&ws.flags[block], 1);
  }
}

// Thread 0 waits until every peer in [first_peer, last_peer] has raised its flag.
__device__ void wait_for_peers(const Workspace& ws, int first_peer, int last_peer) {
  if (threadIdx.x == 0) {
    const unsigned long long start = global_ns();
    for (int peer = last_peer; peer >= first_peer; --peer)
      while (load_acquire(&ws.flags[peer]) == 0) {
        __nanosleep(256);
        if (global_ns() - start > 20ull * 1000 * 1000 * 1000) __trap();  // a peer never arrived
      }
  }
  __syncthreads();
}

// acc += the partials of peers [first_peer, last_peer], one row of 8 accumulators at a time.
// (A loop over peers that carries all 64 accumulators made ptxas spill them, ~300 bytes of
// stack; a loop per accumulator has no loads in flight. A row: 8 independent loads per peer.)
__device__ __forceinline__ void add_partials(const Workspace& ws, int first_peer, int last_peer,
                                             float (&acc)[kThreadM][kThreadN]) {
  const float* first = ws.partials + size_t(first_peer) * kPartialFloats + threadIdx.x;
  const int peers = last_peer - first_peer + 1;
#pragma unroll
  for (int i = 0; i < kThreadM; ++i) {
    const float* row = first + i * kThreadN * kThreads;
#pragma unroll 2
    for (int q = 0; q < peers; ++q) {
      const float* p = row + size_t(q) * kPartialFloats;
#pragma unroll
      for (int j = 0; j < kThreadN; ++j) acc[i][j] += __ldcg(p + j * kThreads);
    }
  }
}

// A block's position in its work: the tile it is on, and for a stream-k block the end of the
// iterations it still owns (for a data-parallel block, the tiles it still owns). Kept in shared
// memory, not registers: the main loop needs all 128 registers a thread has, and every value
// held across it would spill to local memory inside the loop (seen: 256 bytes of stack).
struct Position {
  int tile;
  int end_or_left;
};
// The registry row (stages.def) adds kStreamKPositionBytes to the two SIMT stages.
static_assert(sizeof(Position) == simt_tile::kStreamKPositionBytes);

struct Work {
  bool sk;
  int tile, tile_begin, seg_begin, seg_end;  // iterations of this tile the block owns
  int dp_left;                               // data-parallel: tiles left, this one included
  GemmCoord coord;
};

// Everything about the current tile, recomputed from the plan, the block index and the
// Position (cheap integer arithmetic) before and after the main loop.
__device__ __forceinline__ Work current_work(const streamk::Plan& plan, int block,
                                             const Position& pos) {
  Work w;
  w.sk = block < plan.sk_padding_start();
  w.tile = pos.tile;
  w.dp_left = pos.end_or_left;
  w.tile_begin = w.tile * plan.iters_per_tile;
  if (w.sk) {
    const streamk::IterRange range = streamk::sk_iter_extents(plan, block);
    w.seg_begin = std::max(range.begin, w.tile_begin);
    w.seg_end = pos.end_or_left;
  } else {
    w.seg_begin = w.tile_begin;
    w.seg_end = w.tile_begin + plan.iters_per_tile;
  }
  w.coord = streamk::tile_offset(plan, w.tile);
  return w;
}

template <int kAccess>
__global__ void __launch_bounds__(kThreads, 2)
    stream_k_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                    const float* __restrict__ B, float beta, float* __restrict__ C,
                    Workspace ws, streamk::Plan plan, bool vec_ok) {
  __shared__ SmemStage smem[2];
  __shared__ Position position;
  const int block = streamk::block_idx_of(plan, blockIdx.x);
  const bool sk = block < plan.sk_padding_start();
  if (!sk && (block < plan.dp_start() || block >= plan.reduce_start())) return;  // filler

  // Stream-k block: iterations [range.begin, range.end), tiles visited from the last one down.
  // Data-parallel block: whole tiles, the first wave may take several, at a stride of the SMs.
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

  // One loop (and one copy of the main loop in the binary) for both kinds of block.
  float acc[kThreadM][kThreadN];
  while (true) {
    {
      const Work w = current_work(plan, block, position);
      if (!w.sk && (w.tile < plan.sk_tiles || !tile_in_problem(w.coord, plan.tiled_shape)))
        return;
      clear(acc);
      mainloop_pipelined<kAccess>(A, B, M, N, K, w.coord.m * kTileM, w.coord.n * kTileN,
                                  (w.seg_begin - w.tile_begin) * kTileK,
                                  std::min(K, (w.seg_end - w.tile_begin) * kTileK), smem, acc);
    }
    const Work w = current_work(plan, block, position);  // after the loop's barriers: reloaded
    if (w.seg_end < w.tile_begin + plan.iters_per_tile) {
      share_partial(ws, block, acc);  // not the tile's last iteration: a peer finishes it
    } else {
      // Finishing block: add the partials of the peers that cover the tile's earlier
      // iterations (lower block indices, contiguous), then the epilogue.
      if (w.seg_begin > w.tile_begin) {
        int first_peer = block - 1;
        while (streamk::sk_iter_extents(plan, first_peer).begin > w.tile_begin) --first_peer;
        wait_for_peers(ws, first_peer, block - 1);
        add_partials(ws, first_peer, block - 1, acc);
      }
      store_tile(C, M, N, w.coord.m * kTileM, w.coord.n * kTileN, ThreadTile(), acc, alpha, beta,
                 vec_ok);
    }
    __syncthreads();  // shared memory (tiles and position) is reused for the next tile
    if (w.sk) {
      if (w.seg_begin <= streamk::sk_iter_extents(plan, block).begin) return;
      if (threadIdx.x == 0) position = {w.tile - 1, w.seg_begin};
    } else {
      if (w.dp_left <= 1) return;
      if (threadIdx.x == 0) position = {w.tile + plan.avail_sms, w.dp_left - 1};
    }
    __syncthreads();
  }
}

// The plan for this GPU: this kernel's occupancy and all SMs available.
cudaError_t make_plan(int m, int n, int k, streamk::Plan& plan) {
  int dev = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  // Both load widths share one plan (workspace() does not see the pointers): the smaller
  // occupancy of the two, so that the co-residency the fix-up relies on holds for either.
  int per_sm_scalar = 0;
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_k_kernel<4>, kThreads, 0);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_scalar, stream_k_kernel<1>,
                                                      kThreads, 0);
  if (e != cudaSuccess) return e;
  per_sm = std::min(per_sm, per_sm_scalar);
  if (per_sm < 1) return cudaErrorInvalidConfiguration;
  plan = streamk::make_plan({m, n, k}, {kTileM, kTileN, kTileK}, 1, per_sm, sms, sms);
  return cudaSuccess;
}

size_t workspace_for(const streamk::Plan& plan) {
  const int sk = plan.sk_padding_start();
  return sk > 0 ? kFlagBytes * ((size_t(sk) * sizeof(int) + kFlagBytes - 1) / kFlagBytes) +
                      size_t(sk) * kPartialFloats * sizeof(float)
                : 0;
}

const char* check(int, int, int) { return nullptr; }  // a 1-D grid of at most a few waves

size_t workspace(int m, int n, int k) {
  streamk::Plan plan;
  return make_plan(m, n, k, plan) == cudaSuccess ? workspace_for(plan) : 0;
}

cudaError_t launch(const GemmArgs& a) {
  streamk::Plan plan;
  if (cudaError_t e = make_plan(a.m, a.n, a.k, plan); e != cudaSuccess) return e;
  const size_t need = workspace_for(plan);
  if (a.workspace_bytes < need) return cudaErrorInvalidValue;
  Workspace ws{nullptr, nullptr};
  if (need) {
    const int sk = plan.sk_padding_start();
    ws.flags = static_cast<int*>(a.workspace);
    ws.partials = reinterpret_cast<float*>(static_cast<char*>(a.workspace) +
                                           need - size_t(sk) * kPartialFloats * sizeof(float));
    if (cudaError_t e = cudaMemsetAsync(ws.flags, 0, size_t(sk) * sizeof(int), a.stream))
      return e;
  }
  (ab_vector_ok(a) ? stream_k_kernel<4> : stream_k_kernel<1>)<<<plan.num_blocks(), kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, ws, plan, c_vector_ok(a));
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_stream_k() { return {check, workspace, launch}; }

}  // namespace gemmlab::kernels
