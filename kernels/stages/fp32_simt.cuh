// The FP32 SIMT building blocks of stages 3-7 (seeds 000 and 002: CUTLASS's SIMT SGEMM,
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

#include "gemmlab/thread_map.h"
#include "stage_api.h"

namespace gemmlab::kernels::simt {

constexpr int kTileM = 128, kTileN = 128, kTileK = 8;
constexpr int kThreads = 256;
constexpr int kWarpM = 32, kWarpN = 64;                       // warp tile
constexpr int kWarpsM = kTileM / kWarpM;                       // 4 warps along m
constexpr int kWarpsN = kTileN / kWarpN;                       // 2 warps along n
static_assert(kWarpsM * kWarpsN * 32 == kThreads);
constexpr int kLanesM = 4, kLanesN = 8;                        // MmaSimtPolicy WarpShape<4,8>
constexpr int kLaneTile = 4;                                   // LaneMmaShape<4,4>
constexpr int kThreadM = 2 * kLaneTile, kThreadN = 2 * kLaneTile;  // 8x8 = 2x2 blocks of 4x4
static_assert(kLanesM * kThreadM == kWarpM && kLanesN * kThreadN == kWarpN);
constexpr int kBRowPad = 4;                                    // Bs row: 128 + 4 floats
constexpr int kBRow = kTileN + kBRowPad;

// A tile: 128 (m, contiguous in global) x 8 (k, strided); B tile: 8 (k, contiguous) x 128 (n).
// kAccess = elements per access (CUTLASS kElementsPerAccess): 1 (any M, K) or 4 (128-bit
// loads, when M % 4 == 0, K % 4 == 0 and A, B are 16-byte aligned).
template <int kAccess>
struct ThreadMaps {
  using A = PitchLinearStripminedThreadMap<kTileM, kTileK, kThreads, kAccess>;
  using B = PitchLinearStripminedThreadMap<kTileK, kTileN, kThreads, kAccess>;
  static constexpr int kLoadsA = A::kIterationsC * A::kIterationsS;  // accesses per thread
  static constexpr int kLoadsB = B::kIterationsC * B::kIterationsS;
  static_assert(A::kIterationsC == 1 && B::kIterationsC == 1);
};
// (128,8), 256 threads, scalar -> Iterations (1,4), Delta (1,2): thread t loads m = t%128,
// k = t/128 + 2i. (8,128) -> Iterations (1,4), Delta (1,32): k = t%8, n = t/8 + 32i.
static_assert(ThreadMaps<1>::A::kIterationsS == 4 && ThreadMaps<1>::A::kDeltaS == 2);
static_assert(ThreadMaps<1>::B::kIterationsS == 4 && ThreadMaps<1>::B::kDeltaS == 32);
// 4-wide -> A: Iterations (1,1), thread t loads m = 4(t%32) .. +3, k = t/32; B: Iterations
// (1,1), k = 4(t%2) .. +3, n = t/2. One LDG.128 each instead of four LDG.32.
static_assert(ThreadMaps<4>::A::kIterationsS == 1 && ThreadMaps<4>::B::kIterationsS == 1);
constexpr int kLoads = 4;  // elements of A (and of B) per thread per k-tile, either width

struct SmemStage {
  float A[kTileK][kTileM];  // As[k][m]
  float B[kTileK][kBRow];   // Bs[k][n], padded
};

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
    a_sts = ao.s * kTileM + ao.c;  // As[k][m]
    b_sts = bo.c * kBRow + bo.s;   // Bs[k][n]: the transpose happens here
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
      for (int v = 0; v < 4; ++v) sb[v * kBRow] = rb[v];  // 4 k values of one n: a column
    } else {
#pragma unroll
      for (int i = 0; i < kLoads; ++i) {
        sa[i * AMap::kDeltaS * kTileM] = ra[i];
        sb[i * BMap::kDeltaS] = rb[i];
      }
    }
  }
};

// k elements in the first k-tile of [k_begin, k_end): the residue, or a whole tile.
__device__ __forceinline__ int first_tile_k(int k_begin, int k_end) {
  const int r = (k_end - k_begin) % kTileK;
  return r ? r : kTileK;
}

// Where this thread's 8x8 accumulators sit in the block tile. Lanes form a 4x8 grid in CUTLASS's
// RowMajorInterleaved<2> order (lane -> row (lane/16)*2 + lane%2, column (lane%16)/2), so lanes
// T and T^1 read the same B float4 (the paired-lane LDS.128 case of hardware_rules.md).
struct ThreadTile {
  int m, n;  // first row / column inside the block tile; rows m + {0..3, 16..19}, same for n + 32
  __device__ __forceinline__ ThreadTile() {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_m = warp % kWarpsM, warp_n = warp / kWarpsM;
    const int lane_m = (lane / 16) * 2 + lane % 2, lane_n = (lane % 16) / 2;
    m = warp_m * kWarpM + lane_m * kLaneTile;
    n = warp_n * kWarpN + lane_n * kLaneTile;
  }
};

struct Fragment {
  float a[kThreadM];
  float b[kThreadN];
};

__device__ __forceinline__ void load_fragment(const SmemStage& s, int k, const ThreadTile& tt,
                                              Fragment& f) {
  *reinterpret_cast<float4*>(&f.a[0]) = *reinterpret_cast<const float4*>(&s.A[k][tt.m]);
  *reinterpret_cast<float4*>(&f.a[4]) = *reinterpret_cast<const float4*>(&s.A[k][tt.m + 16]);
  *reinterpret_cast<float4*>(&f.b[0]) = *reinterpret_cast<const float4*>(&s.B[k][tt.n]);
  *reinterpret_cast<float4*>(&f.b[4]) = *reinterpret_cast<const float4*>(&s.B[k][tt.n + 32]);
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

// float4 stores need M % 4 == 0 and a 16-byte aligned C.
inline bool c_vector_ok(const GemmArgs& a) {
  return a.m % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.C) % 16 == 0;
}

// ---------------------------------------------------------------------------------------------
// The MmaPipelined main loop (seed 002): two shared-memory stages and two register fragments.
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

// 128-bit global loads need M and K multiples of 4 and 16-byte aligned A and B.
inline bool ab_vector_ok(const GemmArgs& a) {
  return a.m % 4 == 0 && a.k % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.A) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(a.B) % 16 == 0;
}

}  // namespace gemmlab::kernels::simt
