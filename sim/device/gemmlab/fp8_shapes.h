// The FP8 stages' compile-time shapes (kernels/stages/fp8). No CUDA in here: stages.def and the
// simulator read the same constants the kernels are built with.
//
// Problem: D (bf16, row-major M x N) = scales * A (e4m3, row-major M x K) * B^T (B e4m3, N x K,
// K contiguous). A k-tile row is 128 e4m3 = 128 bytes, one row of the fp16 stages' swizzled
// boxes (gemmlab/tma_box.h): twice the k per box.
#pragma once
#include <cstddef>

#include "gemmlab/tma_box.h"

namespace gemmlab::kernels::fp8 {

// Stage 20a: stage 19's persistent warp-specialized clusters on e4m3 operands (fp8_tensor.cuh).
struct Fp8TensorShape {
  static constexpr int kTileM = 128, kTileN = 256, kTileK = 128;  // k in e4m3 elements (= bytes)
  static constexpr int kStages = 4;
  static constexpr int kConsumers = kTileM / 64;
  static constexpr int kThreads = 128 * (kConsumers + 1);  // + the producer warpgroup
  static constexpr int kClusterM = 2;
  static constexpr int kStepK = 32;                        // wgmma k32
  static constexpr int kStepsPerTile = kTileK / kStepK;    // 4
  static constexpr int kAccumulators = kTileN / 2;         // 64 x 256 f32 over 128 threads
  static constexpr int kRowBytes = kTileK;                 // 128: one swizzle row
  static constexpr int kABytes = kTileM * kRowBytes, kBBytes = kTileN * kRowBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;    // 48 KB
  static constexpr int kGroupPairs = 8;                    // units ordered in groups of 8 m pairs
  // The TMA epilogue's staging per consumer: two 64 x 64 bf16 chunks (8 KB each: 128-byte rows).
  static constexpr int kChunkCols = 64, kChunkBytes = 64 * kChunkCols * 2, kStagingBytes = 2 * kChunkBytes;
  static constexpr std::size_t kSmemBytes =
      std::size_t(kStages) * kStageBytes + std::size_t(kConsumers) * kStagingBytes + 1024 + 2 * kStages * 8;
};
static_assert(Fp8TensorShape::kRowBytes == tma::kRowBytes, "the fp16 stages' 128-byte box rows");
static_assert(Fp8TensorShape::kSmemBytes == 230464 && Fp8TensorShape::kThreads == 384,
              "192 KB of stages + 32 KB of D staging + 1 KB alignment + barriers");

// Stage 20b: stage 20a with block scales, a k-tile per k-block and FP32 promotion (fp8_block.cuh).
struct Fp8BlockShape {
  static constexpr int kTileM = 128, kTileN = 128, kTileK = 128;  // kTileK = the scales' k-block
  static constexpr int kStages = 6;
  static constexpr int kConsumers = kTileM / 64;
  static constexpr int kThreads = 128 * (kConsumers + 1);
  static constexpr int kClusterM = 2;
  static constexpr int kStepK = 32, kStepsPerTile = kTileK / kStepK;  // 4 x k32
  static constexpr int kAccumulators = kTileN / 2;                    // 64 x 128 f32 over 128 threads
  static constexpr int kRowBytes = kTileK;
  static constexpr int kABytes = kTileM * kRowBytes, kBBytes = kTileN * kRowBytes;
  static constexpr int kStageBytes = kABytes + kBBytes;  // 32 KB
  static constexpr int kGroupPairs = 8;
  static constexpr int kChunkCols = 64, kChunkBytes = 64 * kChunkCols * 2, kStagingBytes = 2 * kChunkBytes;
  static constexpr std::size_t kSmemBytes =
      std::size_t(kStages) * kStageBytes + std::size_t(kConsumers) * kStagingBytes + 1024 + 2 * kStages * 8;
};
static_assert(Fp8BlockShape::kSmemBytes == 230496, "192 KB of stages + 32 KB of D staging + 1 KB + barriers");

// The scales of the block-scaled track (fp8-block; Fp8Args in kernels/stage_api.h): one float per
// 128 k of an activation row (scale_a, [kb][m]) and per 128 x 128 block of the weights
// (scale_b, [nb][kb], rows of ceil(K/128) rounded up to 4 floats: cuBLASLt 13's BLK128x128_32F
// layout, so that one scale tensor serves stage 20b and cuBLASLt).
constexpr int kScaleBlock = 128;
constexpr int scale_blocks(int extent) { return (extent + kScaleBlock - 1) / kScaleBlock; }
static_assert(scale_blocks(1) == 1 && scale_blocks(128) == 1 && scale_blocks(129) == 2 && scale_blocks(16384) == 128);
// Floats between two rows of scale_b.
constexpr int scale_b_stride(int k) { return (scale_blocks(k) + 3) / 4 * 4; }
static_assert(scale_b_stride(2000) == 16 && scale_b_stride(4112) == 36 && scale_b_stride(16) == 4);
static_assert(Fp8BlockShape::kTileK == kScaleBlock && Fp8BlockShape::kTileN == kScaleBlock,
              "one k-tile = one k-block of scales; one tile's columns = one scale block of B");

}  // namespace gemmlab::kernels::fp8
