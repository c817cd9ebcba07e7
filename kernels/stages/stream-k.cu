// Stage 7: stream-k (seed 001; CUTLASS 2.x GemmUniversalStreamk with ThreadblockSwizzleStreamK).
//
// What it adds over stage 6: an even split of the *iterations*, not of K per tile. The problem
// is tiles x iters_per_tile MAC-iterations (one iteration = one 8-deep k-tile). Stream-k (SK)
// blocks each take a contiguous run of about the same number of iterations, crossing tile
// boundaries; the remaining whole tiles go to ordinary data-parallel (DP) blocks. The plan is
// sim's (gemmlab/streamk.h: the same heuristics, block mapping and iteration extents that
// `gemmlab sim schedule` shows), computed here with this kernel's occupancy and the GPU's SMs.
// An SK block walks its tiles backwards. On a tile where it does not reach the last iteration
// it stores its partial accumulators in the workspace and raises its flag; the block that does
// reach the last iteration ("finishing") waits for the flags of the peers before it, adds their
// partials and runs the epilogue. Waiting is safe because blocks start in launch order
// (hardware_rules.md) and peers have lower indices; a block that waits over 20 s traps instead
// of hanging.
// Expected: like split-k, >= 3x stage 4 at 512x512x16384; on large problems it also evens out
// the last partial wave of tiles.
// Run: gemmlab bench --stages double-buffer,split-k,stream-k --sizes 512x512x16384
#include "fp32_simt.cuh"
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

__device__ void add_partial(const Workspace& ws, int peer, float (&acc)[kThreadM][kThreadN]) {
  if (threadIdx.x == 0) {
    const unsigned long long start = global_ns();
    while (load_acquire(&ws.flags[peer]) == 0) {
      __nanosleep(256);
      if (global_ns() - start > 20ull * 1000 * 1000 * 1000) __trap();  // a peer never arrived
    }
  }
  __syncthreads();
  const float* slot = ws.partials + size_t(peer) * kPartialFloats;
#pragma unroll
  for (int i = 0; i < kThreadM; ++i)
#pragma unroll
    for (int j = 0; j < kThreadN; ++j)
      acc[i][j] += __ldcg(&slot[(i * kThreadN + j) * kThreads + threadIdx.x]);
}

__global__ void __launch_bounds__(kThreads, 2)
    stream_k_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                    const float* __restrict__ B, float beta, float* __restrict__ C,
                    Workspace ws, streamk::Plan plan, bool vec_ok) {
  __shared__ SmemStage smem[2];
  const int block = streamk::block_idx_of(plan, blockIdx.x);
  const int ipt = plan.iters_per_tile;
  float acc[kThreadM][kThreadN];

  if (block < plan.sk_padding_start()) {
    // Stream-k block: iterations [begin, end), tiles visited from the last one down.
    const streamk::IterRange range = streamk::sk_iter_extents(plan, block);
    int end = range.end;
    for (int tile = (range.end - 1) / ipt; end > range.begin; --tile) {
      const int tile_begin = tile * ipt;
      const int seg_begin = std::max(range.begin, tile_begin), seg_end = end;
      const GemmCoord t = streamk::tile_offset(plan, tile);
      const int m0 = t.m * kTileM, n0 = t.n * kTileN;
      clear(acc);
      mainloop_pipelined(A, B, M, N, K, m0, n0, (seg_begin - tile_begin) * kTileK,
                         std::min(K, (seg_end - tile_begin) * kTileK), smem, acc);
      if (seg_end < tile_begin + ipt) {
        share_partial(ws, block, acc);  // not the tile's last iteration: a peer finishes it
      } else {
        // Finishing block: add the partials of the peers that cover the tile's earlier
        // iterations (lower block indices, contiguous), then the epilogue.
        for (int peer = block - 1; seg_begin > tile_begin; --peer) {
          add_partial(ws, peer, acc);
          if (streamk::sk_iter_extents(plan, peer).begin <= tile_begin) break;
        }
        store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
      }
      end = seg_begin;
      __syncthreads();  // shared memory is reused by the next tile
    }
    return;
  }
  if (block < plan.dp_start() || block >= plan.reduce_start()) return;  // filler blocks

  // Data-parallel block: whole tiles; the first wave may take several, at a stride of the SMs.
  const int dp_block = block - plan.dp_start();
  int tile = (plan.cohort_raster ? 0 : plan.sk_tiles) + dp_block;
  int allotment = plan.dp_first_wave_tiles;
  if (dp_block >= plan.avail_sms) {
    allotment = 1;
    tile += (plan.dp_first_wave_tiles - 1) * plan.avail_sms;
  }
  for (; allotment > 0; --allotment, tile += plan.avail_sms) {
    const GemmCoord t = streamk::tile_offset(plan, tile);
    if (tile < plan.sk_tiles || !tile_in_problem(t, plan.tiled_shape)) return;
    const int m0 = t.m * kTileM, n0 = t.n * kTileN;
    clear(acc);
    mainloop_pipelined(A, B, M, N, K, m0, n0, 0, K, smem, acc);
    store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
    __syncthreads();
  }
}

// The plan for this GPU: this kernel's occupancy and all SMs available.
cudaError_t make_plan(int m, int n, int k, streamk::Plan& plan) {
  int dev = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_k_kernel, kThreads, 0);
  if (e != cudaSuccess) return e;
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
  stream_k_kernel<<<plan.num_blocks(), kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, ws, plan, c_vector_ok(a));
  return cudaGetLastError();
}

}  // namespace

StageLaunch launch_stream_k() { return {check, workspace, launch}; }

}  // namespace gemmlab::kernels
