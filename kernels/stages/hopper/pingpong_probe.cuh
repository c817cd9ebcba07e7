// Measurement only (HOPPER_NOTES.md): stage 17 with the ping-pong schedule. Each consumer
// warpgroup owns a whole 64 x 256 tile; the two take turns on the tensor cores (turn[2]), so one
// stores its tile while the other computes.
#pragma once
#include "17_persistent.cuh"

namespace gemmlab::kernels::hopper {

template <class PP, int kSlots>
__global__ void __launch_bounds__(384, 1)
    pingpong_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b_half,
                    const __grid_constant__ CUtensorMap map_c, float alpha, persistent::Plan plan) {
#if GEMMLAB_SM90A
  constexpr int kS = PP::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  constexpr int kStagingBytes = kSlots * 2 * tma::kCBoxBytes;
  unsigned char* staging = tiles + kS * PP::kStageBytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + 2 * kStagingBytes);
  uint64_t* empty = full + kS;
  uint64_t* turn = empty + kS;
  const uint32_t rank = cluster_rank(), peer = rank ^ 1u;
  const int cluster = blockIdx.x / kClusterBlocks;

  if (threadIdx.x == 0) {
    start_pipeline(&map_a, &map_b_half, full, empty, kS, kClusterBlocks * 4);
    mbarrier_init(&turn[0], 1);
    mbarrier_init(&turn[1], 1);
    tma_prefetch_descriptor(&map_c);
  }
  cluster_sync();

  const int k_tiles = plan.k_tiles;
  const int segments = persistent::segments(plan, cluster);
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0) {
      int it = 0;
#pragma unroll 1
      for (int s = 0; s < segments; ++s) {
        const persistent::Segment g = persistent::segment(plan, cluster, s);
        const GemmCoord tile = persistent::unit_tile(plan, g.unit, int(rank));
        if (tile.n >= plan.tiles_n) continue;
        const int m0 = tile.m * PP::kTileM, n0 = tile.n * PP::kTileN;
        produce_k_tiles<PP>(tiles, full, empty, 0, k_tiles, it, [&](unsigned char* dst, uint64_t* bar, int t) {
          issue_pair_boxes<PP>(dst, bar, t, &map_a, &map_b_half, m0, n0, rank);
        });
      }
    }
  } else {
    setmaxnreg_inc<kConsumerRegisters>();
    const int consumer = wg - 1;
    const bool warp_leader = threadIdx.x % 32 == 0;
    const uint32_t tiles_address = smem_u32(tiles);
    const int thread_in_wg = threadIdx.x % 128;
    int j = 0;  // real tiles of this block so far
#pragma unroll 1
    for (int s = 0; s < segments; ++s) {
      const persistent::Segment g = persistent::segment(plan, cluster, s);
      const GemmCoord tile = persistent::unit_tile(plan, g.unit, int(rank));
      if (tile.n >= plan.tiles_n) continue;
      if (j % 2 != consumer) {
        ++j;
        continue;
      }
      const int n = j / 2;
      if (consumer == 1) mbarrier_wait(&turn[1], uint32_t(n) & 1u);
      else if (n > 0) mbarrier_wait(&turn[0], uint32_t(n - 1) & 1u);
      int it = j * k_tiles;
      float d[PP::kAccumulators] = {};
      fence_accumulators(d);
#pragma unroll 1
      for (int t = 0; t < k_tiles; ++t, ++it) {
        const int stage = it % kS;
        mbarrier_wait(&full[stage], static_cast<uint32_t>(it / kS) & 1u);
        consume_tile<PP>(d, tiles_address + stage * PP::kStageBytes, 0);
        wgmma_wait<1>();
        fence_accumulators(d);
        if (t > 0) release_to_pair(&empty[(it - 1) % kS], peer, warp_leader);
      }
      if (thread_in_wg == 0) mbarrier_arrive(&turn[1 - consumer]);  // the other warpgroup's turn
      wgmma_wait<0>();
      fence_accumulators(d);
      release_to_pair(&empty[(it - 1) % kS], peer, warp_leader);
      store_accumulators_tma<PP, kSlots>(d, staging + consumer * kStagingBytes, &map_c, tile.m * PP::kTileM,
                                         tile.n * PP::kTileN, thread_in_wg, alpha, 1 + consumer, false);
      ++j;
    }
    if (threadIdx.x % 128 == 0) bulk_wait<0>();
  }
  cluster_sync();
#endif
}

}  // namespace gemmlab::kernels::hopper
