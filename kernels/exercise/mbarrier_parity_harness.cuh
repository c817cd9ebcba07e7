// Exercise 17-warp-specialized/mbarrier-parity on the GPU: stage 17's kernel
// (stages/hopper/hopper_pipeline.cuh: one TMA producer thread, two wgmma consumer warpgroups, a
// full and an empty mbarrier per stage) whose two waits take their parity from the learner's
// full_parity(k, 4) and empty_parity(k, 4) in place of the stage's (k / 4) & 1 and, from k-tile 4
// on, (k / 4 - 1) & 1. NVRTC compiles this file (for sm_90a) with the learner's after it
// (grade_device_gpu.cpp); nothing else includes it. The grade runs it only on problems of at most
// 32 k-tiles (K <= 2048), the k-tiles the host grade ran the plan for.
//
// On the GPU a wrong plan is a race (a wait that passes too early: a wrong C) or a deadlock (a
// wait that never passes). Neither may hang the GPU or end the CUDA context (a trap would), so:
//  - Every wait is bounded (bounded_wait): after 100 ms of waiting it gives up, the first wait of
//    each role that gave up is kept in gemmlab_mbarrier_timeouts (grade_device_gpu.cpp reads it
//    back and names it), and the thread leaves the kernel.
//  - A consumer warpgroup decides together (a named-barrier vote) whether it goes on: its 128
//    threads issue each wgmma together or not at all (wgmma.sync.aligned), and one that leaves
//    first waits for its last wgmma group.
//  - The producer never refills a stage before the stage's previous TMA has landed, whatever the
//    learner's empty wait said, so a full barrier never sees two arrive.expect_tx in one phase;
//    and it leaves only once every TMA it issued has landed. A block ends when its last thread
//    does, so no block ends with a copy still writing into its shared memory (which the next
//    block on the SM may own), whether its consumers finished, gave up or raced ahead. A plan that
//    lets the producer in early still overwrites a stage the consumers may be reading: a wrong C,
//    as the host grade's race.
#pragma once
#include "stages/hopper/hopper_pipeline.cuh"

// The learner's: the parity the consumer waits for on full[k % stages] before k-tile k, and the
// producer on empty[k % stages] before filling it (-1: no wait).
int full_parity(int k_tile, int stages);
int empty_parity(int k_tile, int stages);

extern "C" {
// The first wait that gave up, [0] the producer's, [1] the consumers': 0 when none did, else
// 1 << 63 | k_tile << 32 | stage << 8 | parity. Zero when the library loads; grade_device_gpu.cpp
// (mbarrier_timeouts) reads it after the checks and after the timing.
__device__ unsigned long long gemmlab_mbarrier_timeouts[2];
}

namespace gemmlab::kernels::exercise_gpu {

using namespace hopper;

constexpr int kProducerRole = 0, kConsumerRole = 1;
// A wait that passes takes microseconds (a TMA landing, a k-tile of wgmma); 100 ms of waiting
// is a deadlock. Time between two looks past 1 ms is not counted: the GPU was running another
// context then (time slicing), not keeping this wait from passing.
constexpr uint64_t kGiveUpNs = 100'000'000;
constexpr uint64_t kMaxStepNs = 1'000'000;

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t = 0;
#if GEMMLAB_SM90A
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(t));
#endif
  return t;
}

__device__ __forceinline__ bool try_wait_parity(uint64_t* bar, uint32_t parity) {
  uint32_t done = 1;
#if GEMMLAB_SM90A
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
#endif
  return done != 0;
}

// hopper::mbarrier_wait with an end: false once it has waited 100 ms.
__device__ __forceinline__ bool bounded_wait(uint64_t* bar, uint32_t parity) {
  if (try_wait_parity(bar, parity)) return true;
  uint64_t last = global_ns(), waited = 0;
  while (!try_wait_parity(bar, parity)) {
    const uint64_t now = global_ns(), step = now - last;
    waited += step < kMaxStepNs ? step : kMaxStepNs;
    last = now;
    if (waited > kGiveUpNs) return false;
  }
  return true;
}

__device__ __forceinline__ void record_give_up(int role, int k_tile, int stage, uint32_t parity) {
  const unsigned long long word = 1ull << 63 | static_cast<unsigned long long>(k_tile) << 32 |
                                  static_cast<unsigned long long>(stage) << 8 | parity;
  atomicCAS(&gemmlab_mbarrier_timeouts[role], 0ull, word);
}

// True in every thread of the warpgroup when `v` is true in all 128 of them (named barrier
// `barrier`: 1 and 2 for the consumers; the block's __syncthreads is 0). Not .aligned: the
// threads come from a wait loop each left at its own time.
__device__ __forceinline__ bool warpgroup_all(bool v, int barrier) {
  uint32_t all = v;
#if GEMMLAB_SM90A
  asm volatile(
      "{\n .reg .pred p, q;\n setp.ne.u32 q, %1, 0;\n barrier.cta.red.and.pred p, %2, 128, q;\n"
      " selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(all)
      : "r"(static_cast<uint32_t>(v)), "r"(barrier)
      : "memory");
#endif
  return all != 0;
}

// The producer thread: hopper::produce_k_tiles with the learner's wait on empty. Returns once
// every TMA it issued has landed (the last one of each stage: k-tiles t - S .. t - 1).
template <class Shape>
__device__ __forceinline__ void produce(unsigned char* tiles, uint64_t* full, uint64_t* empty, const CUtensorMap* map_a,
                                        const CUtensorMap* map_b, int m0, int n0, int k_tiles) {
  constexpr int kS = Shape::kStages;
  int t = 0;
#pragma unroll 1
  for (; t < k_tiles; ++t) {
    const int stage = t % kS;
    const int learners = ::empty_parity(t, kS);
    if (learners >= 0 && !bounded_wait(&empty[stage], static_cast<uint32_t>(learners) & 1u)) {
      record_give_up(kProducerRole, t, stage, static_cast<uint32_t>(learners) & 1u);
      break;
    }
    // K-tile t - S's TMA has landed. With a right plan the consumers saw it land before they gave
    // the stage back, so this passes at its first look; a TMA always lands, so it never gives up.
    if (t >= kS && !bounded_wait(&full[stage], static_cast<uint32_t>(t / kS - 1) & 1u)) break;
    unsigned char* dst = tiles + stage * Shape::kStageBytes;
    mbarrier_arrive_expect_tx(&full[stage], Shape::kStageBytes);
    tma_load_2d(dst, map_a, &full[stage], t * Shape::kTileK, m0);
    tma_load_2d(dst + Shape::kABytes, map_b, &full[stage], t * Shape::kTileK, n0);
  }
#pragma unroll 1
  for (int u = t > kS ? t - kS : 0; u < t; ++u) bounded_wait(&full[u % kS], static_cast<uint32_t>(u / kS) & 1u);
}

// A consumer warpgroup: hopper::consume_k_tiles with the learner's wait on full, bounded and
// voted on. False when it gave up (after its last wgmma group is done): nothing of C is stored.
template <class Shape>
__device__ __forceinline__ bool consume(float (&d)[Shape::kAccumulators], uint32_t tiles_address, uint64_t* full,
                                        uint64_t* empty, int consumer, int k_tiles) {
  constexpr int kS = Shape::kStages;
  const bool warp_leader = threadIdx.x % 32 == 0;
#pragma unroll 1
  for (int t = 0; t < k_tiles; ++t) {
    const int stage = t % kS;
    const uint32_t parity = static_cast<uint32_t>(::full_parity(t, kS)) & 1u;
    const bool passed = bounded_wait(&full[stage], parity);
    if (!warpgroup_all(passed, 1 + consumer)) {
      if (!passed) record_give_up(kConsumerRole, t, stage, parity);
      wgmma_wait<0>();
      fence_accumulators(d);
      return false;
    }
    consume_tile<Shape>(d, tiles_address + stage * Shape::kStageBytes, consumer);
    wgmma_wait<1>();
    fence_accumulators(d);
    if (t > 0 && warp_leader) mbarrier_arrive(&empty[(t - 1) % kS]);
  }
  wgmma_wait<0>();
  fence_accumulators(d);
  if (warp_leader) mbarrier_arrive(&empty[(k_tiles - 1) % kS]);
  return true;
}

// hopper::warp_specialized_kernel with produce and consume above; the same parameters and launch.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    mbarrier_parity_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                           float* C, int M, int N, int K, float alpha, float beta) {
#if GEMMLAB_SM90A
  static_assert(Shape::kProducer && Shape::kConsumers == 2, "warpgroup 0 produces, 1 and 2 consume");
  constexpr int kS = Shape::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * Shape::kStageBytes);
  uint64_t* empty = full + kS;

  const auto [m0, n0] = serpentine_tile_origin<Shape>();
  if (n0 >= N) return;  // a no-op block of the last z slab

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b, full, empty, kS, Shape::kConsumers * 4);
  __syncthreads();

  const int k_tiles = fp16::tiles_of(K, Shape::kTileK);
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0) produce<Shape>(tiles, full, empty, &map_a, &map_b, m0, n0, k_tiles);
    return;
  }

  setmaxnreg_inc<kConsumerRegisters>();
  const int consumer = wg - 1;
  float d[Shape::kAccumulators] = {};
  fence_accumulators(d);
  if (consume<Shape>(d, smem_u32(tiles), full, empty, consumer, k_tiles))
    store_accumulators<Shape>(d, C, M, N, m0 + 64 * consumer, n0, threadIdx.x % 128, alpha, beta);
#endif
}

}  // namespace gemmlab::kernels::exercise_gpu
