// Stage 7's kernel, which stages 8 and 9 reuse: one 128x128xkTileK block tile, 8 warps of 64x32,
// one shared buffer filled through registers, mma.sync m16n8k16, and the fragments read with plain
// 32-bit shared loads (FragmentLoads<Lds32> below). What the later stages change:
//   8 ldmatrix     FragmentLoads<Ldmatrix>, in ldmatrix_fragments.cuh
//   9 smem-swizzle the shared layout: SmemOperandLayout<kTileK, true> (Swizzle<3,3,3>, in
//                  gemmlab/fp16_smem_tile.h, the function the simulator draws)
#pragma once
#include <cuda_fp16.h>

#include "stages/fp16/fp16_problem.cuh"
#include "gemmlab/fp16_shapes.h"
#include "stages/fp16/fp16_tile_copy.cuh"
#include "stages/fp16/fp16_warp_tile.cuh"
#ifndef __CUDACC_RTC__  // NVRTC (an exercise's GPU grade, kernels/exercise/) builds the kernel alone
#include "stage_api.h"
#endif

namespace gemmlab::kernels::fp16 {

// FragmentLoad, SyncTileShape and each stage's choice of them: fp16_shapes.h.

// How a warp reads its A and B fragments of one k16 step from the shared tiles. Each stage that
// brings a new way specialises it in its own file; the kernel only calls load().
template <FragmentLoad kLoad, class Layout, int kTileK>
struct FragmentLoads;

// Stage 7: plain 32-bit shared loads. Register r of the A fragment holds a_{2r} and a_{2r+1},
// two neighbours along k, so one LDS.32 at a_{2r}'s (row, col) fills it; likewise for B, whose
// tile is stored n-major (the element (k, n) lives at row n, column k). 4 + 2 loads per mma tile.
template <class Layout, int kTileK>
struct FragmentLoads<FragmentLoad::Lds32, Layout, kTileK> {
  int warp_m, warp_n, lane;
  __device__ __forceinline__ FragmentLoads(int warp_m_, int warp_n_, int lane_)
      : warp_m(warp_m_), warp_n(warp_n_), lane(lane_) {}

  template <int kWarpM, int kWarpN>
  __device__ __forceinline__ void load(WarpTile<kWarpM, kWarpN>& f, const __half* sA, const __half* sB,
                                       int kk) const {
    using Tile = WarpTile<kWarpM, kWarpN>;
#pragma unroll
    for (int mi = 0; mi < Tile::kMmaM; ++mi)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        f.a[mi][r] = *reinterpret_cast<const uint32_t*>(
            sA + lds32_a_offset<Layout>(warp_m, mi, kk, lane, r));
      }
#pragma unroll
    for (int ni = 0; ni < Tile::kMmaN; ++ni)
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        f.b[ni][r] = *reinterpret_cast<const uint32_t*>(
            sB + lds32_b_offset<Layout>(warp_n, ni, kk, lane, r));
      }
  }
};

// Two blocks per SM (at most 128 registers) on the fast path; the scalar fallback, which needs
// more registers for its 2-byte loads, is left one block so that it does not spill.
// Layout: the shared layout's offset(row, k); an exercise passes the learner's function here.
template <class S, FragmentLoad kLoad, bool kSwizzled, bool kVectorized,
          class Layout = SmemOperandLayout<S::kTileK, kSwizzled>>
__global__ void __launch_bounds__(S::kThreads, kVectorized ? 2 : 1)
    sync_tile_kernel(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                     float beta) {
  using CopyA = OperandTileCopy<S::kTileM, S::kTileK, S::kThreads, kSwizzled, kVectorized, Layout>;
  using CopyB = OperandTileCopy<S::kTileN, S::kTileK, S::kThreads, kSwizzled, kVectorized, Layout>;
  __shared__ __align__(128) __half sA[S::kTileM * S::kTileK];  // 8 KB for kTileK 32
  __shared__ __align__(128) __half sB[S::kTileN * S::kTileK];

  const int thread = threadIdx.x, warp = thread / 32, lane = thread % 32;
  const int m0 = blockIdx.x * S::kTileM, n0 = blockIdx.y * S::kTileN;
  const int warp_m = (warp / S::kWarpsN) * S::kWarpM, warp_n = (warp % S::kWarpsN) * S::kWarpN;

  const CopyA copy_a(A, m0, M, K, thread);
  const CopyB copy_b(B, n0, N, K, thread);
  uint4 staged_a[CopyA::kAccesses], staged_b[CopyB::kAccesses];

  float acc[S::kWarpM / 16][S::kWarpN / 8][4] = {};
  WarpTile<S::kWarpM, S::kWarpN> frag;
  const FragmentLoads<kLoad, Layout, S::kTileK> fragments(warp_m, warp_n, lane);

  const int k_tiles = tiles_of(K, S::kTileK);
  for (int t = 0; t < k_tiles; ++t) {
    const int k0 = t * S::kTileK;
    copy_a.fetch(staged_a, k0);  // global loads in flight while the barrier waits
    copy_b.fetch(staged_b, k0);
    __syncthreads();  // every warp is done reading the previous tile
    copy_a.store(staged_a, sA);
    copy_b.store(staged_b, sB);
    __syncthreads();  // the tile is complete
#pragma unroll
    for (int kk = 0; kk < S::kTileK; kk += 16) {
      fragments.load(frag, sA, sB, kk);
      warp_mma<false>(acc, frag);
    }
  }
  store_accumulators_direct<S::kWarpM, S::kWarpN>(acc, C, M, N, m0 + warp_m, n0 + warp_n, lane,
                                                  alpha, beta);
}

#ifndef __CUDACC_RTC__
// Host side shared by the three stages: grid (m tiles, n tiles), 16-byte loads when the rows
// allow them, the scalar form otherwise.
template <class S, FragmentLoad kLoad, bool kSwizzled>
cudaError_t launch_sync_tile(const GemmArgs& args) {
  if (check_grid_m_by_n_128(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  const dim3 grid((args.m + S::kTileM - 1) / S::kTileM, (args.n + S::kTileN - 1) / S::kTileN);
  const auto* A = static_cast<const __half*>(args.A);
  const auto* B = static_cast<const __half*>(args.B);
  if (rows_16_byte_aligned(A, B, args.k))
    sync_tile_kernel<S, kLoad, kSwizzled, true><<<grid, S::kThreads, 0, args.stream>>>(
        A, B, args.C, args.m, args.n, args.k, args.alpha, args.beta);
  else
    sync_tile_kernel<S, kLoad, kSwizzled, false><<<grid, S::kThreads, 0, args.stream>>>(
        A, B, args.C, args.m, args.n, args.k, args.alpha, args.beta);
  return cudaGetLastError();
}
#endif  // __CUDACC_RTC__

}  // namespace gemmlab::kernels::fp16
