// The kernel of stage 17: a producer warpgroup and two consumer warpgroups that never meet at a
// block barrier. 17_warp_specialized/warp_specialized.cu says why; this file says how.
//
//   setup    : full[s] (count 1: the producer's arrive.expect_tx) and empty[s] (count 8: one
//              arrive per consumer warp) for every stage s.
//   producer : warpgroup 0 gives registers away (setmaxnreg.dec 40); its thread 0, for each
//              k-tile t: waits until empty[t % S] completed its phase for tile t - S (parity
//              (t / S - 1) & 1; the first S tiles need no wait), then arrive.expect_tx + two TMA
//              boxes on full[t % S].
//   consumers: warpgroups 1 and 2 take registers (setmaxnreg.inc 232); for each k-tile t: wait
//              full[t % S] (parity t / S & 1), 4 wgmma, commit, wait until <= 1 group in flight,
//              then each warp's lane 0 arrives on empty[(t - 1) % S]: tile t-1's MMAs are done.
//   epilogue : the consumers store their 64 x 256 accumulators as stage 16.
#pragma once
#include "stages/hopper/wgmma_mainloop.cuh"

namespace gemmlab::kernels::hopper {

// Registers move between the warpgroups of a block at run time: the producer needs ~30, a
// consumer 128 accumulators and more. ptxas compiles the code after each instruction for the new
// budget. 128 x 40 + 256 x 232 = 64512 of the SM's 65536.
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;

template <int kRegisters>
__device__ __forceinline__ void setmaxnreg_dec() {
#if GEMMLAB_SM90A
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}
template <int kRegisters>
__device__ __forceinline__ void setmaxnreg_inc() {
#if GEMMLAB_SM90A
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
#endif
}

// Before ring use `it` refills its stage: wait until the consumers handed back the stage's
// previous use, it - S (phase parity (it / S - 1) & 1); the first S uses find their stage free.
template <int kS>
__device__ __forceinline__ void wait_stage_free(uint64_t* empty, int it) {
  if (it >= kS) mbarrier_wait(&empty[it % kS], static_cast<uint32_t>(it / kS - 1) & 1u);
}

// The producer's loop (one thread): k-tiles [k_begin, k_end) of a tile. `it` counts k-tiles over
// the block's life: stage it % S, and the empty barrier's phase for the stage's previous use
// (it / S - 1) & 1 (the first S k-tiles find their stage free). issue(stage, full barrier, t)
// issues k-tile t's boxes.
template <class Shape, class Issue>
__device__ __forceinline__ void produce_k_tiles(unsigned char* tiles, uint64_t* full, uint64_t* empty, int k_begin,
                                                int k_end, int& it, Issue issue) {
  constexpr int kS = Shape::kStages;
#pragma unroll 1
  for (int t = k_begin; t < k_end; ++t, ++it) {
    const int stage = it % kS;
    wait_stage_free<kS>(empty, it);
    mbarrier_arrive_expect_tx(&full[stage], Shape::kStageBytes);
    issue(tiles + stage * Shape::kStageBytes, &full[stage], t);
  }
}

// A consumer warpgroup's loop over the same k-tiles: wait for the stage (parity it / S & 1), its 4
// wgmma, at most one group left in flight, then release(stage) hands back the stage before
// (whose MMAs are done); after the last k-tile, all MMAs done, its stage too.
// kGenericWrites: the stage's bytes were written by threads (cp.async), not by the TMA, so a
// fence.proxy.async after the wait makes them visible to wgmma's async-proxy reads (stage 14d).
// kOverwrite: the first MMA overwrites d (scale-d 0), so d need not be zeroed before (stage 19:
// 128 register writes less between two tiles). drain(): work for the warpgroup while the last
// k-tile's MMAs run (stage 19 looks up its next tile there).
struct NoDrain {
  __device__ __forceinline__ void operator()() const {}
};
template <class Shape, class Release, bool kGenericWrites = false, bool kOverwrite = false, class Drain = NoDrain>
__device__ __forceinline__ void consume_k_tiles(float (&d)[Shape::kAccumulators], uint32_t tiles_address,
                                                uint64_t* full, int consumer, int k_begin, int k_end, int& it,
                                                Release release, Drain drain = {}) {
  constexpr int kS = Shape::kStages;
#pragma unroll 1
  for (int t = k_begin; t < k_end; ++t, ++it) {
    const int stage = it % kS;
    mbarrier_wait(&full[stage], static_cast<uint32_t>(it / kS) & 1u);
    if constexpr (kGenericWrites) fence_proxy_async_shared();
    consume_tile<Shape>(d, tiles_address + stage * Shape::kStageBytes, consumer,
                        kOverwrite && t == k_begin ? 0u : 1u);
    wgmma_wait<1>();
    fence_accumulators(d);
    if (t > k_begin) release((it - 1) % kS);
  }
  drain();
  wgmma_wait<0>();
  fence_accumulators(d);
  release((it - 1) % kS);
}

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    warp_specialized_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                            float* C, int M, int N, int K, float alpha, float beta) {
#if GEMMLAB_SM90A
  static_assert(Shape::kProducer, "warpgroup 0 produces");
  static_assert(128 * kProducerRegisters + 128 * Shape::kConsumers * kConsumerRegisters <= 65536);
  constexpr int kS = Shape::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * Shape::kStageBytes);
  uint64_t* empty = full + kS;

  const auto [m0, n0] = serpentine_tile_origin<Shape>();
  if (n0 >= N) return;  // a no-op block of the last z slab

  // Empty barriers: one arrival per consumer warp.
  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, empty, kS, Shape::kConsumers * 4);
  __syncthreads();  // the last block-wide barrier: from here the warpgroups run apart

  const int k_tiles = fp16::tiles_of(K, Shape::kTileK);
  const int wg = threadIdx.x / 128;
  int it = 0;
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0)
      produce_k_tiles<Shape>(tiles, full, empty, 0, k_tiles, it, [&](unsigned char* dst, uint64_t* bar, int t) {
        tma_load_2d(dst, &map_a, bar, t * Shape::kTileK, m0);
        tma_load_2d(dst + Shape::kABytes, &map_b, bar, t * Shape::kTileK, n0);
      });
    return;
  }

  setmaxnreg_inc<kConsumerRegisters>();
  const int consumer = wg - 1;
  const bool warp_leader = threadIdx.x % 32 == 0;
  float d[Shape::kAccumulators] = {};
  fence_accumulators(d);
  consume_k_tiles<Shape>(d, smem_u32(tiles), full, consumer, 0, k_tiles, it, [&](int stage) {
    if (warp_leader) mbarrier_arrive(&empty[stage]);
  });

  store_accumulators<Shape>(d, C, M, N, m0 + 64 * consumer, n0, threadIdx.x % 128, alpha, beta);
#endif
}

}  // namespace gemmlab::kernels::hopper
