// The kernel of stage 21: the implicit GEMM of stage 18 on the Hopper track's machinery (stage 15's
// producer / consumer warpgroups, full and empty mbarriers, wgmma from 128-byte-swizzled shared
// memory). 21_conv_wgmma.cu says why; this file says how.
//
//   block    : a 64 x 128 or 64 x 64 output tile (64 pixels x 128 or 64 filters, conv::wgmma_tile_n);
//              warpgroup 0 produces, warpgroup 1 computes (wgmma m64n128k16 or m64n64k16); 2 blocks
//              per SM.
//   setup    : full[s] expects 129 arrivals (the 128 producer threads' cp.async, one of them also
//              arriving with the filter box's byte count); empty[s] 4 (one per consumer warp).
//   producer : for each k-tile t (64 channels x R*S taps, 128 bytes of every row):
//                wait empty[t % S] (from its second use), thread 0: expect_tx + the filter box by
//                TMA (the KRSC filters are the GEMM's K-contiguous B, a plain 2D tensor map);
//                every thread: 4 x cp.async of 16 bytes of A gathered through the address
//                function (zero-filled in the padding), written where the TMA's 128-byte swizzle
//                would put them (gemmlab/tma_box.h), then cp.async.mbarrier.arrive.noinc on full.
//   consumer : wait full[t % S], fence.proxy.async (the gathered bytes were written by the generic
//              proxy, wgmma reads through the async proxy), 4 x wgmma, commit, wait <= 1 group,
//              release tile t-1's stage on empty.
//   epilogue : accumulators to the NPQK output (row-major: neighbouring columns are one 8-byte store),
//              or, split over k (gridDim.z slices, conv::wgmma_split_k), atomically added into it.
#pragma once
#include <cuda.h>

#include "gemmlab/conv_problem.h"
#include "stages/hopper/15_warp_specialized.cuh"

namespace gemmlab::kernels::conv {

using namespace ::gemmlab::conv;


// cp.async's own arrive on an mbarrier once this thread's earlier cp.async have landed; .noinc: it
// counts as one of the barrier's expected arrivals.
__device__ __forceinline__ void cp_async_mbarrier_arrive(uint64_t* bar) {
#if GEMMLAB_SM90A
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(hopper::smem_u32(bar)) : "memory");
#endif
}

// One producer thread's share of the A tile: vectors j = thread + 128 i (i < kVectors) of the
// tile's 64 rows x 8 chunks, so a warp covers 4 whole 128-byte rows.
template <class S>
struct GatherA {
  static constexpr int kChunks = tma::kRowBytes / 16;            // 8 vectors of 8 halves per row
  static constexpr int kVectors = S::kTileM * kChunks / 128;     // per producer thread: 4
  RowOrigin origin[kVectors];
  bool row_ok[kVectors];
  int row[kVectors], chunk;

  __device__ __forceinline__ GatherA(const Shape& sh, long long m0, int thread) {
    chunk = thread % kChunks;
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      row[i] = (thread + 128 * i) / kChunks;
      const long long m = m0 + row[i];
      row_ok[i] = m < sh.gemm_m();
      origin[i] = row_origin(sh, row_ok[i] ? m : 0);
    }
  }
  // k-tile t into the A box at `box` (1024-byte aligned): every vector of this thread shares k.
  __device__ __forceinline__ void issue(const __half* input, const Shape& sh, int t, unsigned char* box) const {
    const int kk = t * S::kTileK + chunk * 8;
    const bool k_ok = kk < sh.gemm_k();
    const TapStep tap = tap_step(sh, k_ok ? kk : 0);
    const uint32_t base = hopper::smem_u32(box);
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      const bool ok = k_ok && row_ok[i] && tap_in_tensor(sh, origin[i], tap);
      fp16::cp_async_16(base + tma::sw128_byte_offset(row[i], 16 * chunk), input + (ok ? origin[i].base + tap.delta : 0),
                        ok);
    }
  }
};

// The NPQK output: gmma::accumulator's pairs (d[2j], d[2j+1]) are neighbouring columns of a row.
// kSplit: one of several split-k slices, added into the zeroed output with fp32 atomics.
template <class S>
__device__ __forceinline__ void store_output_rows(const float (&d)[S::kAccumulators], float* out, const Shape& sh,
                                                  long long row0, int col0, int thread_in_wg, float alpha, float beta,
                                                  bool split) {
#pragma unroll
  for (int i = 0; i < S::kAccumulators; i += 2) {
    const FragCoord e = gmma::accumulator(thread_in_wg, i);
    const long long row = row0 + e.row;
    const int col = col0 + e.col;
    if (row >= sh.gemm_m()) continue;
    float* o = out + output_offset(sh, row, col);
    float v0 = alpha * d[i], v1 = alpha * d[i + 1];
    if (split) {
      if (col < sh.k) atomicAdd(o, v0);
      if (col + 1 < sh.k) atomicAdd(o + 1, v1);
    } else if (sh.k % 2 == 0 && col + 1 < sh.k) {
      if (beta != 0.f) v0 += beta * o[0], v1 += beta * o[1];
      *reinterpret_cast<float2*>(o) = make_float2(v0, v1);
    } else {
      if (col < sh.k) o[0] = beta != 0.f ? v0 + beta * o[0] : v0;
      if (col + 1 < sh.k) o[1] = beta != 0.f ? v1 + beta * o[1] : v1;
    }
  }
}

// kMinBlocks: blocks per SM the registers are budgeted for (hopper::ConvWgmmaStage).
template <class S, int kMinBlocks>
__global__ void __launch_bounds__(S::kThreads, kMinBlocks)
    conv_wgmma_kernel(const __grid_constant__ CUtensorMap map_filter, const __half* input, float* out, Shape sh,
                      float alpha, float beta) {
#if GEMMLAB_SM90A
  constexpr int kS = S::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = hopper::align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * S::kStageBytes);
  uint64_t* empty = full + kS;
  const long long m0 = 1ll * blockIdx.x * S::kTileM;
  const int n0 = blockIdx.y * S::kTileN;

  if (threadIdx.x == 0) {
    hopper::tma_prefetch_descriptor(&map_filter);
    for (int s = 0; s < kS; ++s) {
      hopper::mbarrier_init(&full[s], 128 + 1);
      hopper::mbarrier_init(&empty[s], 4);
    }
    hopper::fence_barrier_init();
  }
  __syncthreads();

  // Split-k slice blockIdx.z of gridDim.z: k-tiles [k_begin, k_end).
  const int all_k_tiles = int((sh.gemm_k() + S::kTileK - 1) / S::kTileK);
  const int k_begin = int(1ll * all_k_tiles * blockIdx.z / gridDim.z);
  const int k_end = int(1ll * all_k_tiles * (blockIdx.z + 1) / gridDim.z);
  int it = 0;
  if (threadIdx.x < 128) {  // the producer warpgroup
    const GatherA<S> gather(sh, m0, threadIdx.x);
#pragma unroll 1
    for (int t = k_begin; t < k_end; ++t, ++it) {
      const int stage = it % kS;
      if (it >= kS) hopper::mbarrier_wait(&empty[stage], static_cast<uint32_t>(it / kS - 1) & 1u);
      unsigned char* dst = tiles + stage * S::kStageBytes;
      if (threadIdx.x == 0) {
        hopper::mbarrier_arrive_expect_tx(&full[stage], S::kBBytes);
        hopper::tma_load_2d(dst + S::kABytes, &map_filter, &full[stage], t * S::kTileK, n0);
      }
      gather.issue(input, sh, t, dst);
      cp_async_mbarrier_arrive(&full[stage]);
    }
    fp16::cp_async_wait<0>();  // leave no copy in flight behind an exited thread
    return;
  }

  const bool warp_leader = threadIdx.x % 32 == 0;
  float d[S::kAccumulators] = {};
  hopper::fence_accumulators(d);
  auto release = [&](int stage) {
    if (warp_leader) hopper::mbarrier_arrive(&empty[stage]);
  };
  hopper::consume_k_tiles<S, decltype(release), /*kGenericWrites=*/true>(d, hopper::smem_u32(tiles), full, 0, k_begin,
                                                                         k_end, it, release);
  store_output_rows<S>(d, out, sh, m0, n0, threadIdx.x % 128, alpha, beta, gridDim.z > 1);
#endif
}

}  // namespace gemmlab::kernels::conv
