// The kernel of stage 14d: the implicit GEMM of stage 14a on the Hopper track's machinery (stage 17's
// producer / consumer warpgroups, full and empty mbarriers, wgmma from 128-byte-swizzled shared
// memory). conv_wgmma.cu says why; this file says how.
//
//   block    : a kTileM x kTileN output tile (conv::wgmma_tile: 128 x 64, 64 x 128 or 256 x 128 with
//              the TMA's im2col boxes; 64 x 64 or 64 x 128 gathered); warpgroup 0 produces, the others
//              compute 64 rows each (wgmma m64nNk16); the k-tiles [k_begin, k_end) of conv::ConvWork.
//   setup    : full[s] expects 1 arrival (im2col: the producer thread's expect_tx) or 129 (gathered: the
//              128 producer threads' cp.async, one of them also arriving with the filter box's bytes);
//              empty[s] one per consumer warp.
//   producer : for each k-tile t (64 channels of one filter tap, 128 bytes of every row), after
//              empty[t % S] (from its second use):
//              im2col   thread 0: expect_tx, then the A box by cp.async.bulk.tensor.4d.im2col (kTileM
//                       pixels from the tile's first window origin, moved by the tap's (s, r); the
//                       copy engine walks the pixels and zero-fills the padding: gemmlab/conv_problem.h,
//                       im2col_box) and the filter box by a 2D TMA (KRSC filters are the GEMM's B);
//                       a 1x1 filter at stride 1 without padding (conv::a_is_matrix) reads the input
//                       as the plain [N*H*W][C] matrix: its A box is a 2D TMA too, as in the GEMMs;
//              gathered every thread: cp.async of 16 bytes of A through the address function (row
//                       origins from shared memory, zero-filled in the padding), written where the
//                       TMA's 128-byte swizzle would put them, then cp.async.mbarrier.arrive.noinc.
//              scalar   (C % 8 != 0, the stem's C = 3) every thread: A and B element by element
//                       (GatherScalar), st.shared of each assembled 16-byte vector, mbarrier.arrive.
//   consumer : wait full[t % S] (gathered: fence.proxy.async, the bytes came through the generic
//              proxy), 4 x wgmma, commit, wait <= 1 group, release tile t-1's stage on empty.
//   epilogue : accumulators to the NPQK output (row-major: neighbouring columns are one 8-byte store);
//              fused (stage 14e): + bias[k] (+ residual), ReLU, fp16: staged through shared memory
//              into 16-byte row vectors (14e_conv_wgmma_fused/fused_epilogue.cuh), or, where K % 8 != 0,
//              one 4-byte store per pair.
//              Split over k (a cluster per tile): the other slices' accumulators first travel into
//              block 0's shared memory (st.shared::cluster), which adds them up and stores the tile.
#pragma once
#include <cuda.h>

#include "gemmlab/conv_problem.h"
#include "stages/hopper/cluster_multicast.cuh"
#include "stages/conv/14e_conv_wgmma_fused/fused_epilogue.cuh"

namespace gemmlab::kernels::conv {

using namespace ::gemmlab::conv;


// cp.async's own arrive on an mbarrier once this thread's earlier cp.async have landed; .noinc: it
// counts as one of the barrier's expected arrivals.
__device__ __forceinline__ void cp_async_mbarrier_arrive(uint64_t* bar) {
#if GEMMLAB_SM90A
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(hopper::smem_u32(bar)) : "memory");
#endif
}

// The tile's row origins live in shared memory (kTileM x 16 bytes, hopper::ConvWgmmaStage::smem_bytes),
// written once before the block's barrier: a producer thread keeps none in registers, so 128- and
// 256-row tiles do not spill. A row past M gets an origin no tap is inside (h0 far below
// 0), which zero-fills it.
static_assert(sizeof(RowOrigin) == 16);
__device__ __forceinline__ RowOrigin tile_row_origin(const Shape& sh, long long m) {
  if (m >= sh.gemm_m()) return {0, -(1 << 30), 0};
  return row_origin(sh, m);
}

// One producer thread's share of the A tile: vectors j = thread + 128 i (i < kVectors) of the
// tile's kTileM rows x 8 chunks, so a warp covers 4 whole 128-byte rows.
template <class S>
struct GatherA {
  static constexpr int kChunks = tma::kRowBytes / 16;            // 8 vectors of 8 halves per row
  static constexpr int kVectors = S::kTileM * kChunks / 128;     // per producer thread: 4 (64 rows)
  static constexpr int kRowStep = 128 / kChunks;                 // rows between a thread's vectors
  const RowOrigin* origins;  // shared memory, kTileM rows
  int row0, chunk;

  __device__ __forceinline__ GatherA(const RowOrigin* tile_origins, int thread)
      : origins(tile_origins), row0(thread / kChunks), chunk(thread % kChunks) {}
  // k-tile t into the A box at `box` (1024-byte aligned): every vector of this thread shares k.
  __device__ __forceinline__ void issue(const __half* input, const Shape& sh, int t, unsigned char* box) const {
    const int kk = t * S::kTileK + chunk * 8;
    const bool k_ok = kk < sh.gemm_k();
    const TapStep tap = tap_step(sh, k_ok ? kk : 0);
    const uint32_t base = hopper::smem_u32(box);
#pragma unroll
    for (int i = 0; i < kVectors; ++i) {
      const int row = row0 + kRowStep * i;
      const RowOrigin o = origins[row];
      const bool ok = k_ok && tap_in_tensor(sh, o, tap);
      fp16::cp_async_16(base + tma::sw128_byte_offset(row, 16 * chunk), input + (ok ? o.base + tap.delta : 0), ok);
    }
  }
};

// Few channels (C % 8 != 0: a 16-byte vector of A would span two filter taps, and B's rows of R*S*C
// halves are not 16-byte aligned for the TMA): every element of A and B is loaded alone (CUTLASS's
// alignment 1, conv_alignment.h), its vector assembled in registers and stored where the TMA's
// 128-byte swizzle would put it; columns past R*S*C, rows past K and taps in the padding are zeros.
// The thread's eight columns are the same in every row it loads: their taps are found once per
// k-tile (one division, then carries), e.g. C = 3, 7x7, column 8 = (r 0, s 2, c 2).
template <class S>
struct GatherScalar {
  static constexpr int kChunks = tma::kRowBytes / 16;           // 8 vectors of 8 halves per row
  static constexpr int kRowStep = 128 / kChunks;                // 16 rows between a thread's vectors
  static constexpr int kAVectors = S::kTileM / kRowStep, kBVectors = S::kTileN / kRowStep;
  const RowOrigin* origins;  // shared memory, kTileM rows
  int row0, chunk;

  __device__ __forceinline__ GatherScalar(const RowOrigin* tile_origins, int thread)
      : origins(tile_origins), row0(thread / kChunks), chunk(thread % kChunks) {}
  __device__ __forceinline__ void issue(const __half* input, const __half* filter, const Shape& sh, int t, int n0,
                                        unsigned char* box) const {
    const int kk0 = t * S::kTileK + chunk * 8, gk = int(sh.gemm_k());
    int delta[8], dh[8], dw[8];
    Rsc tap = k_tap(sh, kk0 < gk ? kk0 : 0);
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      dh[e] = tap.r * sh.dilation, dw[e] = tap.s * sh.dilation;
      delta[e] = (dh[e] * sh.w + dw[e]) * sh.c + tap.c;
      // A column past R*S*C reads nothing: its tap is moved out of every window.
      if (kk0 + e >= gk) dh[e] = -(1 << 30);
      if (++tap.c == sh.c) {
        tap.c = 0;
        if (++tap.s == sh.s) tap.s = 0, ++tap.r;
      }
    }
    const uint32_t base = hopper::smem_u32(box);
    const unsigned short* in = reinterpret_cast<const unsigned short*>(input);
    const unsigned short* f = reinterpret_cast<const unsigned short*>(filter);
#pragma unroll 1
    for (int i = 0; i < kAVectors; ++i) {
      const int row = row0 + kRowStep * i;
      const RowOrigin o = origins[row];
      uint32_t v[4];
#pragma unroll
      for (int e = 0; e < 8; e += 2) {
        const bool ok0 = unsigned(o.h0 + dh[e]) < unsigned(sh.h) && unsigned(o.w0 + dw[e]) < unsigned(sh.w);
        const bool ok1 = unsigned(o.h0 + dh[e + 1]) < unsigned(sh.h) && unsigned(o.w0 + dw[e + 1]) < unsigned(sh.w);
        const uint32_t lo = ok0 ? __ldg(in + o.base + delta[e]) : 0u, hi = ok1 ? __ldg(in + o.base + delta[e + 1]) : 0u;
        v[e / 2] = lo | hi << 16;
      }
      st_shared_v4(base + tma::sw128_byte_offset(row, 16 * chunk), v);
    }
#pragma unroll 1
    for (int i = 0; i < kBVectors; ++i) {
      const int row = row0 + kRowStep * i, k = n0 + row;
      uint32_t v[4];
#pragma unroll
      for (int e = 0; e < 8; e += 2) {
        const long long at = 1ll * k * gk + kk0 + e;
        const uint32_t lo = k < sh.k && kk0 + e < gk ? __ldg(f + at) : 0u;
        const uint32_t hi = k < sh.k && kk0 + e + 1 < gk ? __ldg(f + at + 1) : 0u;
        v[e / 2] = lo | hi << 16;
      }
      st_shared_v4(base + S::kABytes + tma::sw128_byte_offset(row, 16 * chunk), v);
    }
  }
  __device__ __forceinline__ static void st_shared_v4(uint32_t address, const uint32_t (&v)[4]) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(address), "r"(v[0]), "r"(v[1]), "r"(v[2]),
                 "r"(v[3])
                 : "memory");
  }
};

// Where the kernel's output goes and what the epilogue adds (ConvArgs): fp32 NPQK = alpha * conv +
// beta * out (stage 14d), or, fused (stage 14e), fp16 NPQK = [ReLU](alpha * conv + bias[k] +
// [residual]), with the bias in fp32 and the residual an fp16 NPQK tensor.
struct ConvOut {
  float* f32;
  float alpha, beta;
  __half* f16;
  const float* bias;
  const __half* residual;  // nullptr: none
  bool relu;
};

// The fused epilogue of stage 14e on gmma::accumulator's column pairs: sums in fp32, one rounding.
// With K even every pair is whole and its offset even: one 4-byte __half2 store (and load of the
// residual); else element by element.
template <class S>
__device__ __forceinline__ void store_fused_rows(const float (&d)[S::kAccumulators], const ConvOut& out,
                                                 const Shape& sh, int row0, int col0, int thread_in_wg) {
#pragma unroll
  for (int i = 0; i < S::kAccumulators; i += 2) {
    const FragCoord e = gmma::accumulator(thread_in_wg, i);
    const int row = row0 + e.row, col = col0 + e.col;
    if (row >= sh.gemm_m() || col >= sh.k) continue;
    const long long at = output_offset(sh, row, col);
    const bool pair = col + 1 < sh.k;
    float v0 = out.alpha * d[i] + __ldg(out.bias + col);
    float v1 = pair ? out.alpha * d[i + 1] + __ldg(out.bias + col + 1) : 0.f;
    if (sh.k % 2 == 0) {
      if (out.residual) {
        const float2 r = __half22float2(*reinterpret_cast<const __half2*>(out.residual + at));
        v0 += r.x, v1 += r.y;
      }
      if (out.relu) v0 = fmaxf(v0, 0.f), v1 = fmaxf(v1, 0.f);
      *reinterpret_cast<__half2*>(out.f16 + at) = __floats2half2_rn(v0, v1);
    } else {
      if (out.residual) {
        v0 += __half2float(out.residual[at]);
        if (pair) v1 += __half2float(out.residual[at + 1]);
      }
      if (out.relu) v0 = fmaxf(v0, 0.f), v1 = fmaxf(v1, 0.f);
      out.f16[at] = __float2half_rn(v0);
      if (pair) out.f16[at + 1] = __float2half_rn(v1);
    }
  }
}

// The NPQK output: gmma::accumulator's pairs (d[2j], d[2j+1]) are neighbouring columns of a row.
template <class S>
__device__ __forceinline__ void store_output_rows(const float (&d)[S::kAccumulators], float* out, const Shape& sh,
                                                  int row0, int col0, int thread_in_wg, float alpha, float beta) {
#pragma unroll
  for (int i = 0; i < S::kAccumulators; i += 2) {
    const FragCoord e = gmma::accumulator(thread_in_wg, i);
    const int row = row0 + e.row, col = col0 + e.col;
    if (row >= sh.gemm_m()) continue;
    float* o = out + output_offset(sh, row, col);
    float v0 = alpha * d[i], v1 = alpha * d[i + 1];
    if (sh.k % 2 == 0 && col + 1 < sh.k) {
      if (beta != 0.f) v0 += beta * o[0], v1 += beta * o[1];
      *reinterpret_cast<float2*>(o) = make_float2(v0, v1);
    } else {
      if (col < sh.k) o[0] = beta != 0.f ? v0 + beta * o[0] : v0;
      if (col + 1 < sh.k) o[1] = beta != 0.f ? v1 + beta * o[1] : v1;
    }
  }
}

// One float4 of a consumer thread's accumulators into the shared memory of block 0 of the cluster
// (distributed shared memory: the address of the same offset there, then a remote store).
__device__ __forceinline__ void store_to_first_block(float4* local, float4 v) {
#if GEMMLAB_SM90A
  asm volatile(
      "{\n .reg .b32 remote;\n mapa.shared::cluster.u32 remote, %0, 0;\n"
      " st.shared::cluster.v4.f32 [remote], {%1, %2, %3, %4};\n}\n" ::"r"(hopper::smem_u32(local)),
      "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
      : "memory");
#endif
}

// The TMA producer thread's k-tiles of one block job: per k-tile the A box (the tile's pixels
// moved by the tap; where A is the input itself, conv::a_is_matrix, the 2D box of the tile's rows)
// and the B box of the filters, both on the stage's full barrier.
// (A compile-time choice: a run-time branch on it made the im2col layers 2-4 % slower on the H200.)
template <class S, bool kMatrix>
__device__ __forceinline__ void produce_tma_tile(const CUtensorMap& map_filter, const CUtensorMap& map_input,
                                                 const Shape& sh, unsigned char* tiles, uint64_t* full,
                                                 uint64_t* empty, const ConvBlock& job, int& it) {
  const int m0 = job.m_tile * S::kTileM, n0 = job.n_tile * S::kTileN;
  if constexpr (kMatrix) {
    hopper::produce_k_tiles<S>(tiles, full, empty, job.k_begin, job.k_end, it, [&](unsigned char* dst, uint64_t* bar, int t) {
      hopper::tma_load_2d(dst, &map_input, bar, t * S::kTileK, m0);
      hopper::tma_load_2d(dst + S::kABytes, &map_filter, bar, t * S::kTileK, n0);
    });
  } else {
    const Im2colLoad tile = im2col_tile(sh, m0);
    hopper::produce_k_tiles<S>(tiles, full, empty, job.k_begin, job.k_end, it, [&](unsigned char* dst, uint64_t* bar, int t) {
      const Im2colLoad l = im2col_load(sh, tile, t * S::kTileK);
      hopper::tma_load_im2col_4d(dst, &map_input, bar, l.c, l.w0, l.h0, l.n, uint16_t(l.dw), uint16_t(l.dh));
      hopper::tma_load_2d(dst + S::kABytes, &map_filter, bar, t * S::kTileK, n0);
    });
  }
}

// How the producer loads A (and B): the TMA's im2col boxes (conv::im2col_tma_fits; one producer
// thread, B by TMA too), or its 2D boxes of the input as a matrix (conv::a_is_matrix, likewise),
// 16-byte cp.async gathers (GatherA; C % 8 == 0, B by TMA), or element by element (GatherScalar;
// any C, B too).
enum class ALoad { Im2col, Matrix, Gather, Scalar };

// One block of the kernel (the two kernels below: fp32 output, stage 14d; fused fp16, stage 14e).
// work.splits > 1: launched in clusters of `splits` blocks, the k slices of one tile (conv::ConvWork).
template <class S, ALoad kLoad, bool kFused>
__device__ __forceinline__ void conv_wgmma_block(const CUtensorMap& map_filter, const CUtensorMap& map_input,
                                                 const __half* input, const __half* filter, const ConvOut& out,
                                                 const Shape& sh, const ConvWork& work) {
#if GEMMLAB_SM90A
  constexpr bool kIm2col = kLoad == ALoad::Im2col || kLoad == ALoad::Matrix;  // one producer thread, TMA boxes
  constexpr int kS = S::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = hopper::align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * S::kStageBytes);
  uint64_t* empty = full + kS;
  RowOrigin* origins = reinterpret_cast<RowOrigin*>(empty + kS);
  const ConvBlock job = work.block(blockIdx.x);
  const int m0 = job.m_tile * S::kTileM, n0 = job.n_tile * S::kTileN;

  if (threadIdx.x == 0) {
    if constexpr (kLoad != ALoad::Scalar) hopper::tma_prefetch_descriptor(&map_filter);  // (scalar: no map)
    if constexpr (kIm2col) hopper::tma_prefetch_descriptor(&map_input);
    for (int s = 0; s < kS; ++s) {
      // im2col: the producer thread's expect_tx; gathered: 128 cp.async arrivals + the B box's
      // expect_tx; scalar: the 128 producer threads.
      hopper::mbarrier_init(&full[s], kIm2col ? 1 : kLoad == ALoad::Gather ? 128 + 1 : 128);
      hopper::mbarrier_init(&empty[s], 4 * S::kConsumers);
    }
    hopper::fence_barrier_init();
  }
  if constexpr (!kIm2col)
    for (int r = threadIdx.x; r < S::kTileM; r += S::kThreads) origins[r] = tile_row_origin(sh, m0 + r);
  __syncthreads();

  int it = 0;
  if (threadIdx.x < 128) {
    if constexpr (kIm2col) {  // the producer: one thread, an A box and a B box per k-tile
      if (threadIdx.x == 0) {
        produce_tma_tile<S, kLoad == ALoad::Matrix>(map_filter, map_input, sh, tiles, full, empty, job, it);
      }
    } else if constexpr (kLoad == ALoad::Scalar) {  // the producer warpgroup gathers A and B
      const GatherScalar<S> gather(origins, threadIdx.x);
#pragma unroll 1
      for (int t = job.k_begin; t < job.k_end; ++t, ++it) {
        const int stage = it % kS;
        hopper::wait_stage_free<kS>(empty, it);
        gather.issue(input, filter, sh, t, n0, tiles + stage * S::kStageBytes);
        hopper::mbarrier_arrive(&full[stage]);  // release: this thread's st.shared before it
      }
    } else {  // the producer warpgroup gathers A, thread 0 adds the B box
      const GatherA<S> gather(origins, threadIdx.x);
#pragma unroll 1
      for (int t = job.k_begin; t < job.k_end; ++t, ++it) {
        const int stage = it % kS;
        hopper::wait_stage_free<kS>(empty, it);
        unsigned char* dst = tiles + stage * S::kStageBytes;
        if (threadIdx.x == 0) {
          hopper::mbarrier_arrive_expect_tx(&full[stage], S::kBBytes);
          hopper::tma_load_2d(dst + S::kABytes, &map_filter, &full[stage], t * S::kTileK, n0);
        }
        gather.issue(input, sh, t, dst);
        cp_async_mbarrier_arrive(&full[stage]);
      }
      fp16::cp_async_wait<0>();  // leave no copy in flight behind an exited thread
    }
    if (work.splits > 1) hopper::cluster_sync(), hopper::cluster_sync();
    return;
  }

  const bool warp_leader = threadIdx.x % 32 == 0;
  float d[S::kAccumulators] = {};
  hopper::fence_accumulators(d);
  auto release = [&](int stage) {
    if (warp_leader) hopper::mbarrier_arrive(&empty[stage]);
  };
  hopper::consume_k_tiles<S, decltype(release), /*kGenericWrites=*/!kIm2col>(d, hopper::smem_u32(tiles), full,
                                                                            threadIdx.x / 128 - 1, job.k_begin,
                                                                            job.k_end, it, release);
  // The thread's index read afresh: else ptxas hoists the epilogue's per-fragment offsets above the
  // main loop and keeps them live beside the accumulators.
  unsigned thread;
  asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(thread));
  // The tile's k slices meet in block 0 of the cluster, in the stages' shared memory (every slice's
  // main loop is over, so no copy or wgmma touches it any more); every thread of the cluster takes
  // part in both cluster barriers (the producers too, above): the first says the stages are free,
  // the second that the partial sums have landed.
  if (work.splits > 1) {
    // Slice r's float4 j of consumer thread c goes to partials[((r - 1) * kVectors + j) * kConsumerThreads + c].
    constexpr int kVectors = S::kAccumulators / 4, kConsumerThreads = S::kConsumers * 128;
    float4* partials = reinterpret_cast<float4*>(tiles);
    const uint32_t rank = hopper::cluster_rank();
    const int c = int(thread) - 128;
    hopper::cluster_sync();
    if (rank != 0)
#pragma unroll
      for (int j = 0; j < kVectors; ++j)
        store_to_first_block(&partials[((rank - 1) * kVectors + j) * kConsumerThreads + c],
                             make_float4(d[4 * j], d[4 * j + 1], d[4 * j + 2], d[4 * j + 3]));
    hopper::cluster_sync();
    if (rank != 0) return;
#pragma unroll 1
    for (int r = 1; r < work.splits; ++r)
#pragma unroll
      for (int j = 0; j < kVectors; ++j) {
        const float4 p = partials[((r - 1) * kVectors + j) * kConsumerThreads + c];
        d[4 * j] += p.x, d[4 * j + 1] += p.y, d[4 * j + 2] += p.z, d[4 * j + 3] += p.w;
      }
  }
  if constexpr (kFused) {
    // (The stages' address computed again: kept from before the main loop it costs the 64 x 64
    // tile, at 64 registers a thread, a spill.)
    if (fused_vectors_fit(sh, out.f16, out.bias, out.residual))
      store_fused_staged<S>(d, hopper::align_tiles(smem_raw), out.f16, out.bias, out.residual, out.relu, out.alpha, sh, m0, n0, int(thread) - 128);
    else
      store_fused_rows<S>(d, out, sh, m0 + 64 * int(thread / 128 - 1), n0, int(thread % 128));
  } else
    store_output_rows<S>(d, out.f32, sh, m0 + 64 * int(thread / 128 - 1), n0, int(thread % 128), out.alpha, out.beta);
#endif
}

// kMinBlocks: blocks per SM the registers are budgeted for (hopper::ConvWgmmaStage).
template <class S, int kMinBlocks, ALoad kLoad>
__global__ void __launch_bounds__(S::kThreads, kMinBlocks)
    conv_wgmma_kernel(const __grid_constant__ CUtensorMap map_filter, const __grid_constant__ CUtensorMap map_input,
                      const __half* input, const __half* filter, ConvOut out, Shape sh, ConvWork work) {
  conv_wgmma_block<S, kLoad, false>(map_filter, map_input, input, filter, out, sh, work);
}
template <class S, int kMinBlocks, ALoad kLoad>
__global__ void __launch_bounds__(S::kThreads, kMinBlocks)
    conv_wgmma_fused_kernel(const __grid_constant__ CUtensorMap map_filter, const __grid_constant__ CUtensorMap map_input,
                            const __half* input, const __half* filter, ConvOut out, Shape sh, ConvWork work) {
  conv_wgmma_block<S, kLoad, true>(map_filter, map_input, input, filter, out, sh, work);
}

}  // namespace gemmlab::kernels::conv
