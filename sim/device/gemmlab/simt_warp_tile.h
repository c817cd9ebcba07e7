// The FP32 SIMT threadblock of stages 5, 6, 11, 13a, 13b (seeds 000 and 002: CUTLASS's SIMT SGEMM,
// ThreadblockShape 128x128x8, WarpShape 32x64x8, 256 threads, MmaSimtPolicy<WarpShape<4,8>,
// RowMajorInterleaved<2>, LaneMmaShape<4,4>>): where each thread's 8x8 accumulators sit in the
// block tile, where its global->shared stores land and where its shared->register fragment loads
// read. kernels/stages/fp32/fp32_simt.cuh calls exactly these functions, and
// sim/tests/test_kernel_banks.cpp feeds their addresses to the bank model.
//
//   lane 5 -> lane grid (m 1, n 2); thread 37 (warp 1, lane 5) -> C rows 36.., columns 8..
//   (rows m + {0..3, 16..19}, columns n + {0..3, 32..35}: 2x2 blocks of LaneMmaShape 4x4)
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/thread_map.h"

namespace gemmlab::simt_tile {

inline constexpr int kTileM = 128, kTileN = 128, kTileK = 8;
inline constexpr int kThreads = 256;
// Stage 11's block raster: GemmIdentityThreadblockSwizzle<8> (the registry and the kernel read it).
inline constexpr int kBlockSwizzleN = 8;
// Stage 13b's shared Position (two ints) beside its two buffers: its registry row adds these bytes.
inline constexpr int kStreamKPositionBytes = 8;
inline constexpr int kWarpM = 32, kWarpN = 64;          // warp tile
inline constexpr int kWarpsM = kTileM / kWarpM;          // 4 warps along m
inline constexpr int kWarpsN = kTileN / kWarpN;          // 2 warps along n
static_assert(kWarpsM * kWarpsN * 32 == kThreads);
inline constexpr int kLanesM = 4, kLanesN = 8;           // MmaSimtPolicy WarpShape<4,8>
inline constexpr int kLaneTile = 4;                      // LaneMmaShape<4,4>
inline constexpr int kThreadM = 2 * kLaneTile, kThreadN = 2 * kLaneTile;  // 8x8 = 2x2 blocks of 4x4
static_assert(kLanesM * kThreadM == kWarpM && kLanesN * kThreadN == kWarpN);
// The lane grid repeats every kLanesM * kLaneTile = 16 rows and kLanesN * kLaneTile = 32 columns.
inline constexpr int kRepeatM = kLanesM * kLaneTile, kRepeatN = kLanesN * kLaneTile;

// Shared memory, one stage: A as As[k][m] (m contiguous, as A is in global memory); B transposed
// to Bs[k][n] with rows padded to 128 + 4 floats, so that the transposing stores (8 k rows x 4 n
// per warp) hit 32 different banks: row k starts at bank 4k.
inline constexpr int kBRowPad = 4;
inline constexpr int kBRow = kTileN + kBRowPad;  // 132 floats = 528 bytes, a multiple of 16
struct SmemStage {
  float A[kTileK][kTileM];  // As[k][m], 4096 bytes
  float B[kTileK][kBRow];   // Bs[k][n], 4224 bytes, padded
};
static_assert(sizeof(SmemStage) == 8320);  // ptxas: simt-tile 8320 bytes smem, double buffer 16640

// Offsets in floats from &A[0][0] / &B[0][0] of one stage.
GL_HD constexpr int smem_a(int k, int m) { return k * kTileM + m; }
GL_HD constexpr int smem_b(int k, int n) { return k * kBRow + n; }

struct TileCoord {
  int m = 0;
  int n = 0;
  GL_HD constexpr bool operator==(const TileCoord& o) const { return m == o.m && n == o.n; }
};

// CUTLASS RowMajorInterleaved<2> over the 4x8 lane grid: lane -> row (lane/16)*2 + lane%2,
// column (lane%16)/2. Lanes T and T^1 share a column (they read the same B float4); lanes T and
// T^2 share a row (the same A float4): the paired-lane LDS.128 cases of hardware_rules.md.
GL_HD constexpr TileCoord lane_in_warp(int lane) {
  return {(lane / 16) * 2 + lane % 2, (lane % 16) / 2};
}

// First row / column of the thread's 8x8 accumulators inside the block tile. Warps are laid out
// m-fastest: warp w at warp-tile (w % 4, w / 4); inside the warp, lane_in_warp's grid (written
// out again, not called: that way nvcc emits exactly the code the kernels had before this
// header; lane_layout_consistent() checks both forms agree). thread is unsigned, as threadIdx.x.
GL_HD constexpr TileCoord thread_tile_origin(unsigned thread) {
  const int warp = thread / 32, lane = thread % 32;
  const int warp_m = warp % kWarpsM, warp_n = warp / kWarpsM;
  const int lane_m = (lane / 16) * 2 + lane % 2, lane_n = (lane % 16) / 2;
  TileCoord t;
  t.m = warp_m * kWarpM + lane_m * kLaneTile;
  t.n = warp_n * kWarpN + lane_n * kLaneTile;
  return t;
}

constexpr bool lane_layout_consistent() {
  for (unsigned t = 0; t < kThreads; ++t) {
    const TileCoord l = lane_in_warp(int(t % 32));
    const TileCoord o = thread_tile_origin(t);
    const int warp = int(t / 32);
    if (o.m != (warp % kWarpsM) * kWarpM + l.m * kLaneTile ||
        o.n != (warp / kWarpsM) * kWarpN + l.n * kLaneTile)
      return false;
  }
  return true;
}
static_assert(lane_layout_consistent());

// The first floats of the four LDS.128 of k step k: A rows origin.m + 16 i and B columns
// origin.n + 32 j (i, j = 0, 1), four floats each. (References into the stage, not offsets: the
// kernel indexes the 2-D arrays as it always did, which keeps its code bit-identical.)
GL_HD constexpr const float& fragment_a(const SmemStage& s, int k, TileCoord origin, int i) {
  return s.A[k][origin.m + i * kRepeatM];
}
GL_HD constexpr const float& fragment_b(const SmemStage& s, int k, TileCoord origin, int j) {
  return s.B[k][origin.n + j * kRepeatN];
}

// Global -> shared: CUTLASS's PitchLinearStripminedThreadMap on A (128 m contiguous x 8 k) and
// B (8 k contiguous x 128 n). kAccess = elements per access: 1 (any M, K) or 4 (128-bit loads,
// when M % 4 == 0, K % 4 == 0 and A, B are 16-byte aligned).
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
inline constexpr int kLoads = 4;  // elements of A (and of B) per thread per k-tile, either width

// Where a thread map element lands: A (c = m, s = k) -> As[k][m]; B (c = k, s = n) -> Bs[k][n],
// the transpose. The stores of later accesses add smem_a(i * Delta.s, 0), smem_b(0, i * Delta.s)
// (scalar) or smem_b(v, 0) (the 4 k of one 128-bit B access, a column of Bs).
GL_HD constexpr int store_a(PitchCoord a) { return smem_a(a.s, a.c); }
GL_HD constexpr int store_b(PitchCoord b) { return smem_b(b.c, b.s); }

static_assert(lane_in_warp(5) == TileCoord{1, 2});
static_assert(thread_tile_origin(37) == TileCoord{36, 8});
static_assert(thread_tile_origin(255) == TileCoord{96 + 12, 64 + 28});  // warp 7, lane 31

}  // namespace gemmlab::simt_tile
