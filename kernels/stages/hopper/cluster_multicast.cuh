// The kernel of stage 18: stage 17's producer and consumers in clusters of two blocks that share
// their B tile through TMA multicast. 18_cluster/cluster.cu says why; this file says how.
//
//   cluster  : blocks (x, 2j, z) and (x, 2j+1, z) of the serpentine grid: m tiles 2j and 2j+1 (or
//              the reverse in odd slabs), the same n tile, so the same 256 x 64 B box per k-tile.
//   setup    : full[s] count 1 (own producer); empty[s] count 16: the 8 consumer warps of *both*
//              blocks, because each block's producer writes into both blocks' stage s. Then every
//              thread arrives on the cluster barrier (relaxed: the barrier inits are published by
//              their own fence) and waits on it only before its first remote operation: no block
//              may signal a peer's barrier before the peer made it.
//   producer : for k-tile t, after empty[t % S] (both blocks done with tile t - S):
//              arrive.expect_tx(full, 16 KB of A + 32 KB of B), its own A box, and its half of B
//              (rows 128 r .. 128 r + 127 for cluster rank r) multicast to both blocks: each
//              block's full barrier counts the half from its peer's copy too.
//   consumers: as stage 17, but each warp releases a stage on its own block's empty barrier and,
//              through the cluster's shared window (mapa), on the peer's.
//   exit     : the producer waits until the consumers of both blocks have handed back every
//              stage, so no block leaves while its peer may still arrive on its barriers. Not a
//              cluster barrier: its release would also wait for the block's C stores to drain
//              (measured: ~2,700 cycles a block, HOPPER_NOTES.md).
// A block whose m tile is past M (odd m-tile counts round the grid up) still loads B for its peer
// and stores nothing.
#pragma once
#include "stages/hopper/hopper_pipeline.cuh"

namespace gemmlab::kernels::hopper {

constexpr int kClusterBlocks = 2;  // along gridDim.y (m)

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r = 0;
#if GEMMLAB_SM90A
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
  return r;
}
// Every thread of every block of the cluster arrives and waits (release / acquire).
__device__ __forceinline__ void cluster_sync() {
#if GEMMLAB_SM90A
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}
// The two halves of cluster_sync, apart: arrive without ordering this thread's earlier memory
// operations, and wait (acquire) for every thread of the cluster to have arrived.
__device__ __forceinline__ void cluster_arrive_relaxed() {
#if GEMMLAB_SM90A
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_wait() {
#if GEMMLAB_SM90A
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}
// The producer's tail (thread 0, after issuing its last k-tile as ring use `it`): wait for the
// next kS uses of the ring as produce_k_tiles would, i.e. until the consumers of both blocks have
// handed back every stage. After it no remote arrival can reach this block's empty barriers.
template <int kS>
__device__ __forceinline__ void wait_stages_returned(uint64_t* empty, int it) {
  for (int j = it; j < it + kS; ++j) wait_stage_free<kS>(empty, j);
}

// One arrival on the barrier at the same shared-memory offset in block `rank` of the cluster.
// Default (.cta) release semantics: the arrival only orders this warp's finished reads of the
// stage, which wgmma.wait_group already completed. `.release.cluster` would make ptxas put
// MEMBAR.ALL.GPU before every arrival (seen in the SASS: the stage ran at 60 % of cuBLAS).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t* bar, uint32_t rank) {
#if GEMMLAB_SM90A
  asm volatile(
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, %1;\n"
      " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_u32(bar)),
      "r"(rank)
      : "memory");
#endif
}
// The address in block `rank`'s shared memory (the cluster's window) of the local `p`: computed
// once, it spares a loop the mapa (and the S2R of the cluster id ptxas puts before it) per use.
__device__ __forceinline__ uint32_t cluster_address(const void* p, uint32_t rank) {
  uint32_t remote = 0;
#if GEMMLAB_SM90A
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(smem_u32(p)), "r"(rank));
#endif
  return remote;
}
// mbarrier_arrive_cluster on an address cluster_address gave.
__device__ __forceinline__ void mbarrier_arrive_remote(uint32_t remote) {
#if GEMMLAB_SM90A
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
#endif
}
// A TMA box written to the same offset in every block of `block_mask`, completing bytes on each
// one's barrier at `bar`'s offset.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, uint64_t* bar, int c0,
                                                      int c1, uint16_t block_mask) {
#if GEMMLAB_SM90A
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1), "h"(block_mask)
      : "memory");
#endif
}

// K-tile t's boxes for block `rank` of a pair: its own A box, and its half of the shared B box
// (`cols` rows: the tile's, or a narrowed tile's in stage 19) written into both blocks (each
// block's full barrier counts both halves), from the row gemmlab/tma_box.h's pair_b_part_row names.
template <class Shape>
__device__ __forceinline__ void issue_pair_boxes(unsigned char* dst, uint64_t* bar, int t, const CUtensorMap* map_a,
                                                 const CUtensorMap* map_b_half, int m0, int n0, uint32_t rank,
                                                 int cols = Shape::kTileN) {
  static_assert(kClusterBlocks == 2, "pair_b_part_row splits a box between two blocks");
  const int row = tma::pair_b_part_row(int(rank), cols, Shape::kTileN);
  tma_load_2d(dst, map_a, bar, t * Shape::kTileK, m0);
  tma_load_2d_multicast(dst + Shape::kABytes + row * tma::kRowBytes, map_b_half, bar, t * Shape::kTileK, n0 + row,
                        uint16_t((1u << kClusterBlocks) - 1));
}

// A consumer warp hands a stage back to both producers that write it.
__device__ __forceinline__ void release_to_pair(uint64_t* empty_stage, uint32_t peer, bool warp_leader) {
  if (warp_leader) {
    mbarrier_arrive(empty_stage);
    mbarrier_arrive_cluster(empty_stage, peer);
  }
}

// Launched with a cluster shape of (1, kClusterBlocks, 1) (hopper_launch.cuh; __cluster_dims__ would
// not compile for the sm_80 build).
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    cluster_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b_half,
                   float* C, int M, int N, int K, float alpha, float beta) {
#if GEMMLAB_SM90A
  static_assert(Shape::kProducer && Shape::kTileN % kClusterBlocks == 0);
  constexpr int kS = Shape::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * Shape::kStageBytes);
  uint64_t* empty = full + kS;

  const auto [m0, n0] = serpentine_tile_origin<Shape>();
  // Both blocks of a cluster have the same n tile: they leave together, before any cluster barrier.
  if (n0 >= N) return;
  const uint32_t rank = cluster_rank(), peer = rank ^ 1u;

  // Empty barriers: one arrival per consumer warp of both blocks.
  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b_half, full, empty, kS, kClusterBlocks * Shape::kConsumers * 4);
  __syncwarp();
  cluster_arrive_relaxed();

  const int k_tiles = fp16::tiles_of(K, Shape::kTileK);
  const int wg = threadIdx.x / 128;
  int it = 0;
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    cluster_wait();  // before the first multicast into the peer
    if (threadIdx.x == 0) {
      produce_k_tiles<Shape>(tiles, full, empty, 0, k_tiles, it, [&](unsigned char* dst, uint64_t* bar, int t) {
        issue_pair_boxes<Shape>(dst, bar, t, &map_a, &map_b_half, m0, n0, rank);
      });
      wait_stages_returned<kS>(empty, it);
    }
  } else {
    setmaxnreg_inc<kConsumerRegisters>();
    cluster_wait();  // before the first arrival on the peer's empty barriers
    const int consumer = wg - 1;
    const bool warp_leader = threadIdx.x % 32 == 0;
    float d[Shape::kAccumulators] = {};
    fence_accumulators(d);
    consume_k_tiles<Shape>(d, smem_u32(tiles), full, consumer, 0, k_tiles, it,
                           [&](int stage) { release_to_pair(&empty[stage], peer, warp_leader); });
    store_accumulators<Shape>(d, C, M, N, m0 + 64 * consumer, n0, threadIdx.x % 128, alpha, beta);
  }
#endif
}

}  // namespace gemmlab::kernels::hopper
