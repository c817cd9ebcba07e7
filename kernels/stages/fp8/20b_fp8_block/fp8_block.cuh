// The kernel of stage 20b: stage 20a with block scales and FP32 promotion. fp8_block.cu says why;
// this file says how.
//
//   problem  : D (bf16, row-major M x N) = sum over k-blocks kb of
//                scale_a[kb][m] * scale_b[n / 128][kb] * (A[m, 128 kb ..] . B[n, 128 kb ..])
//              A (e4m3, M x K) and B (e4m3, N x K) K-major as in stage 20a; scale_a holds one
//              float per row and 128-wide k-block (M contiguous: [kb][m]), scale_b one per 128 x 128
//              block of B ([nb][kb], rows of KB rounded up to 4 floats: cuBLASLt's layout).
//   tile     : 128 x 128 x 128: a k-tile is exactly one k-block, and a tile's 128 columns one scale
//              block of B, so a consumer needs three scales per k-tile (its two rows' and B's).
//   mma      : per k-tile and consumer warpgroup, 4 x wgmma m64n128k32 e4m3 into `part` (64 floats
//              per thread), the first with scale-d 0: the tensor cores sum only one k-block.
//   promote  : then on the CUDA cores, total += part * (scale_a[row] * scale_b): FP32 sums across
//              k-blocks, 64 FFMAs per thread per k-tile. While one consumer warpgroup promotes,
//              the other's wgmmas keep the tensor cores busy.
//   cluster, schedule, epilogue: stage 20a's (2 blocks share B by multicast, persistent units in
//              groups of m pairs, D through the TMA in 64-column chunks).
#pragma once
#include "gemmlab/fp8_shapes.h"  // Fp8BlockShape, scale_b_stride
#include "stages/fp8/20a_fp8_tensor/fp8_tensor.cuh"

namespace gemmlab::kernels::fp8 {

static_assert(Fp8BlockShape::kChunkCols == Fp8TensorShape::kChunkCols, "stage 20a's D staging and boxes");

// d (64 x 128, f32) (+)= A (64 x 32, e4m3, K-major) * B (32 x 128, e4m3, K-major).
__device__ __forceinline__ void wgmma_m64n128k32_e4m3(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                                      uint32_t accumulate) {
#if GEMMLAB_SM90A
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
#endif
}

// One consumer's scales for k-tile t: its rows r and r + 8 (accumulators i % 4 < 2 and >= 2, the
// mma.sync C layout inside each warp's 16 rows) and B's scale of the tile's column block. Rows
// past M read row M - 1's scale (their sums are never stored); k-tiles past K read nothing.
// Loaded two k-tiles before their promotion and multiplied only there: a load's latency (an L2
// round trip, longer than a k-tile's wgmmas) must not stand between a wgmma and its wait.
struct Scales {
  float a_low, a_high, b;
};
// Where a consumer thread's scales are: its two rows in scale_a's k-block 0 (rows past M clamped
// to M - 1, whose sums are never stored) and B's scale row. next() loads k-block `at` and moves
// on, but never past the last k-block: the loads two k-tiles ahead of the last promotions read it
// again (their values are never used). An index and a min, not a predicated stop: ptxas turns the
// three addresses into one IMAD.WIDE each (k-block x stride + base), with nothing predicated.
struct ScaleCursor {
  const float *low, *high, *b;
  int at, last;      // the next k-block to load; the last one (k-tiles - 1)
  unsigned stride;   // bytes between k-blocks of scale_a (4 M < 2^32: check_fp8_block)
  __device__ __forceinline__ ScaleCursor(const float* scale_a, const float* scale_b_row, int M, int row, int k_tiles)
      : low(scale_a + min(row, M - 1)), high(scale_a + min(row + 8, M - 1)), b(scale_b_row), at(0),
        last(k_tiles - 1), stride(4u * unsigned(M)) {}
  __device__ __forceinline__ Scales next() {
    const unsigned kb = unsigned(min(at++, last));
    const auto load = [](const float* p, size_t bytes) {
      return __ldg(reinterpret_cast<const float*>(reinterpret_cast<const char*>(p) + bytes));
    };
    return {load(low, size_t(kb) * stride), load(high, size_t(kb) * stride), load(b, size_t(kb) * 4u)};
  }
};

// total += part * scale, row by row (the promotion into FP32 registers).
__device__ __forceinline__ void promote(float (&total)[64], const float (&part)[64], Scales s) {
  const float low = s.a_low * s.b, high = s.a_high * s.b;
#pragma unroll
  for (int i = 0; i < 64; ++i) total[i] = fmaf(part[i], (i % 4) < 2 ? low : high, total[i]);
}

// The four k32 wgmmas of one k-tile into part, from zero. desc_a / desc_b: the descriptors of
// the k-tile's boxes at k step 0; a k32 step is 32 bytes further, 2 in the descriptor's address
// field (bytes / 16), which a stage's offset never carries out of (shared memory < 256 KB).
__device__ __forceinline__ void mma_k_tile(float (&part)[64], uint64_t desc_a, uint64_t desc_b) {
  wgmma_fence();
#pragma unroll
  for (int s = 0; s < Fp8BlockShape::kStepsPerTile; ++s)
    wgmma_m64n128k32_e4m3(part, desc_a + uint64_t(2 * s), desc_b + uint64_t(2 * s), s == 0 ? 0u : 1u);
  wgmma_commit();
}
static_assert(Fp8BlockShape::kStepK / 16 == 2, "a k32 step moves the descriptor's address field by 2");

// A position in the ring of stages: the stage and the parity of its current use.
struct RingSlot {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance(int stages) {
    if (++stage == stages) stage = 0, phase ^= 1u;
  }
};

// Launched in clusters of (2, 1, 1) blocks, gridDim.x = 2 x clusters (fp8_block.cu).
template <Epilogue kEpilogue>
__global__ void __launch_bounds__(Fp8BlockShape::kThreads, 1)
    fp8_block_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b_half,
                     const __grid_constant__ CUtensorMap map_d, __nv_bfloat16* D, int M, int N, int K,
                     const float* scale_a, const float* scale_b, int m_pairs, int n_tiles, int group_pairs) {
#if GEMMLAB_SM90A
  using S = Fp8BlockShape;
  constexpr int kS = S::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  unsigned char* staging = tiles + kS * S::kStageBytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + S::kConsumers * S::kStagingBytes);
  uint64_t* empty = full + kS;

  const uint32_t rank = cluster_rank(), peer = rank ^ 1u;
  const int cluster = int(blockIdx.x) / S::kClusterM, clusters = int(gridDim.x) / S::kClusterM;
  const int units = m_pairs * n_tiles, k_tiles = (K + S::kTileK - 1) / S::kTileK;

  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b_half, full, empty, kS, S::kClusterM * S::kConsumers * 4);
  __syncwarp();
  cluster_arrive_relaxed();

  // The warpgroup through a shuffle: ptxas then knows it is one value per warp (a uniform
  // register), and so are the descriptors made from it.
  const int wg = __shfl_sync(0xffffffffu, int(threadIdx.x / 128), 0);
  if (wg == 0) {  // the producer: stage 20a's, with 64 of B's 128 rows per block
    setmaxnreg_dec<kProducerRegisters>();
    cluster_wait();
    if (threadIdx.x == 0)
      produce_units<S>(tiles, full, empty, &map_a, &map_b_half, rank, cluster, clusters, m_pairs, n_tiles, group_pairs,
                       k_tiles);
    return;
  }

  setmaxnreg_inc<kConsumerRegisters>();
  cluster_wait();
  const int consumer = wg - 1, thread_in_wg = threadIdx.x % 128;
  const bool warp_leader = threadIdx.x % 32 == 0;
  const uint32_t tiles_address = smem_u32(tiles);
  const uint32_t peer_empty = cluster_address(empty, peer);  // the peer's empty[0]
  auto release = [&](int stage) {
    if (warp_leader) {
      mbarrier_arrive(&empty[stage]);
      mbarrier_arrive_remote(peer_empty + 8u * uint32_t(stage));
    }
  };
  // Descriptors of stage 0's boxes (this consumer's 64 rows of A, all 128 rows of B); stage s is
  // s x 32 KB further: 2048 s in the address field.
  const uint64_t desc_a0 = fp8_desc(tiles_address, 64 * consumer, 0), desc_b0 = fp8_desc(tiles_address + S::kABytes, 0, 0);
  constexpr uint64_t kStageStep = S::kStageBytes / 16;
  // This thread's first accumulator row inside the consumer's 64 (warp w: 16 w + lane / 4).
  const int row_in_tile = 64 * consumer + gmma::accumulator(thread_in_wg, 0).row;
  RingSlot issued, retired;  // the next k-tile to issue and to retire, across units
  float total[64], part[64], next[64];
#pragma unroll 1
  for (int u = cluster; u < units; u += clusters) {
    const Unit unit = unit_of(u, m_pairs, n_tiles, group_pairs);
    const int row0 = (2 * unit.m_pair + int(rank)) * S::kTileM;
    const float* scale_b_row = scale_b + size_t(unit.n_tile) * size_t(scale_b_stride(K));
#pragma unroll
    for (int i = 0; i < 64; ++i) total[i] = 0.f;
    // Even k-tiles' scales in `even`, odd ones' in `odd`: each is used, then reloaded for two
    // k-tiles on, straight into the registers it is read from a loop trip later (a rotation
    // through a third set would copy the loaded value at once and wait for the load there).
    ScaleCursor scales(scale_a, scale_b_row, M, row0 + row_in_tile, k_tiles);
    Scales even = scales.next(), odd = scales.next();
    auto issue = [&](float (&into)[64]) {
      mbarrier_wait(&full[issued.stage], issued.phase);
      const uint64_t offset = kStageStep * uint64_t(issued.stage);
      mma_k_tile(into, desc_a0 + offset, desc_b0 + offset);
      issued.advance(kS);
    };
    // Promote the oldest k-tile in flight (in `from`, its wgmmas retired by the caller's wait)
    // with its scales, hand its stage back, and load the scales of the k-tile two on.
    auto retire = [&](float (&from)[64], Scales& sc) {
      fence_accumulators(from);
      release(retired.stage);
      retired.advance(kS);
      promote(total, from, sc);
      sc = scales.next();
    };
    // Two partial-sum arrays: k-tile t + 1's wgmmas are queued before k-tile t is promoted, so
    // the tensor cores have this warpgroup's next work while its FFMAs run. Invariant at the
    // loop's head: k-tile t is in flight in `part`.
    issue(part);
    int t = 0;
#pragma unroll 1
    for (; t + 2 < k_tiles; t += 2) {
      issue(next);
      wgmma_wait<1>();
      retire(part, even);
      issue(part);
      wgmma_wait<1>();
      retire(next, odd);
    }
    if (t + 1 < k_tiles) {
      issue(next);
      wgmma_wait<1>();
      retire(part, even);
      wgmma_wait<0>();
      retire(next, odd);
    } else {
      wgmma_wait<0>();
      retire(part, even);
    }
    const int out_row0 = row0 + 64 * consumer, col0 = unit.n_tile * S::kTileN;
    if constexpr (kEpilogue == Epilogue::Direct)
      store_bf16(total, D, M, N, out_row0, col0, thread_in_wg, 1.f);
    else
      store_bf16_tma(total, staging + consumer * S::kStagingBytes, &map_d, out_row0, col0, thread_in_wg, 1.f,
                     1 + consumer);
  }
  if (kEpilogue == Epilogue::Tma && thread_in_wg == 0) bulk_wait_read<0>();
#endif
}

}  // namespace gemmlab::kernels::fp8
