// The FP32 SIMT building blocks of stages 5, 6, 11, 13a and 13b (seeds 000 and 002: CUTLASS's SIMT SGEMM,
// ThreadblockShape 128x128x8, WarpShape 32x64x8, 256 threads, 8x8 accumulators per thread).
//
//   global -> registers   TileLoader: PitchLinearStripminedThreadMap from gemmlab/thread_map.h
//                         (the simulator's threadmap view shows exactly these addresses), scalar
//                         predicated loads: any M, N, K; out-of-bounds elements read as 0.
//   registers -> shared   A as As[k][m] (m contiguous, as in global memory), B transposed to
//                         Bs[k][n] with rows padded to 132 floats so the transposing stores are
//                         conflict-free.
//   shared -> registers   WarpFragment: per k, two float4 of A and two float4 of B per thread
//                         (LDS.128), the 8x8 outer product as 2x2 blocks of 4x4.
//   registers -> global   store_tile: alpha * acc + beta * C, predicated, float4 where aligned.
//
// Matrices (stages.def, fp32 track): A m x k column-major (lda = M), B k x n column-major
// (ldb = K), C m x n column-major (ldc = M).
#pragma once
#include <cstdint>

#include "gemmlab/simt_warp_tile.h"
#ifndef __CUDACC_RTC__  // NVRTC (an exercise's GPU grade, kernels/exercise/) builds the kernels alone
#include "stages/fp32/fp32_args.h"
#endif

namespace gemmlab::kernels::simt {

// Tile shape, lane layout, shared-memory layout and thread maps: gemmlab/simt_warp_tile.h, the
// simulator's own description of this block (test_kernel_banks.cpp checks its bank conflicts
// against ncu). Names used below: kTileM/N/K, kThreads, kWarpM/N, kWarpsM, kThreadM/N,
// kLaneTile, kBRow, kLoads, ThreadMaps, SmemStage, smem_a/b, store_a/b, fragment_a/b,
// thread_tile_origin.
using namespace ::gemmlab::simt_tile;

// One thread's share of the k-tile loads, walking down K one tile at a time.
// The partial k-tile (K not a multiple of 8) comes first, as in CUTLASS: load_residue() reads it
// element by element with a k predicate; every later tile is whole and load() needs only the
// fixed row / column predicates. That keeps the loader small: the 8x8 accumulators and two
// fragments already take 96 of the 128 registers that two blocks per SM leave each thread.
template <int kAccess>
struct TileLoader {
  using Maps = ThreadMaps<kAccess>;
  using AMap = typename Maps::A;
  using BMap = typename Maps::B;
  // 32-bit element offsets from the matrix bases (the runner keeps every matrix under 2^31
  // elements): one register each instead of a 64-bit pointer per access.
  const float* A;
  const float* B;
  int a;         // offset of A(m0 + c, k + s): this thread's first element of the k-tile
  int b;         // offset of B(k + c, n0 + s)
  int lda, ldb;  // M and K
  unsigned mask; // bit i: B access i inside N; bit 4: A access inside M
  int a_sts, b_sts;  // the thread's first element in a shared-memory stage (floats)
  PitchCoord ao, bo;

  __device__ __forceinline__ TileLoader(const float* A_, const float* B_, int M, int N, int K,
                                        int m0, int n0, int k_begin) {
    const int t = threadIdx.x;
    ao = AMap::initial_offset(t);  // (c = m, s = k)
    bo = BMap::initial_offset(t);  // (c = k, s = n)
    A = A_, B = B_, lda = M, ldb = K;
    // With kAccess = 4, M % 4 == 0: an access is wholly inside M or wholly outside.
    mask = m0 + ao.c < M ? 16u : 0u;
#pragma unroll
    for (int i = 0; i < Maps::kLoadsB; ++i)
      if (n0 + bo.s + i * BMap::kDeltaS < N) mask |= 1u << i;
    a = (m0 + ao.c) + (k_begin + ao.s) * lda;
    b = (k_begin + bo.c) + (n0 + bo.s) * ldb;
    a_sts = store_a(ao);  // As[k][m]
    b_sts = store_b(bo);  // Bs[k][n]: the transpose happens here
  }

  // A whole k-tile: the s loop of CUTLASS's PredicatedTileIterator::load. `valid` false clears
  // every predicate (CUTLASS's clear_mask() after the last tile): nothing is read, all zeros.
  __device__ __forceinline__ void load(float (&ra)[kLoads], float (&rb)[kLoads],
                                       bool valid = true) const {
    const unsigned m = valid ? mask : 0u;
#pragma unroll
    for (int i = 0; i < Maps::kLoadsA; ++i) {
      const float* p = A + a + i * AMap::kDeltaS * lda;
      if constexpr (kAccess == 4) {
        const float4 v = (m & 16u) ? *reinterpret_cast<const float4*>(p)
                                   : make_float4(0.f, 0.f, 0.f, 0.f);
        ra[0] = v.x, ra[1] = v.y, ra[2] = v.z, ra[3] = v.w;
      } else {
        ra[i] = (m & 16u) ? *p : 0.f;
      }
    }
#pragma unroll
    for (int i = 0; i < Maps::kLoadsB; ++i) {
      const float* p = B + b + i * BMap::kDeltaS * ldb;
      if constexpr (kAccess == 4) {
        const float4 v = (m & 1u) ? *reinterpret_cast<const float4*>(p)
                                  : make_float4(0.f, 0.f, 0.f, 0.f);
        rb[0] = v.x, rb[1] = v.y, rb[2] = v.z, rb[3] = v.w;
      } else {
        rb[i] = (m & (1u << i)) ? *p : 0.f;
      }
    }
  }

  // The first, partial k-tile: only k < residue is real, element by element.
  __device__ __forceinline__ void load_residue(float (&ra)[kLoads], float (&rb)[kLoads],
                                               int residue) const {
#pragma unroll
    for (int i = 0; i < Maps::kLoadsA; ++i)
#pragma unroll
      for (int v = 0; v < kAccess; ++v) {
        const bool ok = (mask & 16u) && ao.s + i * AMap::kDeltaS < residue;
        ra[i * kAccess + v] = ok ? A[a + i * AMap::kDeltaS * lda + v] : 0.f;
      }
#pragma unroll
    for (int i = 0; i < Maps::kLoadsB; ++i)
#pragma unroll
      for (int v = 0; v < kAccess; ++v) {
        const bool ok = (mask & (1u << i)) && bo.c + v < residue;
        rb[i * kAccess + v] = ok ? B[b + i * BMap::kDeltaS * ldb + v] : 0.f;
      }
  }

  __device__ __forceinline__ void advance(int k) {
    a += k * lda;
    b += k;
  }

  __device__ __forceinline__ void store(SmemStage& s, const float (&ra)[kLoads],
                                        const float (&rb)[kLoads]) const {
    float* sa = &s.A[0][0] + a_sts;
    float* sb = &s.B[0][0] + b_sts;
    if constexpr (kAccess == 4) {
      *reinterpret_cast<float4*>(sa) = make_float4(ra[0], ra[1], ra[2], ra[3]);  // STS.128
#pragma unroll
      for (int v = 0; v < 4; ++v) sb[smem_b(v, 0)] = rb[v];  // 4 k values of one n: a column
    } else {
#pragma unroll
      for (int i = 0; i < kLoads; ++i) {
        sa[smem_a(i * AMap::kDeltaS, 0)] = ra[i];
        sb[smem_b(0, i * BMap::kDeltaS)] = rb[i];
      }
    }
  }
};

// k elements in the first k-tile of [k_begin, k_end): the residue, or a whole tile.
__device__ __forceinline__ int first_tile_k(int k_begin, int k_end) {
  const int r = (k_end - k_begin) % kTileK;
  return r ? r : kTileK;
}

// Where this thread's 8x8 accumulators sit in the block tile: rows m + {0..3, 16..19}, columns
// n + {0..3, 32..35} (thread_tile_origin: CUTLASS's RowMajorInterleaved<2> lane layout, so lanes
// T and T^1 read the same B float4, the paired-lane LDS.128 case of hardware_rules.md).
struct ThreadTile : TileCoord {
  __device__ __forceinline__ ThreadTile() : TileCoord(thread_tile_origin(threadIdx.x)) {}
};

struct Fragment {
  float a[kThreadM];
  float b[kThreadN];
};

__device__ __forceinline__ void load_fragment(const SmemStage& s, int k, const ThreadTile& tt,
                                              Fragment& f) {
  *reinterpret_cast<float4*>(&f.a[0]) = *reinterpret_cast<const float4*>(&fragment_a(s, k, tt, 0));
  *reinterpret_cast<float4*>(&f.a[4]) = *reinterpret_cast<const float4*>(&fragment_a(s, k, tt, 1));
  *reinterpret_cast<float4*>(&f.b[0]) = *reinterpret_cast<const float4*>(&fragment_b(s, k, tt, 0));
  *reinterpret_cast<float4*>(&f.b[4]) = *reinterpret_cast<const float4*>(&fragment_b(s, k, tt, 1));
}

__device__ __forceinline__ void outer_product(float (&acc)[kThreadM][kThreadN], const Fragment& f) {
#pragma unroll
  for (int i = 0; i < kThreadM; ++i)
#pragma unroll
    for (int j = 0; j < kThreadN; ++j) acc[i][j] = fmaf(f.a[i], f.b[j], acc[i][j]);
}

__device__ __forceinline__ void clear(float (&acc)[kThreadM][kThreadN]) {
#pragma unroll
  for (int i = 0; i < kThreadM; ++i)
#pragma unroll
    for (int j = 0; j < kThreadN; ++j) acc[i][j] = 0.f;
}

// C(m0.., n0..) = alpha * acc + beta * C for the thread's 8x8 elements. Four consecutive rows of
// one column are contiguous in column-major C: one float4 when M % 4 == 0 (vec_ok) and all four
// are inside M.
__device__ __forceinline__ void store_tile(float* C, int M, int N, int m0, int n0,
                                           const ThreadTile& tt,
                                           const float (&acc)[kThreadM][kThreadN], float alpha,
                                           float beta, bool vec_ok) {
#pragma unroll
  for (int ni = 0; ni < 2; ++ni)
#pragma unroll
    for (int j = 0; j < kLaneTile; ++j) {
      const int n = n0 + tt.n + ni * 32 + j;
      if (n >= N) continue;
#pragma unroll
      for (int mi = 0; mi < 2; ++mi) {
        const int m = m0 + tt.m + mi * 16;
        float* c = C + m + size_t(n) * M;
        const int r = mi * kLaneTile;
        const int col = ni * kLaneTile + j;
        if (vec_ok && m + 3 < M) {
          float4 v = make_float4(alpha * acc[r][col], alpha * acc[r + 1][col],
                                 alpha * acc[r + 2][col], alpha * acc[r + 3][col]);
          if (beta != 0.f) {
            const float4 old = *reinterpret_cast<const float4*>(c);
            v.x += beta * old.x, v.y += beta * old.y, v.z += beta * old.z, v.w += beta * old.w;
          }
          *reinterpret_cast<float4*>(c) = v;
        } else {
#pragma unroll
          for (int i = 0; i < kLaneTile; ++i)
            if (m + i < M) c[i] = beta != 0.f ? alpha * acc[r + i][col] + beta * c[i]
                                              : alpha * acc[r + i][col];
        }
      }
    }
}

// ---------------------------------------------------------------------------------------------
// The MmaPipelined main loop (CUTLASS's device::Gemm): two shared-memory stages and two register fragments.
// While the warps multiply k-tile t out of one stage, the loads of tile t+1 are in flight into
// registers; they go to the other stage at the last k step, and one __syncthreads per tile
// separates the stages. Inside a tile the fragment of step k+1 is read from shared memory
// before the FFMAs of step k, so LDS latency hides behind 64 FFMAs.
// Accumulates k elements [k_begin, k_end) into acc.
template <int kAccess>
__device__ __forceinline__ void mainloop_pipelined(const float* A, const float* B, int M, int N,
                                                   int K, int m0, int n0, int k_begin,
                                                   int k_end, SmemStage (&smem)[2],
                                                   float (&acc)[kThreadM][kThreadN]) {
  if (k_end <= k_begin) return;
  const int tiles = (k_end - k_begin + kTileK - 1) / kTileK;
  TileLoader<kAccess> loader(A, B, M, N, K, m0, n0, k_begin);
  const ThreadTile tt;
  float ra[kLoads], rb[kLoads];

  // Prologue: the first (possibly partial) tile into stage 0, its first fragment into registers.
  const int first_k = first_tile_k(k_begin, k_end);
  loader.load_residue(ra, rb, first_k);
  loader.advance(first_k);
  loader.store(smem[0], ra, rb);
  __syncthreads();
  Fragment frag[2];
  load_fragment(smem[0], 0, tt, frag[0]);
  int read = 0;

  // No branches inside a tile: a guarded load (if (has_next) load ...) lets the compiler sink
  // the global loads into the guarded store at step 7, right before their use, and the warps
  // then wait for global memory at every tile (seen in the SASS). After the last tile the
  // loader reads nothing (all predicates off) and stores zeros that nobody reads.
  for (int tile = 0; tile < tiles; ++tile) {
    const bool has_next = tile + 1 < tiles;
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      if (k == kTileK - 1) {
        loader.store(smem[read ^ 1], ra, rb);  // tile t+1 -> the stage nobody reads any more
        __syncthreads();
        read ^= 1;
      }
      load_fragment(smem[read], (k + 1) % kTileK, tt, frag[(k + 1) % 2]);
      if (k == 0) {
        // The next tile's global loads: their latency hides behind this tile's 8 k steps.
        loader.load(ra, rb, has_next);
        loader.advance(kTileK);
      }
      outer_product(acc, frag[k % 2]);
    }
  }
}

}  // namespace gemmlab::kernels::simt
