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
using AThreadMap = PitchLinearStripminedThreadMap<kTileM, kTileK, kThreads>;
using BThreadMap = PitchLinearStripminedThreadMap<kTileK, kTileN, kThreads>;
// (128,8), 256 threads -> Iterations (1,4), Delta (1,2): thread t loads m = t%128, k = t/128 + 2i.
static_assert(AThreadMap::kIterationsC == 1 && AThreadMap::kIterationsS == 4 &&
              AThreadMap::kDeltaS == 2);
// (8,128), 256 threads -> Iterations (1,4), Delta (1,32): k = t%8, n = t/8 + 32i.
static_assert(BThreadMap::kIterationsC == 1 && BThreadMap::kIterationsS == 4 &&
              BThreadMap::kDeltaS == 32);
constexpr int kLoads = AThreadMap::kIterationsS;  // 4 A and 4 B elements per thread per k-tile

struct SmemStage {
  float A[kTileK][kTileM];  // As[k][m]
  float B[kTileK][kBRow];   // Bs[k][n], padded
};

// One thread's share of the k-tile loads, walking down K one tile at a time. Kept small: the
// 8x8 accumulators and two fragments already take 96 of the 128 registers that two blocks per
// SM leave each thread.
struct TileLoader {
  // 32-bit element offsets from the matrix bases (the runner keeps every matrix under 2^31
  // elements): one register each, where 64-bit pointers per access would take eight.
  const float* A;
  const float* B;
  int a;             // offset of A(m0 + c, k + s): this thread's first element of the k-tile
  int b;             // offset of B(k + c, n0 + s)
  int lda;           // M: elements between columns of A (and between k rows of the A tile)
  int ldb;           // K: elements between columns of B
  int a_k_left;      // k_end - (k of the thread's first A element); loads past k_end read 0
  int b_k_left;
  unsigned mask;     // bit i: B column n0 + s + 32i inside N; bit 4: A row m0 + c inside M
  int a_sts, b_sts;  // where this thread's first element goes in the shared-memory stage

  __device__ __forceinline__ TileLoader(const float* A, const float* B, int M, int N, int K,
                                        int m0, int n0, int k_begin, int k_end) {
    const int t = threadIdx.x;
    const PitchCoord ao = AThreadMap::initial_offset(t);  // (c = m, s = k)
    const PitchCoord bo = BThreadMap::initial_offset(t);  // (c = k, s = n)
    lda = M, ldb = K;
    a_k_left = k_end - (k_begin + ao.s);
    b_k_left = k_end - (k_begin + bo.c);
    mask = m0 + ao.c < M ? 16u : 0u;
#pragma unroll
    for (int i = 0; i < kLoads; ++i)
      if (n0 + bo.s + i * BThreadMap::kDeltaS < N) mask |= 1u << i;
    this->A = A, this->B = B;
    a = (m0 + ao.c) + (k_begin + ao.s) * lda;
    b = (k_begin + bo.c) + (n0 + bo.s) * ldb;
    a_sts = ao.s * kTileM + ao.c;  // As[k][m]
    b_sts = bo.c * kBRow + bo.s;   // Bs[k][n]: the transpose happens here
  }

  // The s loop of CUTLASS's PredicatedTileIterator::load (one access per iteration, c = v = 0).
  __device__ __forceinline__ void load(float (&ra)[kLoads], float (&rb)[kLoads]) const {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const bool a_ok = (mask & 16u) && i * AThreadMap::kDeltaS < a_k_left;
      ra[i] = a_ok ? A[a + i * AThreadMap::kDeltaS * lda] : 0.f;
      const bool b_ok = (mask & (1u << i)) && 0 < b_k_left;
      rb[i] = b_ok ? B[b + i * BThreadMap::kDeltaS * ldb] : 0.f;
    }
  }

  __device__ __forceinline__ void advance() {
    a += kTileK * lda;
    b += kTileK;
    a_k_left -= kTileK;
    b_k_left -= kTileK;
  }

  __device__ __forceinline__ void store(SmemStage& s, const float (&ra)[kLoads],
                                        const float (&rb)[kLoads]) const {
    float* sa = &s.A[0][0] + a_sts;
    float* sb = &s.B[0][0] + b_sts;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      sa[i * AThreadMap::kDeltaS * kTileM] = ra[i];
      sb[i * BThreadMap::kDeltaS] = rb[i];
    }
  }
};

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
// Accumulates k elements [k_begin, k_end) (k_begin a multiple of 8) into acc.
__device__ __forceinline__ void mainloop_pipelined(const float* A, const float* B, int M, int N,
                                                   int K, int m0, int n0, int k_begin,
                                                   int k_end, SmemStage (&smem)[2],
                                                   float (&acc)[kThreadM][kThreadN]) {
  const int tiles = k_end > k_begin ? (k_end - k_begin + kTileK - 1) / kTileK : 0;
  if (tiles == 0) return;
  TileLoader loader(A, B, M, N, K, m0, n0, k_begin, k_end);
  const ThreadTile tt;
  float ra[kLoads], rb[kLoads];

  // Prologue: tile 0 into stage 0, its first fragment into registers.
  loader.load(ra, rb);
  loader.advance();
  loader.store(smem[0], ra, rb);
  __syncthreads();
  Fragment frag[2];
  load_fragment(smem[0], 0, tt, frag[0]);
  int read = 0;

  for (int tile = 0; tile < tiles; ++tile) {
    const bool has_next = tile + 1 < tiles;
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      if (k == kTileK - 1) {
        // Tile t+1 (in registers since k == 0) goes to the stage nobody reads any more.
        if (has_next) loader.store(smem[read ^ 1], ra, rb);
        __syncthreads();
        read ^= 1;
      }
      if (k < kTileK - 1 || has_next)
        load_fragment(smem[read], (k + 1) % kTileK, tt, frag[(k + 1) % 2]);
      if (k == 0 && has_next) {
        loader.load(ra, rb);
        loader.advance();
      }
      outer_product(acc, frag[k % 2]);
    }
  }
}

}  // namespace gemmlab::kernels::simt
