// Stage 14e's epilogue: fp16 NPQK = [ReLU](alpha * conv + bias[k] [+ residual]), through shared
// memory so that every global access is a whole 16-byte vector of one output row.
//
// Straight from the accumulators (store_fused_rows in ../14d_conv_wgmma/conv_wgmma.cuh) a warp's
// pair of fp16 outputs is 4 bytes, 8 rows x 16 bytes per instruction: half of every 32-byte sector
// it touches, for the residual's reads as for the stores, and each residual load waited for before
// the next pair (the residual may alias nothing, but the compiler cannot know it). The first
// measurement of 14e, on the ResNet-50 expand layers: 2.8 x the time of 14d's fp32 stores.
//
//   1. every consumer thread writes alpha * d, fp32, into a padded copy of the tile in the stages'
//      shared memory (free once every consumer has left the main loop: the first barrier);
//   2. the second barrier; then thread c takes 8-column chunks c, c + T, c + 2T ... of the tile
//      (T consumer threads): one 16-byte residual load each, four in flight at a time; bias
//      as two float4; one 16-byte store of 8 halves.
// Where a chunk cannot be one vector (K % 8 != 0, or a pointer not 16-byte aligned) the kernel keeps
// store_fused_rows.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "gemmlab/conv_problem.h"
#include "gemmlab/gmma_desc.h"

namespace gemmlab::kernels::conv {

using ::gemmlab::conv::Shape;
using ::gemmlab::conv::output_offset;

template <class S>
struct FusedStaging {
  // Floats per staged row: the pad puts a fragment's 8 rows 8 banks apart, so a warp's float2
  // stores (8 rows x 4 pairs, 256 bytes) take 2 wavefronts, the least 256 bytes can.
  static constexpr int kPitch = S::kTileN + 8;
  static constexpr int kChunksPerRow = S::kTileN / 8;
  static constexpr int kThreads = S::kConsumers * 128;
  static constexpr int kPerThread = S::kTileM * kChunksPerRow / kThreads;  // 64 x 128 tile: 8
  // Chunks whose residual loads are in flight together: 4 x 16 bytes of registers, or 2 with a
  // 64-column tile (4 blocks an SM, 64 registers a thread: 4 spill 28 bytes).
  static constexpr int kBatch = S::kTileN >= 128 ? 4 : 2;
  static constexpr std::size_t kBytes = std::size_t(S::kTileM) * kPitch * 4;
  static_assert(kBytes == hopper::ConvWgmmaStage::staging_bytes<S>(), "the persistent launch's staging buffer");
  static_assert(S::kTileM * kChunksPerRow % kThreads == 0 && kPerThread % kBatch == 0, "whole chunks per consumer thread");
  static_assert(kBytes <= std::size_t(S::kStages) * S::kStageBytes, "the staged tile fits the stages");
};

// Every consumer thread of the block (named barrier 1; the producer warpgroup has its own exit).
template <class S>
__device__ __forceinline__ void consumers_sync() {
  asm volatile("bar.sync 1, %0;\n" ::"n"(S::kConsumers * 128) : "memory");
}

__device__ __forceinline__ bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0; }

// Whether the staged epilogue serves this launch: every chunk one vector (see the top).
__device__ __forceinline__ bool fused_vectors_fit(const Shape& sh, const __half* out, const float* bias,
                                                  const __half* residual) {
  return sh.k % 8 == 0 && aligned16(out) && aligned16(bias) && (!residual || aligned16(residual));
}

// c: the thread's index among the consumers (0 .. kThreads-1), its warpgroup c / 128.
template <class S>
__device__ __forceinline__ void store_fused_staged(const float (&d)[S::kAccumulators], unsigned char* smem,
                                                   __half* out, const float* bias, const __half* residual,
                                                   bool relu, float alpha, const Shape& sh, int m0, int n0, int c) {
  using St = FusedStaging<S>;
  float* tile = reinterpret_cast<float*>(smem);
  const int wg_row = 64 * (c / 128);
  consumers_sync<S>();  // every consumer's wgmma has read its last stage
#pragma unroll
  for (int i = 0; i < S::kAccumulators; i += 2) {
    const FragCoord e = gmma::accumulator(c % 128, i);
    *reinterpret_cast<float2*>(tile + (wg_row + e.row) * St::kPitch + e.col) = make_float2(alpha * d[i], alpha * d[i + 1]);
  }
  consumers_sync<S>();

  const long long rows = sh.gemm_m();
#pragma unroll 1
  for (int j0 = 0; j0 < St::kPerThread; j0 += St::kBatch) {
    uint4 res[St::kBatch];
#pragma unroll
    for (int j = 0; j < St::kBatch; ++j) {  // the batch's residual loads in flight before the first use
      const int idx = c + (j0 + j) * St::kThreads, row = idx / St::kChunksPerRow;
      const int col = n0 + 8 * (idx % St::kChunksPerRow);
      res[j] = make_uint4(0, 0, 0, 0);
      if (residual && m0 + row < rows && col < sh.k)
        res[j] = __ldg(reinterpret_cast<const uint4*>(residual + output_offset(sh, m0 + row, col)));
    }
#pragma unroll
    for (int j = 0; j < St::kBatch; ++j) {
      const int idx = c + (j0 + j) * St::kThreads, row = idx / St::kChunksPerRow, chunk = idx % St::kChunksPerRow;
      const int col = n0 + 8 * chunk;
      if (m0 + row >= rows || col >= sh.k) continue;
      const float4* staged = reinterpret_cast<const float4*>(tile + row * St::kPitch + 8 * chunk);
      const float4* b = reinterpret_cast<const float4*>(bias + col);
      const float4 s0 = staged[0], s1 = staged[1], b0 = __ldg(b), b1 = __ldg(b + 1);
      const float v[8] = {s0.x + b0.x, s0.y + b0.y, s0.z + b0.z, s0.w + b0.w,
                          s1.x + b1.x, s1.y + b1.y, s1.z + b1.z, s1.w + b1.w};
      const __half2* r = reinterpret_cast<const __half2*>(&res[j]);
      uint4 packed;
      __half2* p = reinterpret_cast<__half2*>(&packed);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const float2 rf = __half22float2(r[q]);  // zeros where there is no residual
        float lo = v[2 * q] + rf.x, hi = v[2 * q + 1] + rf.y;
        if (relu) lo = fmaxf(lo, 0.f), hi = fmaxf(hi, 0.f);
        p[q] = __floats2half2_rn(lo, hi);
      }
      *reinterpret_cast<uint4*>(out + output_offset(sh, m0 + row, col)) = packed;
    }
  }
}

}  // namespace gemmlab::kernels::conv
