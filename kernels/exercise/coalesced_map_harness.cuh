// Exercise 04-thread-maps/coalesced-map on the GPU: stage 5's kernel (stages/fp32/05_simt_tile,
// one shared buffer; the main loop pieces of stages/fp32/fp32_simt.cuh) with the learner's
// thread_map(thread, access) choosing which element of A's k-tile each thread loads. A is
// column-major M x K, so its 128 (m, contiguous) x 8 (k) tile is lesson 4's tile: element
// s * 128 + c is A(m0 + c, k + s), and it lands in As[s][c], where the stage's fragments read it.
// B is loaded as the stage loads it. NVRTC compiles this file with the learner's after it
// (grade_device_gpu.cpp); nothing else includes it.
//
// The loader is the stage's TileLoader<1> with A's part rewritten, not TileLoader with a map
// parameter: the stage steps A by a fixed stride (t + 256 i: k + 2i), the learner's map needs one
// offset per access in registers, which changes every member's A half. A second A path through
// the loader five stages share (and the lessons show) would cost them readability for one grader.
#pragma once
#include "stages/fp32/fp32_simt.cuh"

int thread_map(int thread, int access);  // the learner's: element s * 128 + c of the 128 x 8 tile

namespace gemmlab::kernels::exercise_gpu {

using namespace simt;

// The host grade passed only maps onto 0..1023; anything else that reaches the GPU still loads
// inside the tile: a wrong C, never a fault. For a map that passed, the clamp changes nothing.
__device__ __forceinline__ int learner_element(int thread, int access) {
  const int e = ::thread_map(thread, access);
  return e < 0 ? 0 : (e >= kTileM * kTileK ? kTileM * kTileK - 1 : e);
}

// One thread's share of the k-tile loads, as TileLoader<1> (fp32_simt.cuh) but with A's accesses
// where the learner's map puts them. The offsets are computed once per thread, so the main loop
// adds one register per access where the stage adds an immediate.
struct LearnerTileLoader {
  using BMap = ThreadMaps<1>::B;
  static_assert(ThreadMaps<1>::kLoadsA == kLoads && ThreadMaps<1>::kLoadsB == kLoads);
  const float* A;
  const float* B;
  int a;              // offset of A(m0, k): the tile's first element
  int b;              // offset of B(k + bo.c, n0 + bo.s), as the stage
  int lda, ldb;       // M and K
  int a_off[kLoads];  // A(m0 + c, k + s) - A(m0, k) = c + s * lda of access i
  int a_sts[kLoads];  // s * 128 + c: the element number is also its float in As[s][c]
  unsigned mask;      // bit i: B access i inside N; bit 4 + i: A access i inside M
  int b_sts;
  PitchCoord bo;

  __device__ __forceinline__ LearnerTileLoader(const float* A_, const float* B_, int M, int N, int K, int m0,
                                               int n0, int k_begin) {
    const int t = threadIdx.x;
    bo = BMap::initial_offset(t);
    A = A_, B = B_, lda = M, ldb = K;
    mask = 0;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int e = learner_element(t, i), c = e % kTileM, s = e / kTileM;
      a_off[i] = c + s * lda;
      a_sts[i] = smem_a(s, c);
      if (m0 + c < M) mask |= 16u << i;
      if (n0 + bo.s + i * BMap::kDeltaS < N) mask |= 1u << i;
    }
    a = m0 + k_begin * lda;
    b = (k_begin + bo.c) + (n0 + bo.s) * ldb;
    b_sts = store_b(bo);
  }

  __device__ __forceinline__ void load(float (&ra)[kLoads], float (&rb)[kLoads]) const {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      ra[i] = (mask & (16u << i)) ? A[a + a_off[i]] : 0.f;
      rb[i] = (mask & (1u << i)) ? B[b + i * BMap::kDeltaS * ldb] : 0.f;
    }
  }

  // The first, partial k-tile: only k < residue is real (A's s, B's c).
  __device__ __forceinline__ void load_residue(float (&ra)[kLoads], float (&rb)[kLoads], int residue) const {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      ra[i] = (mask & (16u << i)) && a_sts[i] < residue * kTileM ? A[a + a_off[i]] : 0.f;
      rb[i] = (mask & (1u << i)) && bo.c < residue ? B[b + i * BMap::kDeltaS * ldb] : 0.f;
    }
  }

  __device__ __forceinline__ void advance(int k) {
    a += k * lda;
    b += k;
  }

  __device__ __forceinline__ void store(SmemStage& s, const float (&ra)[kLoads], const float (&rb)[kLoads]) const {
    float* sb = &s.B[0][0] + b_sts;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      (&s.A[0][0])[a_sts[i]] = ra[i];
      sb[smem_b(0, i * BMap::kDeltaS)] = rb[i];
    }
  }
};

// Stage 5's kernel (05_simt_tile/simt_tile.cu) with the learner's loader.
__global__ void __launch_bounds__(kThreads, 2)
    coalesced_map_kernel(int M, int N, int K, float alpha, const float* __restrict__ A, const float* __restrict__ B,
                         float beta, float* __restrict__ C, bool vec_ok) {
  __shared__ SmemStage smem;
  const int m0 = blockIdx.x * kTileM, n0 = blockIdx.y * kTileN;
  LearnerTileLoader loader(A, B, M, N, K, m0, n0, 0);
  const ThreadTile tt;
  float acc[kThreadM][kThreadN];
  clear(acc);
  float ra[kLoads], rb[kLoads];
  for (int k0 = 0, step = first_tile_k(0, K); k0 < K; k0 += step, step = kTileK) {
    if (k0 == 0) loader.load_residue(ra, rb, step);
    else loader.load(ra, rb);
    loader.advance(step);
    __syncthreads();  // everyone is done reading the previous tile
    loader.store(smem, ra, rb);
    __syncthreads();  // the tile is complete
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      Fragment f;
      load_fragment(smem, k, tt, f);
      outer_product(acc, f);
    }
  }
  store_tile(C, M, N, m0, n0, tt, acc, alpha, beta, vec_ok);
}

}  // namespace gemmlab::kernels::exercise_gpu
