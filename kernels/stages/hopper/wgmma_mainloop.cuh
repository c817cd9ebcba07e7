// The kernel of stage 16: stage 15's TMA pipeline feeding warpgroup MMAs. 16_wgmma/wgmma.cu says why;
// this file says how.
//
//   setup   : thread 0 initialises one mbarrier per stage (count 1).
//   prologue: thread 0 issues k-tiles 0 .. kStages-1 (those inside K).
//   for each k-tile t:
//     every thread waits for tile t's barrier (parity t / kStages & 1)
//     each consumer warpgroup: fence, 4 x wgmma m64nNk16 (k16 steps 0, 16, 32, 48; its 64 A rows,
//       all N = kTileN B rows, straight from the swizzled boxes), commit, wait until <= 1 group in flight
//       (tile t's MMAs keep running; tile t-1's are done, so its stage is free)
//     block barrier; thread 0 issues tile t-1+kStages into tile t-1's stage
//   wait for the last group; accumulators straight to C.
#pragma once
#include <cuda.h>

#include "stages/hopper/tma_mainloop.cuh"
#include "gemmlab/gmma_desc.h"
#include "gemmlab/hopper_shapes.h"
#include "stages/hopper/wgmma_ptx.cuh"

namespace gemmlab::kernels::hopper {

// The two descriptors of consumer warpgroup `wg`'s k16 step kk in the stage at `stage_address`.
template <class Shape>
struct StageDescriptors {
  uint64_t a, b;
  __device__ __forceinline__ static StageDescriptors of(uint32_t stage_address, int wg, int kk) {
    return {gmma::sw128_k_major(stage_address, 64 * wg, kk),
            gmma::sw128_k_major(stage_address + Shape::kABytes, 0, kk)};
  }
};

// One k-tile of one consumer warpgroup: 4 wgmma, committed as one group. accumulate = 0: the
// first of them overwrites d (a tile's first k-tile, stage 19).
template <class Shape>
__device__ __forceinline__ void consume_tile(float (&d)[Shape::kAccumulators], uint32_t stage_address, int wg,
                                             uint32_t accumulate = 1) {
  static_assert(Shape::kWgmmaN == 256 || Shape::kWgmmaN == 248 || Shape::kWgmmaN == 240 || Shape::kWgmmaN == 128 || Shape::kWgmmaN == 64,
                "the m64n256k16, m64n248k16, m64n240k16, m64n128k16 and m64n64k16 wrappers");
  wgmma_fence();
#pragma unroll
  for (int step = 0; step < Shape::kStepsPerTile; ++step) {
    const auto desc = StageDescriptors<Shape>::of(stage_address, wg, 16 * step);
    const uint32_t scale_d = step == 0 ? accumulate : 1u;
    if constexpr (Shape::kWgmmaN == 256) wgmma_m64n256k16(d, desc.a, desc.b, scale_d);
    else if constexpr (Shape::kWgmmaN == 248) wgmma_m64n248k16(d, desc.a, desc.b, scale_d);
    else if constexpr (Shape::kWgmmaN == 240) wgmma_m64n240k16(d, desc.a, desc.b, scale_d);
    else if constexpr (Shape::kWgmmaN == 128) wgmma_m64n128k16(d, desc.a, desc.b, scale_d);
    else wgmma_m64n64k16(d, desc.a, desc.b, scale_d);
  }
  wgmma_commit();
}

// C = alpha * d + beta * C for warpgroup `wg`'s 64 x kTileN elements, straight from the registers:
// each store instruction covers 8 rows (32 bytes) of 4 columns. C is read only when beta != 0.
template <class Shape>
__device__ __forceinline__ void store_accumulators(const float (&d)[Shape::kAccumulators], float* C, int M,
                                                   int N, int row0, int col0, int thread_in_wg,
                                                   float alpha, float beta) {
#pragma unroll
  for (int i = 0; i < Shape::kAccumulators; ++i) {
    const FragCoord e = gmma::accumulator(thread_in_wg, i);
    const int row = row0 + e.row, col = col0 + e.col;
    if (row < M && col < N) {
      float* c = C + static_cast<size_t>(col) * static_cast<size_t>(M) + row;
      *c = alpha * d[i] + (beta != 0.f ? beta * *c : 0.f);
    }
  }
}

// The k-tile loop (above) over k-tiles t_begin .. t_begin + tiles_k - 1 of the tile at (m0, n0),
// into d, after start_pipeline and a block barrier; stage 16 runs all of K, stages 19b/19d a slice.
template <class Shape>
__device__ __forceinline__ void run_k_tiles(float (&d)[Shape::kAccumulators], unsigned char* tiles, uint64_t* full,
                                            const CUtensorMap* map_a, const CUtensorMap* map_b, int m0, int n0,
                                            int t_begin, int tiles_k, int wg) {
  const uint32_t tiles_address = smem_u32(tiles);
  auto issue_tile = [&](int i) {  // thread 0 only; i counts the k-tiles from t_begin
    const int stage = i % Shape::kStages, t = t_begin + i;
    unsigned char* dst = tiles + stage * Shape::kStageBytes;
    mbarrier_arrive_expect_tx(&full[stage], Shape::kStageBytes);
    tma_load_2d(dst, map_a, &full[stage], t * Shape::kTileK, m0);
    tma_load_2d(dst + Shape::kABytes, map_b, &full[stage], t * Shape::kTileK, n0);
  };
  if (threadIdx.x == 0)
    for (int i = 0; i < Shape::kStages && i < tiles_k; ++i) issue_tile(i);

  fence_accumulators(d);
#pragma unroll 1
  for (int i = 0; i < tiles_k; ++i) {
    const int stage = i % Shape::kStages;
    mbarrier_wait(&full[stage], static_cast<uint32_t>(i / Shape::kStages) & 1u);
    consume_tile<Shape>(d, tiles_address + stage * Shape::kStageBytes, wg);
    wgmma_wait<1>();
    fence_accumulators(d);
    __syncthreads();  // every warpgroup's k-tile i-1 group is done: its stage is free
    if (threadIdx.x == 0 && i > 0 && i - 1 + Shape::kStages < tiles_k) issue_tile(i - 1 + Shape::kStages);
  }
  wgmma_wait<0>();
  fence_accumulators(d);
}

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                 float* C, int M, int N, int K, float alpha, float beta) {
#if GEMMLAB_SM90A
  static_assert(!Shape::kProducer, "every thread computes; thread 0 also copies");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + Shape::kStages * Shape::kStageBytes);

  const auto [m0, n0] = serpentine_tile_origin<Shape>();
  if (n0 >= N) return;  // a no-op block of the last z slab

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, nullptr, Shape::kStages, 0);
  __syncthreads();

  const int wg = threadIdx.x / 128;
  float d[Shape::kAccumulators] = {};
  run_k_tiles<Shape>(d, tiles, full, &map_a, &map_b, m0, n0, 0, fp16::tiles_of(K, Shape::kTileK), wg);

  store_accumulators<Shape>(d, C, M, N, m0 + 64 * wg, n0, threadIdx.x % 128, alpha, beta);
#endif
}

}  // namespace gemmlab::kernels::hopper
