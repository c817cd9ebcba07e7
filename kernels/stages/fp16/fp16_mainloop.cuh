// The cp.async multistage main loop of stages 10, 12 and 14a-14c (the CuTe GEMM tutorial's kStage loop, CUTLASS's
// MmaMultistage): kStages shared buffers, kStages - 1 k-tiles in flight while one is computed,
// and the warp fragments double-buffered in registers so ldmatrix of step kk+1 overlaps the
// mma of step kk.
//
//   prologue: cp.async k-tiles 0 .. kStages-2, one commit group each; wait until tile 0 landed.
//   for each k-tile t, for each k16 step kk:
//     last kk : wait_group<kStages-2> (tile t+1 landed) + barrier, read stage moves to t+1
//     always  : ldmatrix the fragments of the next step (kk+1, or step 0 of tile t+1)
//     first kk: cp.async tile t+kStages-1 into the stage tile t-1 used (all warps left it at the
//               previous barrier); commit (an empty group past K keeps the count simple)
//     always  : mma of step kk
//
// Tiles past K are zero-filled rather than skipped, so the one extra fragment load of the last
// iteration reads initialised shared memory (compute-sanitizer initcheck stays clean).
#pragma once
#include <cuda_fp16.h>

#include "stages/fp16/fp16_problem.cuh"
#include "gemmlab/fp16_shapes.h"
#include "stages/fp16/ldmatrix_fragments.cuh"
#include "stages/fp16/fp16_tile_copy.cuh"
#include "stages/fp16/fp16_warp_tile.cuh"
#include "stage_api.h"

namespace gemmlab::kernels::fp16 {

// Copies 16 bytes global -> shared without going through registers. When !valid, nothing is read
// (src-size 0) and the 16 shared bytes are zero-filled: that is how rows past M / N and k past K
// become zeros that the mma adds harmlessly. `.cg` caches in L2 only (the data is used once per
// block from shared memory).
__device__ __forceinline__ void cp_async_16(uint32_t smem_address, const void* global, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address),
               "l"(global), "r"(src_bytes));
}

// Closes the group of cp.async issued since the last commit (one group per k-tile).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most `kPending` committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

// Stage 10's copy: cp.async 16 bytes per vector of the thread map, zero-filled when predicated off.
// Without 16-byte alignment (kVectorizedLoads false) the copy falls back to a synchronous load and
// a shared store, which the barrier before the tile's use orders just the same; one vector at a
// time, as this path is about correctness, not speed.
// Accesses first .. last-1 only (a tile's copy spread over several k16 steps: the bounds are
// constants once the caller's step loop is unrolled).
template <class Copy>
__device__ __forceinline__ void copy_tile_async_part(const Copy& c, int k0, uint32_t tile_address, __half* tile,
                                                     int first, int last) {
  const int k = k0 + c.k_in_tile;
  if constexpr (Copy::kVectorizedLoads) {
#pragma unroll
    for (int i = first; i < last; ++i) {
      const bool ok = c.row_ok(i) && k < c.K;
      cp_async_16(tile_address + 2u * c.smem_offset(i), ok ? c.source(i) + k0 : c.operand, ok);
    }
  } else {
#pragma unroll 1
    for (int i = first; i < last; ++i)
      *reinterpret_cast<uint4*>(tile + c.smem_offset(i)) = load_vector<false>(c.source(i) + k0, k, c.K, c.row_ok(i));
  }
}
template <class Copy>
__device__ __forceinline__ void copy_tile_async(const Copy& c, int k0, uint32_t tile_address, __half* tile) {
  copy_tile_async_part(c, k0, tile_address, tile, 0, Copy::kAccesses);
}


// A warp's fragments for k16 step kk (halves) of the stage at stage_address: one ldmatrix.x4 per
// m16 tile of A and per pair of n8 tiles of B, from the lane's step-0 row offsets a_base / b_base
// (bytes inside the stage). ldsm_step_offset in bytes (kUnit 2): the halves' XOR by kk scaled to bytes.
template <int kTileK, class Tile>
__device__ __forceinline__ void load_step_fragments(Tile& f, uint32_t stage_address, uint32_t a_base,
                                                    uint32_t b_base, int kk) {
#pragma unroll
  for (int mi = 0; mi < Tile::kMmaM; ++mi)
    ldmatrix_x4(f.a[mi], stage_address + ldsm_step_offset<kTileK, 2>(a_base, kk, mi));
#pragma unroll
  for (int nj = 0; nj < Tile::kMmaN / 2; ++nj) {
    uint32_t r[4];
    ldmatrix_x4(r, stage_address + ldsm_step_offset<kTileK, 2>(b_base, kk, nj));
    f.b[2 * nj][0] = r[0];
    f.b[2 * nj][1] = r[1];
    f.b[2 * nj + 1][0] = r[2];
    f.b[2 * nj + 1][1] = r[3];
  }
}

// The k-tile loop of the multistage pipeline (stages 10, 12 and the TMA stage 15) around its
// copies, which `copies` provides:
//   start()                          tiles 0 .. kStages-2 issued, tile 0 visible to every thread
//   await(t)                         tile t visible to this thread (the block barrier after it also
//                                    tells every warp has left tile t-1's stage)
//   copy_step(step, next, write)     this k16 step's share of copying tile `next` into stage
//                                    `write`, advancing both once the tile is issued
//   finish(k_tiles, next)            nothing still writes shared memory when this returns
// and around its math, which `Math::run(acc, fragments)` does for one k16 step (16 halves = 32
// bytes of each row: the conv stages' int8 and int4 mma read the same bytes as other elements).
template <bool kSerpentine>
struct WarpMmaF16 {
  template <class Acc, class Tile>
  __device__ __forceinline__ static void run(Acc& acc, const Tile& f) { warp_mma<kSerpentine>(acc, f); }
};
template <class S, bool kSerpentine, class Copies, class Acc, class Math = WarpMmaF16<kSerpentine>>
__device__ __forceinline__ void run_multistage_k_tiles(Acc& acc, Copies& copies, int k_tiles, uint32_t smem_base,
                                                       uint32_t a_base, uint32_t b_base) {
  using Tile = WarpTile<S::kWarpM, S::kWarpN>;
  constexpr int kStageBytes = S::kStageHalves * 2;
  auto load_step = [&](Tile& f, int stage, int kk) {
    load_step_fragments<S::kTileK>(f, smem_base + stage * kStageBytes, a_base, b_base, kk);
  };
  int read_stage = 0, write_stage = S::kStages - 1, next_tile = S::kStages - 1;
  // Tile t + 1 has landed for every thread: the reads move on to its stage.
  auto await_next_tile = [&](int t) {
    copies.await(t + 1);
    __syncthreads();
    read_stage = read_stage == S::kStages - 1 ? 0 : read_stage + 1;
  };
  copies.start();

  Tile frag[2];
  load_step(frag[0], read_stage, 0);

#pragma unroll 1
  for (int t = 0; t < k_tiles; ++t) {
#pragma unroll
    for (int step = 0; step < S::kStepsPerTile; ++step) {
      if (!S::kBarrierAfterMma && step == S::kStepsPerTile - 1) await_next_tile(t);
      const int next_step = (step + 1) % S::kStepsPerTile;
      load_step(frag[(step + 1) & 1], read_stage, next_step * 16);
      if constexpr (S::kBarrierAfterMma) {
        // CUTLASS 2.x's MmaMultistage order: the step's mma, then its copies, and the wait and
        // barrier at the end of the second-to-last step. Stage 12 gains 2-4% by it: fewer stall
        // samples on the next tile's first mma waiting for its ldmatrix, and on the copies
        // (FP16_NOTES.md, ncu at 4096^3).
        Math::run(acc, frag[step & 1]);
        copies.copy_step(step, next_tile, write_stage);
        if (step == S::kStepsPerTile - 2) await_next_tile(t);
      } else {
        copies.copy_step(step, next_tile, write_stage);
        Math::run(acc, frag[step & 1]);
      }
    }
  }
  copies.finish(k_tiles, next_tile);
}

// Stage 10's copies: cp.async of every thread's share of the tile, one commit group per tile.
// kCopyParts > 1 (a tuning option, fp16_tune): the cp.async of the next tile is spread over the
// first kCopyParts k16 steps of the tile instead of all issued at step 0 (committed after the
// last part, still before the tile's closing wait).
template <class S, class CopyA, class CopyB, int kCopyParts>
struct CpAsyncCopies {
  static_assert(kCopyParts >= 1 && (kCopyParts == 1 || kCopyParts < S::kStepsPerTile),
                "every part is issued before the wait of the tile's last step");
  static constexpr int kStageBytes = S::kStageHalves * 2;
  static constexpr int kBOffsetBytes = S::kBOffsetHalves * 2;
  const CopyA& copy_a;
  const CopyB& copy_b;
  __half* smem;
  uint32_t smem_base;

  __device__ __forceinline__ void issue_part(int tile, int stage, int part) const {
    const uint32_t stage_address = smem_base + stage * kStageBytes;
    __half* stage_ptr = smem + stage * S::kStageHalves;
    copy_tile_async_part(copy_a, tile * S::kTileK, stage_address, stage_ptr, part * CopyA::kAccesses / kCopyParts,
                         (part + 1) * CopyA::kAccesses / kCopyParts);
    copy_tile_async_part(copy_b, tile * S::kTileK, stage_address + kBOffsetBytes, stage_ptr + S::kBOffsetHalves,
                         part * CopyB::kAccesses / kCopyParts, (part + 1) * CopyB::kAccesses / kCopyParts);
  }
  __device__ __forceinline__ void start() const {
#pragma unroll
    for (int s = 0; s < S::kStages - 1; ++s) {
#pragma unroll
      for (int part = 0; part < kCopyParts; ++part) issue_part(s, s, part);
      cp_async_commit();
    }
    cp_async_wait<S::kStages - 2>();
    __syncthreads();
  }
  __device__ __forceinline__ void await(int) const { cp_async_wait<S::kStages - 2>(); }
  __device__ __forceinline__ void copy_step(int step, int& next_tile, int& write_stage) const {
    if (step >= kCopyParts) return;
    issue_part(next_tile, write_stage, step);
    if (step == kCopyParts - 1) {  // an empty group past K keeps the count simple
      cp_async_commit();
      ++next_tile;
      write_stage = write_stage == S::kStages - 1 ? 0 : write_stage + 1;
    }
  }
  // Nothing may still be writing shared memory when the caller reuses it.
  __device__ __forceinline__ void finish(int, int) const { cp_async_wait<0>(); }
};

// MultistageShape (tile, stages, warps, shared bytes) and each stage's choice: fp16_shapes.h.
template <class Shape, bool kSerpentine, bool kVectorized, int kCopyParts = 1>
struct MultistageMainloop {
  using S = Shape;
  using Layout = SmemOperandLayout<S::kTileK, S::kSwizzled>;
  using CopyA = OperandTileCopy<S::kTileM, S::kTileK, S::kThreads, S::kSwizzled, kVectorized>;
  using CopyB = OperandTileCopy<S::kTileN, S::kTileK, S::kThreads, S::kSwizzled, kVectorized>;
  static_assert(S::kHalfBytes == sizeof(__half));
  static constexpr int kBOffsetBytes = S::kBOffsetHalves * 2;
  static_assert(ldsm_offsets_separable<S::kTileK, S::kSwizzled>());

  // acc += A[m0 .. m0+TM) x B[n0 .. n0+TN) over all of K, for this thread's warp tile.
  __device__ __forceinline__ static void run(float (&acc)[S::kWarpM / 16][S::kWarpN / 8][4],
                                             const __half* A, const __half* B, int M, int N,
                                             int K, int m0, int n0, __half* smem) {
    const int thread = threadIdx.x, warp = thread / 32;
    const int warp_m = (warp / S::kWarpsN) * S::kWarpM, warp_n = (warp % S::kWarpsN) * S::kWarpN;
    const CopyA copy_a(A, m0, M, K, thread);
    const CopyB copy_b(B, n0, N, K, thread);
    const uint32_t smem_base = shared_address(smem);

    // Byte offsets (inside one stage) of this lane's ldmatrix rows, swizzled once (see
    // ldsm_offsets_separable in gemmlab/fp16_smem_tile.h for why XOR and add are enough later).
    const LdsmLaneOffsets lane = LdsmLaneOffsets::of<Layout>(warp_m, warp_n, threadIdx.x % 32);
    CpAsyncCopies<S, CopyA, CopyB, kCopyParts> copies{copy_a, copy_b, smem, smem_base};
    run_multistage_k_tiles<S, kSerpentine>(acc, copies, tiles_of(K, S::kTileK), smem_base, 2u * lane.a,
                                           kBOffsetBytes + 2u * lane.b);
  }
};

// Stage 10: the main loop, then the accumulators straight to C. Grid (m tiles, n tiles).
template <class Shape, int kMinBlocks, bool kVectorized>
__global__ void __launch_bounds__(Shape::kThreads, kMinBlocks)
    multistage_kernel(const __half* A, const __half* B, float* C, int M, int N, int K,
                      float alpha, float beta) {
  extern __shared__ __align__(128) __half smem[];
  const int m0 = blockIdx.x * Shape::kTileM, n0 = blockIdx.y * Shape::kTileN;
  float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
  MultistageMainloop<Shape, false, kVectorized>::run(acc, A, B, M, N, K, m0, n0, smem);
  const int warp = threadIdx.x / 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  store_accumulators_direct<Shape::kWarpM, Shape::kWarpN>(acc, C, M, N, m0 + warp_m, n0 + warp_n,
                                                          threadIdx.x % 32, alpha, beta);
}

// Dynamic shared memory above 48 KB must be allowed per kernel before the launch.
template <class Kernel>
cudaError_t allow_shared_memory(Kernel* kernel, size_t bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

template <class Shape, int kMinBlocks>
cudaError_t launch_multistage_direct(const GemmArgs& args) {
  if (check_grid_m_by_n_128(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  static_assert(Shape::kTileN == 128, "check_grid_m_by_n_128 counts 128-column tiles");
  const dim3 grid(tiles_of(args.m, Shape::kTileM), tiles_of(args.n, Shape::kTileN));
  const bool vectorized = rows_16_byte_aligned(args.A, args.B, args.k);
  auto* kernel = vectorized ? multistage_kernel<Shape, kMinBlocks, true>
                            : multistage_kernel<Shape, kMinBlocks, false>;
  if (const cudaError_t e = allow_shared_memory(kernel, Shape::kSmemBytes); e != cudaSuccess)
    return e;
  kernel<<<grid, Shape::kThreads, Shape::kSmemBytes, args.stream>>>(
      static_cast<const __half*>(args.A), static_cast<const __half*>(args.B), args.C, args.m,
      args.n, args.k, args.alpha, args.beta);
  return cudaGetLastError();
}

}  // namespace gemmlab::kernels::fp16
