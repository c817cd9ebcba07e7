// The kernel of stage 20a: stage 19's persistent, warp-specialized clusters on FP8 operands.
// fp8_tensor.cu says why; this file says how.
//
//   problem  : D (bf16, row-major M x N, ldd = N) = scale_a * scale_b * A (e4m3, row-major M x K)
//              * B^T (B e4m3, N x K, K contiguous): both operands K-major, as wgmma's FP8 forms
//              require and as cuBLASLt's FP8 "TN" layout stores them.
//   tile     : 128 x 256 x 128. A k-tile row is 128 e4m3 = 128 bytes: one 128-byte swizzle row,
//              exactly the bytes of the fp16 stages' 64-half row, so the boxes, descriptors and
//              swizzle are theirs; only the element count per row doubles.
//   mma      : per k-tile and consumer warpgroup, 4 x wgmma m64n256k32 e4m3 (k32 = 32 bytes,
//              the same byte step as f16's k16), fp32 accumulators (128 per thread).
//   cluster  : 2 blocks along m share the B box through TMA multicast (stage 18): each loads
//              128 of its 256 rows into both blocks.
//   schedule : persistent: one block per SM; cluster c takes units c, c + clusters, ... in
//              groups of kGroupPairs m pairs (L2 reuse); the ring counter `it` runs across units,
//              so the producer fills the next unit's stages while the consumers store.
//   epilogue : d * (scale_a * scale_b) rounded to bf16. N % 8 == 0: 64-column chunks through two
//              8 KB swizzled staging buffers per consumer and TMA stores that run on under the next
//              unit (store_bf16_tma); otherwise bf16x2 stores straight from the registers (a
//              thread's accumulators come in adjacent-column pairs).
#pragma once
#include <cuda_bf16.h>

#include "gemmlab/fp8_shapes.h"  // Fp8TensorShape
#include "gemmlab/gmma_desc.h"
#include "stages/hopper/19_persistent/persistent.cuh"  // cluster_rank, multicast TMA, remote arrive, setmaxnreg, TMA store

namespace gemmlab::kernels::fp8 {

using namespace gemmlab::kernels::hopper;

// How the consumers write D: Tma (N % 8 == 0: 16-byte rows for the D map), else Direct.
enum class Epilogue : int { Direct = 0, Tma = 1 };

// d (64 x 256, f32) += A (64 x 32, e4m3, K-major) * B (32 x 256, e4m3, K-major). FP8 wgmma has
// no transpose immediates: both operands must be K-major. accumulate = 0 overwrites d.
__device__ __forceinline__ void wgmma_m64n256k32_e4m3(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                                      uint32_t accumulate) {
#if GEMMLAB_SM90A
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(accumulate));
#endif
}

// The descriptor of `rows0`.. of a swizzled box at `box`, k32 step `step` (32 bytes further).
__device__ __forceinline__ uint64_t fp8_desc(uint32_t box, int row0, int step) {
  return gmma::encode(box + uint32_t(row0 * Fp8TensorShape::kRowBytes + step * Fp8TensorShape::kStepK),
                      gmma::kLeadingBytesSw128, gmma::kStrideBytesSw128, gmma::SmemLayout::Swizzle128B);
}

// Unit u of the persistent schedule: m pair and n tile, units ordered n-fastest inside groups of
// kGroupPairs m pairs (16 x 16 units at 4096^3: group 0 = units 0-127, pairs 0-7).
struct Unit {
  int m_pair, n_tile;
};
__host__ __device__ constexpr Unit unit_of(int u, int m_pairs, int n_tiles, int kG = Fp8TensorShape::kGroupPairs) {
  const int group = u / (kG * n_tiles), first = group * kG;
  const int size = m_pairs - first < kG ? m_pairs - first : kG;
  const int r = u - group * kG * n_tiles;
  return {first + r % size, r / size};
}
static_assert(unit_of(9, 16, 16).m_pair == 1 && unit_of(9, 16, 16).n_tile == 1);
static_assert(unit_of(130, 16, 16).m_pair == 10 && unit_of(130, 16, 16).n_tile == 0);
static_assert(unit_of(5, 3, 4).m_pair == 2 && unit_of(5, 3, 4).n_tile == 1);  // a group of 3 pairs
static_assert(unit_of(5, 16, 16, 4).m_pair == 1 && unit_of(5, 16, 16, 4).n_tile == 1);

// Warpgroup `consumer`'s 64 x (kAcc / 2) accumulators (64 x 256 here, 64 x 128 in stage 20b),
// times `scale`, to D as bf16 (row-major, ldd = N). Pairs go out as one 4-byte store where the
// pair is inside N and 4-byte aligned (N even).
template <int kAcc>
__device__ __forceinline__ void store_bf16(const float (&d)[kAcc], __nv_bfloat16* D, int M, int N, int row0,
                                           int col0, int thread_in_wg, float scale) {
  const bool pairs = N % 2 == 0;
#pragma unroll
  for (int i = 0; i < kAcc; i += 2) {
    const FragCoord e = gmma::accumulator(thread_in_wg, i);
    const int row = row0 + e.row, col = col0 + e.col;
    if (row >= M || col >= N) continue;
    __nv_bfloat16* p = D + size_t(row) * size_t(N) + col;
    if (pairs) {
      *reinterpret_cast<__nv_bfloat162*>(p) = __floats2bfloat162_rn(d[i] * scale, d[i + 1] * scale);
    } else {
      p[0] = __float2bfloat16_rn(d[i] * scale);
      if (col + 1 < N) p[1] = __float2bfloat16_rn(d[i + 1] * scale);
    }
  }
}

// The same through shared memory and the TMA: chunk q (columns 64q .. 64q+63, accumulators 32q ..
// 32q+31) is written as bf16 into staging buffer q % 2, a 64 x 64 box with the 128-byte swizzle
// (row r at 128 r, its 16-byte piece j at (j ^ r % 8) * 16: a warp's 8 rows x 16 bytes hit all 32
// banks), then one thread hands it to the copy engine. Before a buffer is rewritten, its store two
// chunks ago must have read it (wait_group.read 1: the last one may still run). The stores of a
// unit's last chunks run on under the next unit's main loop; the TMA clips rows and columns past D.
template <int kAcc>
__device__ __forceinline__ void store_bf16_tma(const float (&d)[kAcc], unsigned char* staging, const CUtensorMap* map_d,
                                               int row0, int col0, int thread_in_wg, float scale, int barrier_id) {
  using S = Fp8TensorShape;
  const bool issuer = thread_in_wg == 0;
#pragma unroll
  for (int q = 0; q < kAcc / 32; ++q) {  // 64-column chunks: 4 of a 64 x 256 tile
    unsigned char* buffer = staging + (q % 2) * S::kChunkBytes;
    if (issuer) bulk_wait_read<1>();
    warpgroup_barrier(barrier_id);  // buffer q % 2 is free
#pragma unroll
    for (int j = 0; j < 32; j += 2) {
      const int i = 32 * q + j;
      const FragCoord e = gmma::accumulator(thread_in_wg, i);
      const int col = e.col % S::kChunkCols;  // even: the pair stays in one 16-byte piece
      const uint32_t offset = uint32_t(e.row * 128 + (((col * 2 / 16) ^ (e.row % 8)) * 16) + (col * 2) % 16);
      *reinterpret_cast<__nv_bfloat162*>(buffer + offset) = __floats2bfloat162_rn(d[i] * scale, d[i + 1] * scale);
    }
    fence_proxy_async_shared();     // the writes, visible to the copy engine
    warpgroup_barrier(barrier_id);  // every thread's writes are in
    if (issuer) {
      tma_store_2d(map_d, buffer, col0 + q * S::kChunkCols, row0);
      bulk_commit();
    }
  }
}

// The producer thread of an FP8 stage (S: its shape): the cluster's units in order, for each the
// k-tiles of A (this block's tile rows) and this block's half of B's rows, multicast into both
// blocks of the cluster. Returns once no peer can still arrive on this block's barriers.
template <class S>
__device__ __forceinline__ void produce_units(unsigned char* tiles, uint64_t* full, uint64_t* empty,
                                              const CUtensorMap* map_a, const CUtensorMap* map_b_half, uint32_t rank,
                                              int cluster, int clusters, int m_pairs, int n_tiles, int group_pairs,
                                              int k_tiles) {
  constexpr int kS = S::kStages;
  const int units = m_pairs * n_tiles;
  int it = 0;  // k-tiles through the ring over the block's life
#pragma unroll 1
  for (int u = cluster; u < units; u += clusters) {
    const Unit unit = unit_of(u, m_pairs, n_tiles, group_pairs);
    const int m0 = (2 * unit.m_pair + int(rank)) * S::kTileM, n0 = unit.n_tile * S::kTileN;
    const int b_row = int(rank) * (S::kTileN / 2);
#pragma unroll 1
    for (int t = 0; t < k_tiles; ++t, ++it) {
      const int stage = it % kS;
      wait_stage_free<kS>(empty, it);
      unsigned char* dst = tiles + stage * S::kStageBytes;
      mbarrier_arrive_expect_tx(&full[stage], S::kStageBytes);
      tma_load_2d(dst, map_a, &full[stage], t * S::kTileK, m0);
      tma_load_2d_multicast(dst + S::kABytes + b_row * S::kRowBytes, map_b_half, &full[stage], t * S::kTileK,
                            n0 + b_row, uint16_t(0x3));
    }
  }
  // No block may leave while its peer can still arrive on its barriers or multicast into it.
  for (int j = it; j < it + kS; ++j) wait_stage_free<kS>(empty, j);
}

// Launched in clusters of (2, 1, 1) blocks, gridDim.x = 2 x clusters (fp8_tensor.cu).
template <Epilogue kEpilogue>
__global__ void __launch_bounds__(Fp8TensorShape::kThreads, 1)
    fp8_tensor_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b_half,
                      const __grid_constant__ CUtensorMap map_d, __nv_bfloat16* D, int M, int N, int K, const float* scale_a, const float* scale_b,
                      int m_pairs, int n_tiles, int group_pairs) {
#if GEMMLAB_SM90A
  using S = Fp8TensorShape;
  constexpr int kS = S::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = align_tiles(smem_raw);
  unsigned char* staging = tiles + kS * S::kStageBytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + S::kConsumers * S::kStagingBytes);
  uint64_t* empty = full + kS;

  const uint32_t rank = cluster_rank(), peer = rank ^ 1u;
  const int cluster = int(blockIdx.x) / S::kClusterM, clusters = int(gridDim.x) / S::kClusterM;
  const int units = m_pairs * n_tiles, k_tiles = (K + S::kTileK - 1) / S::kTileK;

  // Empty barriers: one arrival per consumer warp of both blocks.
  if (threadIdx.x == 0) start_pipeline(&map_a, &map_b_half, full, empty, kS, S::kClusterM * S::kConsumers * 4);
  __syncwarp();
  cluster_arrive_relaxed();

  const int wg = threadIdx.x / 128;
  int it = 0;  // k-tiles through the ring over the block's life
  if (wg == 0) {
    setmaxnreg_dec<kProducerRegisters>();
    cluster_wait();  // the peer's barriers exist before the first multicast into it
    if (threadIdx.x == 0)
      produce_units<S>(tiles, full, empty, &map_a, &map_b_half, rank, cluster, clusters, m_pairs, n_tiles, group_pairs,
                       k_tiles);
    return;
  }

  setmaxnreg_inc<kConsumerRegisters>();
  cluster_wait();  // before the first arrival on the peer's empty barriers
  const int consumer = wg - 1, thread_in_wg = threadIdx.x % 128;
  const bool warp_leader = threadIdx.x % 32 == 0;
  const float scale = *scale_a * *scale_b;
  const uint32_t tiles_address = smem_u32(tiles);
  auto release = [&](int stage) {
    if (warp_leader) {
      mbarrier_arrive(&empty[stage]);
      mbarrier_arrive_cluster(&empty[stage], peer);
    }
  };
  float d[S::kAccumulators];
#pragma unroll 1
  for (int u = cluster; u < units; u += clusters) {
    const Unit unit = unit_of(u, m_pairs, n_tiles, group_pairs);
#pragma unroll 1
    for (int t = 0; t < k_tiles; ++t, ++it) {
      const int stage = it % kS;
      mbarrier_wait(&full[stage], uint32_t(it / kS) & 1u);
      const uint32_t a = tiles_address + stage * S::kStageBytes, b = a + S::kABytes;
      wgmma_fence();
#pragma unroll
      for (int s = 0; s < S::kStepsPerTile; ++s)
        wgmma_m64n256k32_e4m3(d, fp8_desc(a, 64 * consumer, s), fp8_desc(b, 0, s), t == 0 && s == 0 ? 0u : 1u);
      wgmma_commit();
      wgmma_wait<1>();
      fence_accumulators(d);
      if (t > 0) release((it - 1) % kS);
    }
    wgmma_wait<0>();
    fence_accumulators(d);
    release((it - 1) % kS);
    const int row0 = (2 * unit.m_pair + int(rank)) * S::kTileM + 64 * consumer;
    if constexpr (kEpilogue == Epilogue::Direct)
      store_bf16(d, D, M, N, row0, unit.n_tile * S::kTileN, thread_in_wg, scale);
    else
      store_bf16_tma(d, staging + consumer * S::kStagingBytes, &map_d, row0, unit.n_tile * S::kTileN, thread_in_wg,
                     scale, 1 + consumer);
  }
  // The block may end once the copy engine has read the staging (the kernel's end covers the writes).
  if (kEpilogue == Epilogue::Tma && thread_in_wg == 0) bulk_wait_read<0>();
#endif
}

}  // namespace gemmlab::kernels::fp8
