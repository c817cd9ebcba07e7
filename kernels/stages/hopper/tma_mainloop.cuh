// The kernel of stage 15: stage 12's kernel with its global -> shared copies done by the tensor
// memory accelerator. 15_tma/tma.cu says why; this file says how.
//
//   setup   : thread 0 initialises one mbarrier per stage (count 1: its own arrive).
//   prologue: thread 0 issues k-tiles 0 .. kStages-2: per tile one arrive.expect_tx of the two
//             boxes' bytes, then the A box and the B box, both completing on the stage's barrier.
//   for each k-tile t, for each k16 step kk (stage 10's loop, fp16::run_multistage_k_tiles, with
//   this file's TmaCopies in place of cp.async):
//     last kk : every thread waits for tile t+1's barrier (parity (t+1)/kStages & 1), then a
//               block barrier: all warps have left tile t's stage
//     always  : ldmatrix the fragments of the next step
//     first kk: thread 0 issues tile t+kStages-1 into the stage tile t-1 used
//     always  : mma of step kk
//   drain   : wait for the tiles issued past K (zero boxes) before the epilogue reuses the buffers.
// Where cp.async took 16 bytes per thread per instruction (stage 12: 12 LDGSTS a thread per
// k32-tile, plus their address arithmetic), one thread now issues two instructions per k64-tile
// and the copy engine computes every address, swizzle included.
#pragma once
#include <cuda.h>
#include <cuda_fp16.h>

#include "gemmlab/hopper_shapes.h"
#include "gemmlab/tma_box.h"
#include "stages/hopper/hopper_ptx.cuh"
#include "stages/fp16/staged_epilogue.cuh"

namespace gemmlab::kernels::hopper {

// The 1024-byte aligned start of the tiles inside dynamic shared memory (kAlignSlack reserved).
__device__ __forceinline__ unsigned char* align_tiles(unsigned char* smem) {
  const uint32_t a = smem_u32(smem);
  return smem + ((tma::kSwizzleAtomBytes - a % tma::kSwizzleAtomBytes) % tma::kSwizzleAtomBytes);
}

// First row and column of the block's output tile on stage 12's serpentine grid.
struct TileOrigin {
  int m0, n0;
};
template <class Shape>
__device__ __forceinline__ TileOrigin serpentine_tile_origin() {
  const GemmCoord t = serpentine_swizzle::get_tile_offset(Dim3{int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)},
                                                          Dim3{int(gridDim.x), int(gridDim.y), int(gridDim.z)});
  return {t.m * Shape::kTileM, t.n * Shape::kTileN};
}

// Thread 0, before the block (or cluster) barrier: prefetches the operand maps and makes a full
// barrier per stage (count 1: the producer's arrive.expect_tx) and, where empty_count > 0, an
// empty one that many consumer arrivals complete.
__device__ __forceinline__ void start_pipeline(const CUtensorMap* map_a, const CUtensorMap* map_b, uint64_t* full,
                                               uint64_t* empty, int stages, int empty_count) {
  tma_prefetch_descriptor(map_a);
  tma_prefetch_descriptor(map_b);
  for (int s = 0; s < stages; ++s) {
    mbarrier_init(&full[s], 1);
    if (empty_count > 0) mbarrier_init(&empty[s], empty_count);
  }
  fence_barrier_init();
}

// Stage 15's copies for stage 10's k-tile loop (fp16::run_multistage_k_tiles): thread 0 issues
// one box per operand per tile on the stage's barrier; every thread waits on the barrier's phase.
template <class S>
struct TmaCopies {
  static_assert(S::kTileK == tma::kBoxK, "one box row per tile row");
  static constexpr uint32_t kTxBytes = tma::box_bytes(S::kTileM) + tma::box_bytes(S::kTileN);
  static_assert(kTxBytes == S::kStageHalves * 2 && (S::kBOffsetHalves * 2) % tma::kSwizzleAtomBytes == 0);
  const CUtensorMap* map_a;
  const CUtensorMap* map_b;
  __half* tiles;
  uint64_t* full;
  int m0, n0;
  bool issuer;  // thread 0

  __device__ __forceinline__ void issue(int tile, int stage) const {  // the issuer only
    __half* dst = tiles + stage * S::kStageHalves;
    mbarrier_arrive_expect_tx(&full[stage], kTxBytes);
    tma_load_2d(dst, map_a, &full[stage], tile * S::kTileK, m0);
    tma_load_2d(dst + S::kBOffsetHalves, map_b, &full[stage], tile * S::kTileK, n0);
  }
  __device__ __forceinline__ void start() const {
    if (issuer)
      for (int s = 0; s < S::kStages - 1; ++s) issue(s, s);
    await(0);
  }
  __device__ __forceinline__ void await(int tile) const {
    mbarrier_wait(&full[tile % S::kStages], static_cast<uint32_t>(tile / S::kStages) & 1u);
  }
  // Tiles past K are issued too (the TMA writes zeros): the loop's last fragment load reads them.
  __device__ __forceinline__ void copy_step(int step, int& next_tile, int& write_stage) const {
    if (step != 0) return;
    if (issuer) issue(next_tile, write_stage);
    ++next_tile;
    write_stage = write_stage == S::kStages - 1 ? 0 : write_stage + 1;
  }
  // Tiles k_tiles+1 .. next_tile-1 (past K, all zeros) may still be landing.
  __device__ __forceinline__ void finish(int k_tiles, int next_tile) const {
    for (int tile = k_tiles + 1; tile < next_tile; ++tile) await(tile);
  }
};

template <class Shape>
struct TmaMainloop {
  using S = Shape;
  // Swizzle<3,3,3> on half offsets of 64-half rows: exactly what CU_TENSOR_MAP_SWIZZLE_128B
  // writes (gemmlab/tma_box.h), so stage 12's ldmatrix addressing reads the boxes unchanged.
  using Layout = fp16::SmemOperandLayout<S::kTileK, true>;

  __device__ __forceinline__ static void run(float (&acc)[S::kWarpM / 16][S::kWarpN / 8][4],
                                             const CUtensorMap* map_a, const CUtensorMap* map_b,
                                             int K, int m0, int n0, __half* tiles, uint64_t* full) {
    const int thread = threadIdx.x, warp = thread / 32;
    const int warp_m = (warp / S::kWarpsN) * S::kWarpM, warp_n = (warp % S::kWarpsN) * S::kWarpN;
    const fp16::LdsmLaneOffsets lane = fp16::LdsmLaneOffsets::of<Layout>(warp_m, warp_n, thread % 32);
    TmaCopies<S> copies{map_a, map_b, tiles, full, m0, n0, thread == 0};
    fp16::run_multistage_k_tiles<S, true>(acc, copies, fp16::tiles_of(K, S::kTileK), smem_u32(tiles), 2u * lane.a,
                                          S::kBOffsetHalves * 2 + 2u * lane.b);
  }
};

// Grid as stage 12 (serpentine); C through stage 12's staged epilogue.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    tma_mma_sync_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                        float* C, int M, int N, int K, float alpha, float beta, bool vector_c) {
#if GEMMLAB_SM90A
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __half* tiles = reinterpret_cast<__half*>(align_tiles(smem_raw));
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + Shape::kStages * Shape::kStageHalves);

  const auto [m0, n0] = serpentine_tile_origin<Shape>();
  if (n0 >= N) return;  // a no-op block of the last z slab

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, nullptr, Shape::kStages, 0);
  __syncthreads();

  float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
  TmaMainloop<Shape>::run(acc, &map_a, &map_b, K, m0, n0, tiles, full);
  __syncthreads();  // every warp is done with the pipeline's buffers

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  float* staged = reinterpret_cast<float*>(tiles) + fp16::StagedEpilogue<Shape>::Layout::buffer(warp);
  fp16::StagedEpilogue<Shape>::store(acc, staged, C, M, N, m0 + warp_m, n0 + warp_n, lane, alpha,
                                     beta, vector_c);
#endif
}

}  // namespace gemmlab::kernels::hopper
