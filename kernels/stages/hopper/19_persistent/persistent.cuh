// The kernel of stage 19: stage 18's clusters made persistent. persistent.cu says why; this
// file says how.
//
//   grid     : as many clusters as fit on the GPU at once (cudaOccupancyMaxActiveClusters), each
//              looping over units (gemmlab/persistent_schedule.h): unit c, c + clusters, ...;
//              a unit of a narrowed row runs the same loop at its width (NarrowedShape below).
//   counters : the producer and the consumers count k-tiles over all the block's units (`it`),
//              so stage it % S and parity it / S & 1 run on across tile boundaries.
//   producer : never waits for an epilogue: as soon as a stage is free it loads the next k-tile,
//              of this unit or already of the next.
//   consumers: per unit, the k-tiles as stage 18 (the first MMA overwrites the accumulators, so
//              they are never zeroed); while the last k-tile's MMAs run, look up the next unit;
//              then wait for all MMAs, release the last stage, store the accumulators while the
//              producer refills the stages for the next unit, and start it with the pipeline full.
//   tail     : (with the TMA epilogue) the units of the last partial round, or all units when
//              there are fewer than clusters, split by k-tile over all clusters (stream-k,
//              gemmlab/persistent_schedule.h): a unit's k-tile-0 segment
//              stores its part of C and raises a flag; the unit's other segments wait for the flag
//              and add theirs with the TMA's reduce-add (cp.reduce.async.bulk.tensor .add).
//   epilogue : (beta == 0, M % 4 == 0) each consumer warpgroup writes its 64 x 256 accumulators
//              32 columns at a time into a swizzled 8 KB half of its 16 KB staging buffer
//              (conflict-free STS, gmma::c_staging_offset), and one elected lane hands each
//              half to the copy engine as two 32 x 32 TMA stores (cp.async.bulk.tensor ...
//              bulk_group) while the warpgroup fills the other half; the stores of the last
//              chunks run on under the next unit's main loop. Otherwise (beta != 0 reads C, or
//              rows not 16-byte aligned) stage 16's direct stores.
#pragma once
#include "stages/hopper/cluster_multicast.cuh"
#include "gemmlab/persistent_schedule.h"

namespace gemmlab::kernels::hopper {

// ---- The TMA store (new in this stage) --------------------------------------------------------
// The box at `src` (shared memory) to the tensor at (c0, c1); completes in the current bulk group.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int c0, int c1) {
#if GEMMLAB_SM90A
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(smem_u32(src)), "r"(c0), "r"(c1)
               : "memory");
#endif
}
// The same, adding to what C holds (an atomic add of each element in the L2).
__device__ __forceinline__ void tma_reduce_add_2d(const CUtensorMap* map, const void* src, int c0, int c1) {
#if GEMMLAB_SM90A
  asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(smem_u32(src)), "r"(c0), "r"(c1)
               : "memory");
#endif
}
__device__ __forceinline__ void bulk_commit() {
#if GEMMLAB_SM90A
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
// Until at most kPending bulk groups still read their shared memory (.read) / are still running.
template <int kPending>
__device__ __forceinline__ void bulk_wait_read() {
#if GEMMLAB_SM90A
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void bulk_wait() {
#if GEMMLAB_SM90A
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}
// True in one lane of the converged warp, the lowest (lane 0 here): issued under it from a warp that
// ptxas knows is uniform (issuer_warp below), the TMA store takes its operands from uniform
// registers instead of a loop over the lanes (SASS ELECT; HOPPER_NOTES.md has the count).
__device__ __forceinline__ bool elect_one_sync() {
  uint32_t pred = 0;
#if GEMMLAB_SM90A
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(pred));
#endif
  return pred != 0;
}
// A barrier of one warpgroup (id 1.. : 0 is __syncthreads').
__device__ __forceinline__ void warpgroup_barrier(int id) {
#if GEMMLAB_SM90A
  asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory");
#endif
}

// C = alpha * d (or C += alpha * d when `add`) for the warpgroup's 64 x kTileN rows at (row0,
// col0), through `staging`: kSlots slots of two 32 x 32 boxes (8 KB), chunk q in slot q % kSlots.
// A narrowed tile's last chunk (240 columns: 16, 248: 24) goes out as boxes of 32 x 8 (map_c8),
// read from the same slot: an n8 block is 1 KB of it, whole swizzle rows.
// kScale = false: alpha is 1 and d is stored as it is. Lane 0 of the warpgroup's first warp
// (issuer_warp) issues the stores; thread 0's later waits for them rely on that.
template <class Shape, int kSlots, bool kScale>
__device__ __forceinline__ void store_accumulators_tma(const float (&d)[Shape::kAccumulators], unsigned char* staging,
                                                       const CUtensorMap* map_c, const CUtensorMap* map_c8, int row0,
                                                       int col0, int thread_in_wg, float alpha, int barrier_id,
                                                       bool add, bool issuer_warp) {
  constexpr int kChunkCols = tma::kCBoxCols, kWhole = Shape::kTileN / kChunkCols;
  constexpr int kRestCols = Shape::kTileN % kChunkCols, kChunks = kWhole + (kRestCols > 0 ? 1 : 0);
  constexpr int kPerChunk = 16;  // accumulators of a thread in a whole chunk: n8 blocks 4q .. 4q+3
  // Chunk q + kSlots reuses chunk q's slot: the wait after each chunk leaves kSlots - 1 in flight.
  static_assert(kChunks % kSlots == 0 && kRestCols % 8 == 0 && Shape::kAccumulators == Shape::kTileN / 2);
  auto store = [&](const CUtensorMap* map, const unsigned char* box, int row, int col) {
    if (add) tma_reduce_add_2d(map, box, row, col);
    else tma_store_2d(map, box, row, col);
  };
  // The thread's four places in a slot; every other store is one of them plus a constant.
  unsigned char* base[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) base[k] = staging + gmma::c_staging_offset(thread_in_wg, k);
#pragma unroll
  for (int q = 0; q < kChunks; ++q) {
    const int slot = (q % kSlots) * (2 * tma::kCBoxBytes);
    unsigned char* half = staging + slot;
    const int cols = q < kWhole ? kChunkCols : kRestCols;
    warpgroup_barrier(barrier_id);  // this slot's previous stores have read it (thread 0 waited)
#pragma unroll
    for (int j = 0; j < cols / 2; ++j) {
      const int i = kPerChunk * q + j;
      *reinterpret_cast<float*>(base[j % 4] + slot + gmma::c_staging_step(j)) =
          kScale ? alpha * d[i] : d[i];
    }
    fence_proxy_async_shared();
    warpgroup_barrier(barrier_id);  // the whole chunk is written
    if (issuer_warp && elect_one_sync()) {
      const int col = col0 + kChunkCols * q;
      if (cols == kChunkCols) {
        store(map_c, half, row0, col);
        store(map_c, half + tma::kCBoxBytes, row0 + tma::kCBoxRows, col);
      } else {
#pragma unroll
        for (int b = 0; b < cols / 8; ++b) {
          constexpr int kN8Bytes = tma::kCBoxRows * 8 * 4;  // a 32 x 8 box of floats: 1 KB
          store(map_c8, half + kN8Bytes * b, row0, col + 8 * b);
          store(map_c8, half + tma::kCBoxBytes + kN8Bytes * b, row0 + tma::kCBoxRows, col + 8 * b);
        }
      }
      bulk_commit();
      bulk_wait_read<kSlots - 1>();  // the chunk that used the next slot has left it
    }
  }
}

// ---- Narrowed tiles (gemmlab/persistent_schedule.h) ------------------------------------------
// A narrowed unit runs the same stages (48 KB: the B box keeps room for 256 rows) with wgmma
// m64nWk16 and W / 2 accumulators a thread: the first W / 2 of the 128 the block keeps.
template <class Base, int kW>
struct NarrowedShape : Base {
  static constexpr int kTileN = kW, kWgmmaN = kW, kAccumulators = kW / 2;
};
static_assert(persistent::kNarrowMinCols == 240 && persistent::kNarrowMaxCols == 248,
              "the kernel instantiates m64n240k16 and m64n248k16");

// ---- The stream-k tail's order (gemmlab/persistent_schedule.h) ------------------------------
// One flag per (split unit, block of the cluster, consumer warpgroup), raised to the launch's
// epoch once that part of C is stored: the flags need no reset between launches.
struct TailFlags {
  int* flags;
  int epoch;
  __device__ __forceinline__ int* at(int tail_flag, int rank, int consumer) const {
    return flags + (tail_flag * kClusterBlocks + rank) * 2 + consumer;
  }
};

// After the unit's first segment stored its part of C (thread 0 of the warpgroup, which issued
// the stores): wait until they are written, then raise the flag.
__device__ __forceinline__ void raise_when_stored(int* flag, int epoch) {
#if GEMMLAB_SM90A
  bulk_wait<0>();
  asm volatile("fence.proxy.async.global;\n" ::: "memory");  // the TMA's writes, seen by all proxies
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(flag), "r"(epoch) : "memory");
#endif
}
// Before a later segment adds to C (thread 0, which issues the adds).
__device__ __forceinline__ void wait_until_stored(const int* flag, int epoch) {
#if GEMMLAB_SM90A
  int seen = 0;
  do {
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(seen) : "l"(flag) : "memory");
  } while (seen != epoch && (__nanosleep(32), true));
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
#endif
}

// kSlots: C staging slots per consumer (PersistentStage::kStagingSlots; HOPPER_NOTES.md measures others).
// kMulticast = false (measurement): each block loads both halves of its B box itself and hands its
// stages back only to its own producer; the cluster stays, sharing nothing.
template <class Shape, bool kTmaStore, int kSlots = PersistentStage::kStagingSlots, bool kMulticast = true>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    persistent_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b_half,
                      const __grid_constant__ CUtensorMap map_c, const __grid_constant__ CUtensorMap map_c8,
                      float* C, int M, int N, int K, float alpha, float beta, persistent::Plan plan, TailFlags tail) {
#if GEMMLAB_SM90A
  static_assert(Shape::kProducer && Shape::kTileN % kClusterBlocks == 0);
  constexpr int kS = Shape::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  constexpr int kStagingBytes = kSlots * 2 * tma::kCBoxBytes;
  unsigned char* staging = tiles + kS * Shape::kStageBytes;  // 1024-byte aligned, per consumer
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + Shape::kConsumers * kStagingBytes);
  uint64_t* empty = full + kS;
  const uint32_t rank = cluster_rank(), peer = rank ^ 1u;
  const int cluster = blockIdx.x / kClusterBlocks;

  if (threadIdx.x == 0) {
    start_pipeline(&map_a, &map_b_half, full, empty, kS, (kMulticast ? kClusterBlocks : 1) * Shape::kConsumers * 4);
    if (kTmaStore) tma_prefetch_descriptor(&map_c);
    if (kTmaStore && plan.narrow_rows > 0) tma_prefetch_descriptor(&map_c8);
  }
  __syncwarp();
  cluster_arrive_relaxed();  // waited for before the first remote operation, as stage 18

  const int k_tiles = plan.k_tiles;
  const int segments = persistent::segments(plan, cluster);
  const int wg = threadIdx.x / 128;
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    cluster_wait();
    if (threadIdx.x == 0) {
      int it = 0;
#pragma unroll 1
      for (int s = 0; s < segments; ++s) {
        const persistent::Segment g = persistent::segment(plan, cluster, s);
        const persistent::UnitColumns u = persistent::unit_columns(plan, g.unit, int(rank));
        if (u.cols == 0) continue;  // padding of the last slab, for both blocks
        const int m0 = u.m_tile * Shape::kTileM, n0 = u.col0;
        // The B box's second half (gemmlab/tma_box.h): for a narrowed tile (240 or 248 columns)
        // the two halves overlap by 16 or 8 rows, which both blocks write alike.
        const int second = tma::pair_b_part_row(1, u.cols, Shape::kTileN);
        produce_k_tiles<Shape>(tiles, full, empty, g.k_begin, g.k_end, it,
                               [&](unsigned char* dst, uint64_t* bar, int t) {
                                 if constexpr (kMulticast) {
                                   issue_pair_boxes<Shape>(dst, bar, t, &map_a, &map_b_half, m0, n0, rank, u.cols);
                                 } else {
                                   tma_load_2d(dst, &map_a, bar, t * Shape::kTileK, m0);
                                   tma_load_2d(dst + Shape::kABytes, &map_b_half, bar, t * Shape::kTileK, n0);
                                   tma_load_2d(dst + Shape::kABytes + second * tma::kRowBytes, &map_b_half, bar,
                                               t * Shape::kTileK, n0 + second);
                                 }
                               });
      }
      wait_stages_returned<kS>(empty, it);  // the block may leave: no arrival on it is still coming
    }
  } else {
    setmaxnreg_inc<kConsumerRegisters>();
    cluster_wait();
    // Read from lane 0, so that ptxas knows both are the same in every lane of a warp: the staging
    // address and the TMA stores' operands derived from them live in uniform registers.
    const int consumer = __shfl_sync(0xffffffffu, wg - 1, 0);
    const bool issuer_warp = __shfl_sync(0xffffffffu, threadIdx.x % 128 / 32, 0) == 0;
    const bool warp_leader = threadIdx.x % 32 == 0;
    const uint32_t tiles_address = smem_u32(tiles);
    const int thread_in_wg = threadIdx.x % 128;
    int it = 0;
    // The segment to compute next, looked up while the MMAs of the one before drain: between two
    // tiles the tensor cores wait for nothing but the epilogue.
    persistent::Segment next = segments > 0 ? persistent::segment(plan, cluster, 0) : persistent::Segment{};
    persistent::UnitColumns next_cols = persistent::unit_columns(plan, next.unit, int(rank));
    // Zeroed once per block, never per tile: each tile's first MMA overwrites it (scale-d 0).
    float d[Shape::kAccumulators] = {};
    fence_accumulators(d);
    auto release = [&](int stage) {
      if constexpr (kMulticast) release_to_pair(&empty[stage], peer, warp_leader);
      else if (warp_leader) mbarrier_arrive(&empty[stage]);
    };
#pragma unroll 1
    for (int s = 0; s < segments; ++s) {
      const persistent::Segment g = next;
      // Read from lane 0, so that ptxas knows the unit's width the same in every lane: the branch
      // on it below stays uniform, and with it the k-tile counter and the MMAs' descriptors
      // (uniform registers, as without narrowed rows; unit_columns' slab loop hides that).
      const persistent::UnitColumns u{__shfl_sync(0xffffffffu, next_cols.m_tile, 0),
                                      __shfl_sync(0xffffffffu, next_cols.n_index, 0),
                                      __shfl_sync(0xffffffffu, next_cols.col0, 0),
                                      __shfl_sync(0xffffffffu, next_cols.cols, 0)};
      auto look_up_next = [&] {
        if (s + 1 < segments) {
          next = persistent::segment(plan, cluster, s + 1);
          next_cols = persistent::unit_columns(plan, next.unit, int(rank));
        }
      };
      if (u.cols == 0) {  // padding of the last slab
        look_up_next();
        continue;
      }
      // The unit at its width: Unit is Shape, or Shape narrowed to 248 or 240 columns.
      auto compute_and_store = [&](auto unit_shape) {
        using Unit = decltype(unit_shape);
        auto& du = reinterpret_cast<float(&)[Unit::kAccumulators]>(d);
        consume_k_tiles<Unit, decltype(release), false, /*kOverwrite=*/true>(
            du, tiles_address, full, consumer, g.k_begin, g.k_end, it, release, look_up_next);
        const int row0 = u.m_tile * Shape::kTileM + 64 * consumer, col0 = u.col0;
        if constexpr (kTmaStore) {
          // A split unit (only with the TMA epilogue): its first segment stores, the others add.
          const bool split = !g.whole(k_tiles);
          int* flag = split ? tail.at(persistent::tail_flag(plan, g.unit), int(rank), consumer) : nullptr;
          if (split && !g.stores() && thread_in_wg == 0) wait_until_stored(flag, tail.epoch);
          // alpha = 1, the usual case, stores d as it is (so does cuBLAS's kernel): without the
          // multiply the stage took 0.3-0.5 % less time at 4096^3 on the H100 (HOPPER_NOTES.md).
          unsigned char* mine = staging + consumer * kStagingBytes;
          const bool add = split && !g.stores();
          const int barrier = 1 + consumer;
          if (alpha == 1.f)
            store_accumulators_tma<Unit, kSlots, false>(du, mine, &map_c, &map_c8, row0, col0, thread_in_wg, alpha,
                                                        barrier, add, issuer_warp);
          else
            store_accumulators_tma<Unit, kSlots, true>(du, mine, &map_c, &map_c8, row0, col0, thread_in_wg, alpha,
                                                       barrier, add, issuer_warp);
          if (split && g.stores() && thread_in_wg == 0) raise_when_stored(flag, tail.epoch);
        } else {
          store_accumulators<Unit>(du, C, M, N, row0, col0, thread_in_wg, alpha, beta);
        }
      };
      if (u.cols == Shape::kTileN) compute_and_store(Shape{});
      else if (u.cols == persistent::kNarrowMaxCols) compute_and_store(NarrowedShape<Shape, persistent::kNarrowMaxCols>{});
      else compute_and_store(NarrowedShape<Shape, persistent::kNarrowMinCols>{});
    }
    // The block may end once the copy engine has read the staging; the kernel's end covers the
    // writes themselves (as CUTLASS's epilogue ends), so nobody waits for C to reach memory.
    if (kTmaStore && threadIdx.x % 128 == 0) bulk_wait_read<0>();
  }
#endif
}

}  // namespace gemmlab::kernels::hopper
