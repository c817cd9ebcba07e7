// Global -> shared copies of the FP16 operand tiles, and the shared-memory layouts they land in.
//
// Both operands are K-contiguous ("TN"): A is row-major m x k (lda = k) and B is column-major
// k x n (ldb = k), so a block's A tile (kRows = TM rows of m) and B tile (kRows = TN rows of n)
// are the same shape of problem: kRows rows of kTileK halves, row r starting at base + r * k.
// Which thread moves which 16-byte vector is CUTLASS's PitchLinearWarpRakedThreadMap from
// gemmlab/thread_map.h (contiguous = k, strided = rows), the same function the simulator lists:
//   (32 halves, 128 rows), 256 threads, warp 4x8, 8 halves/access -> Iterations (1,2), Delta (32,8)
//   (32 halves, 256 rows), 256 threads, warp 4x8, 8 halves/access -> Iterations (1,4), Delta (32,8)
//
// Predication (CUTLASS 00_basic_gemm's predicated loads): a vector whose row is past the matrix, or whose k is
// past K, is zero in shared memory, so partial tiles need no special case in the math.
// The fast form reads 16 bytes at once; that needs every row start 16-byte aligned, i.e. K % 8 == 0
// and 16-byte aligned A and B. Other problems take the scalar form (8 predicated 2-byte loads per
// vector), which is correct for any K and slow.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "stages/fp16/fp16_ptx.cuh"
#include "gemmlab/fp16_smem_tile.h"

namespace gemmlab::kernels::fp16 {

// The tile layout (SmemOperandLayout: row-major, optionally Swizzle<3,3,3>), the thread map
// (OperandThreadMap) and tile_store_offset are the simulator's: gemmlab/fp16_smem_tile.h.
using namespace ::gemmlab::fp16_tile;

__device__ __forceinline__ uint32_t pack_half2(__half lo, __half hi) {
  return static_cast<uint32_t>(__half_as_ushort(lo)) |
         (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}

// The 8 halves at first[0 .. 7], the vector that starts at column k of its row; each element
// past K (or the whole vector when !row_ok) is zero and is not read.
template <bool kVectorized>
__device__ __forceinline__ uint4 load_vector(const __half* first, int k, int K, bool row_ok) {
  if constexpr (kVectorized) {
    // K % 8 == 0: the vector is wholly inside or wholly past K.
    if (row_ok && k < K) return __ldg(reinterpret_cast<const uint4*>(first));
    return make_uint4(0, 0, 0, 0);
  } else {
    __half h[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) h[j] = (row_ok && k + j < K) ? first[j] : __float2half(0.f);
    return make_uint4(pack_half2(h[0], h[1]), pack_half2(h[2], h[3]), pack_half2(h[4], h[5]),
                      pack_half2(h[6], h[7]));
  }
}

// One thread's share of an operand tile: where its vectors come from and where they go.
template <int kRows, int kTileK, int kThreads, bool kSwizzled, bool kVectorized,
          class SharedLayout = SmemOperandLayout<kTileK, kSwizzled>>
struct OperandTileCopy {
  using ThreadMap = OperandThreadMap<kRows, kTileK, kThreads>;
  using Layout = SharedLayout;
  static constexpr int kAccesses = ThreadMap::kAccesses;
  static constexpr bool kVectorizedLoads = kVectorized;

  const __half* operand;
  size_t first_element;  // operand index of (this thread's first row, its k within the tile)
  int rows_left;         // rows from this thread's first row to the end of the matrix
  int row_in_tile;       // this thread's first row inside the tile
  int k_in_tile;
  int K;

  // operand: A or B; first_row: the block's first m (A) or n (B); rows: M or N.
  __device__ __forceinline__ OperandTileCopy(const __half* operand_, int first_row, int rows, int k,
                                             int thread) {
    const PitchCoord start = ThreadMap::Map::initial_offset(thread);
    operand = operand_;
    row_in_tile = start.s;
    k_in_tile = start.c;
    K = k;
    rows_left = rows - (first_row + start.s);
    first_element = static_cast<size_t>(first_row + start.s) * static_cast<size_t>(k) + start.c;
  }

  __device__ __forceinline__ bool row_ok(int i) const { return i * ThreadMap::kRowStep < rows_left; }
  // Start of access i's row (at the thread's k within the tile); the matrix start when the row
  // is past the end, so no out-of-range pointer is ever formed.
  __device__ __forceinline__ const __half* source(int i) const {
    return operand + (row_ok(i) ? first_element + static_cast<size_t>(i) * ThreadMap::kRowStep *
                                                      static_cast<size_t>(K)
                                : 0);
  }
  __device__ __forceinline__ int smem_offset(int i) const {
    return tile_store_offset<Layout, ThreadMap>(PitchCoord{k_in_tile, row_in_tile}, i);
  }

  // Register-staged copy (stages 7-9): fetch the tile at k0 into registers, later store them.
  // (Stage 10's copy without registers, cp.async, is in fp16_mainloop.cuh.)
  __device__ __forceinline__ void fetch(uint4 (&staged)[kAccesses], int k0) const {
#pragma unroll
    for (int i = 0; i < kAccesses; ++i)
      staged[i] = load_vector<kVectorized>(source(i) + k0, k0 + k_in_tile, K, row_ok(i));
  }
  __device__ __forceinline__ void store(const uint4 (&staged)[kAccesses], __half* tile) const {
#pragma unroll
    for (int i = 0; i < kAccesses; ++i)
      *reinterpret_cast<uint4*>(tile + smem_offset(i)) = staged[i];
  }
};

}  // namespace gemmlab::kernels::fp16
