// The Hopper stages' compile-time shapes (kernels/stages/hopper), and which shape each stage's .cu
// file launches. No CUDA in here: stages.def and the simulator read the same constants.
//
// Same problem as the fp16 track: C (f32, column-major) = A (f16, row-major) * B (f16,
// column-major). Every operand tile is one TMA box per operand per k-tile (gemmlab/tma_box.h):
// kTileK = 64 halves, 128-byte rows, 128-byte swizzle.
#pragma once
#include <cstddef>

#include "gemmlab/conv_problem.h"
#include "gemmlab/fp16_shapes.h"
#include "gemmlab/tma_box.h"

namespace gemmlab::kernels::hopper {

// Shared memory every Hopper stage adds to its tiles: slack to align the first box to 1024 bytes
// (the swizzle's repeat; dynamic shared memory is only 16-byte aligned) and the mbarriers.
constexpr std::size_t kAlignSlack = tma::kSwizzleAtomBytes;
constexpr std::size_t barrier_bytes(int stages) { return std::size_t(2 * stages) * 8; }  // full + empty
// A wgmma stage's shared memory: `stages` of one A box (tile_m rows) and one B box (tile_n rows).
constexpr std::size_t wgmma_smem_bytes(int tile_m, int tile_n, int stages) {
  return std::size_t(stages) * std::size_t(tma::box_bytes(tile_m) + tma::box_bytes(tile_n)) + kAlignSlack +
         barrier_bytes(stages);
}

// A wgmma stage's threads: a consumer warpgroup per 64 rows of the tile, one more with a producer.
constexpr int wgmma_threads(int tile_m, bool producer) { return (tile_m / 64 + (producer ? 1 : 0)) * 128; }

// Stage 15: stage 12's kernel (8 warps of 64x64, ldmatrix + mma.sync, staged epilogue, serpentine
// blocks) on a k64 tile whose copies are TMA boxes.
struct TmaStage {
  using Shape = fp16::MultistageShape<128, 256, tma::kBoxK, 4, 64, 64>;  // 4 x 48 KB
  static constexpr int kMaxStride = 8;  // serpentine slab width, as stage 12
  static constexpr std::size_t kSmemBytes = Shape::kSmemBytes + kAlignSlack + barrier_bytes(Shape::kStages);
};

// Stages 16+: warpgroup MMA. Each consumer warpgroup (128 threads) owns 64 rows x kTileN columns
// of the tile (wgmma m64nNk16 with N = kTileN), so kTileM / 64 consumers; with a producer
// warpgroup that only issues TMA (stage 17 on) the block has one warpgroup more.
template <int kTileM_, int kTileN_, int kStages_, bool kProducer_>
struct WgmmaShape {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = tma::kBoxK;
  static constexpr int kStages = kStages_;
  static constexpr bool kProducer = kProducer_;
  static constexpr int kConsumers = kTileM / 64;
  static constexpr int kThreads = wgmma_threads(kTileM, kProducer);
  static constexpr int kWgmmaN = kTileN;        // one wgmma covers a consumer's whole row slab
  static constexpr int kAccumulators = kTileN / 2;  // floats per consumer thread (64 x N / 128)
  static constexpr int kStepsPerTile = kTileK / 16;
  static constexpr int kABytes = tma::box_bytes(kTileM), kBBytes = tma::box_bytes(kTileN);
  static constexpr int kStageBytes = kABytes + kBBytes;
  static constexpr std::size_t kSmemBytes = wgmma_smem_bytes(kTileM, kTileN, kStages);
  static_assert(kTileM % 64 == 0 && kTileN % 8 == 0 && kTileN >= 8 && kTileN <= 256,
                "wgmma m64nNk16: N a multiple of 8 up to 256");
  static_assert(kTileM <= tma::kMaxBoxRows && kTileN <= tma::kMaxBoxRows, "one TMA box per operand");
  static_assert(kABytes % tma::kSwizzleAtomBytes == 0 && kBBytes % tma::kSwizzleAtomBytes == 0,
                "every box stays 1024-byte aligned");
};

// 16 wgmma: 2 warpgroups of 64x128 (wgmma m64n128k16) on a 128x128 tile, 4 stages of 32 KB;
// thread 0 issues the TMA. At the tensor peak a k-tile's 32 KB feed 512 cycles: 64 bytes of A and
// B per cycle, where stage 17's 128x256 tile needs 48 (HOPPER_NOTES.md: 82-87% of cuBLAS at 4096^3
// against 95-96%). Serpentine slabs of 4 tiles (512 columns): slabs of 8 ran 2-3 points faster at 4096^3
// but put the L2's traffic at the edge of its capacity, where the H100's DRAM bytes varied from
// launch to launch (199-210 MB) and the L2 replay read 218; slabs of 4 it replays (L2_VALIDATION.md).
struct WgmmaStage {
  using Shape = WgmmaShape<128, 128, 4, false>;  // 256 threads, 129 KB shared
  static constexpr int kMaxStride = 4;
};
static_assert(WgmmaStage::Shape::kThreads == 256 && WgmmaStage::Shape::kAccumulators == 64);
// The most dynamic shared memory a block may opt in to on sm_90 (227 KB).
constexpr std::size_t kMaxSmemPerBlock = 232448;
static_assert(WgmmaStage::Shape::kSmemBytes <= kMaxSmemPerBlock && TmaStage::kSmemBytes <= kMaxSmemPerBlock);

// 17 warp-specialized: a producer warpgroup and two consumer warpgroups of 64x256 on a 128x256
// tile, 4 stages of 48 KB (384 threads, 197 KB).
struct WarpSpecializedStage {
  using Shape = WgmmaShape<128, 256, 4, true>;
  static constexpr int kMaxStride = 8;
};
static_assert(WarpSpecializedStage::Shape::kThreads == 384);

// 18 cluster: stage 17 in clusters of 2 blocks along m that multicast their shared B tile.
struct ClusterStage {
  using Shape = WgmmaShape<128, 256, 4, true>;
  static constexpr int kMaxStride = 8;
  static constexpr int kClusterM = 2;  // blocks per cluster along gridDim.y (m tiles)
};

// 19c wgmma split-k: stage 16's pipeline on 64-row tiles (one warpgroup that also issues the
// TMA), K cut into slices as stage 13a: 4 stages of 24 KB (128 threads, 97 KB: two blocks per SM).
struct SplitKStage {
  using Shape = WgmmaShape<64, 128, 4, false>;
};
static_assert(SplitKStage::Shape::kThreads == 128 && SplitKStage::Shape::kAccumulators == 64);

// 19d wgmma split-k, 128-row tiles: the same kernel with two warpgroups of 64 rows sharing each B
// box (M of 65 .. 128 reads B once, not once per 64-row tile), 3 stages of 32 KB (256 threads,
// 97 KB: two blocks per SM).
struct SplitK128Stage {
  using Shape = WgmmaShape<128, 128, 3, false>;
};
static_assert(SplitK128Stage::Shape::kThreads == 256 && SplitK128Stage::Shape::kStageBytes == 32768);

// 19e wgmma deep pipeline: 19b's kernel and tile with 8 stages of 24 KB (192 KB in flight, one
// block per SM) for problems whose 64-row tiles fit the SMs one block each. One block of 8 stages
// holds as many bytes in flight as 19b's two blocks of 4 (at small M the time is the read of B)
// without cutting K and adding the slices afterwards (cuBLAS runs such a launch: 128 blocks of
// 64 x 128 with 8 stages at 128 x 8192 x 8192, kernels/lab/results/shapes/cublas-kernels.txt).
struct DeepStage {
  using Shape = WgmmaShape<64, 128, 8, false>;
};
static_assert(DeepStage::Shape::kThreads == 128 && DeepStage::Shape::kStageBytes == 24576 &&
              DeepStage::Shape::kSmemBytes <= kMaxSmemPerBlock && 2 * DeepStage::Shape::kSmemBytes > 233472);

// 19f wgmma deep pipeline, 128-row tiles: 19d's two warpgroups on one 128 x 128 tile with 6 stages
// of 32 KB (192 KB, one block per SM). Each k-tile's A and B feed twice the math of 19e's: it wins
// with few tiles and a long K (512 x 512 x 16384: 98-101% of cuBLAS against 19e's 92-93%) and where
// one row of 128-row tiles fits the SMs and 64-row tiles would not (96 x 16384 x 8192: 92-93%
// against 19b's 80-82%; kernels/lab/results/shapes/README.md).
struct DeepRowStage {
  using Shape = WgmmaShape<128, 128, 6, false>;
};
static_assert(DeepRowStage::Shape::kThreads == 256 && DeepRowStage::Shape::kStageBytes == 32768 &&
              DeepRowStage::Shape::kSmemBytes <= kMaxSmemPerBlock && 2 * DeepRowStage::Shape::kSmemBytes > 233472);

// 19 persistent: stage 18's clusters, one block per SM looping over tiles (the same serpentine
// order over cluster tiles, gemmlab/persistent_schedule.h).
struct PersistentStage {
  using Shape = WgmmaShape<128, 256, 4, true>;
  static constexpr int kMaxStride = 8;
  static constexpr int kClusterM = 2;
  // The TMA-store epilogue's buffer per consumer: kStagingSlots slots of two 32 x 32 f32 boxes.
  static constexpr int kStagingSlots = 2;
  static constexpr int kStagingBytesPerConsumer = kStagingSlots * 2 * tma::kCBoxBytes;
  static constexpr std::size_t kSmemBytes = Shape::kSmemBytes + Shape::kConsumers * kStagingBytesPerConsumer;
};
static_assert(PersistentStage::kSmemBytes == 230464 && PersistentStage::kSmemBytes <= kMaxSmemPerBlock,
              "192 KB of stages + 32 KB of C staging + 1 KB alignment + barriers");

// 14d conv-wgmma: the implicit-GEMM convolution on this machinery: one producer warpgroup (one
// thread issuing TMA im2col boxes, or all 128 gathering A) and kTileM / 64 consumers; which tile:
// conv::wgmma_tile (gemmlab/conv_problem.h), the same {m, n, blocks per SM} as these shapes.
// 64 x 128: 4 stages of 24 KB, two blocks per SM (its wgmma needs more than the 80 registers a
// thread three would leave). 64 x 64 (gathered, K <= 64): 3 stages of 16 KB, four blocks per SM.
// 128 x 64 (im2col, K <= 64): 4 stages of 24 KB, two per SM. 256 x 128 (im2col): 4 stages of 48 KB.
struct ConvWgmmaStage {
  using Shape = WgmmaShape<64, 128, 4, true>;
  using NarrowShape = WgmmaShape<64, 64, 3, true>;
  using TallNarrowShape = WgmmaShape<128, 64, 4, true>;
  using TallShape = WgmmaShape<256, 128, 4, true>;
  // The resident blocks' tile (conv::wgmma_persistent_grid): 3 stages, so that two blocks fit an SM
  // with the staging buffer of the fused epilogue (64 rows of kTileN + 8 floats) past the stages.
  using PersistentShape = WgmmaShape<64, 128, 3, true>;
  static constexpr int kBlocksPerSm = 2, kNarrowBlocksPerSm = 4, kTallNarrowBlocksPerSm = 2, kTallBlocksPerSm = 1;
  template <class S>
  static constexpr std::size_t staging_bytes() { return std::size_t(S::kTileM) * (S::kTileN + 8) * 4; }
  template <class S>
  static constexpr std::size_t persistent_smem_bytes() { return S::kSmemBytes + staging_bytes<S>(); }
  // Shared memory past the stages: the gathered tile's row origins (conv::RowOrigin, 16 bytes a row).
  template <class S>
  static constexpr std::size_t smem_bytes() { return S::kSmemBytes + std::size_t(S::kTileM) * 16; }
};
// Shared memory per SM: 228 KB, of which 1 KB is reserved per block.
static_assert(ConvWgmmaStage::kBlocksPerSm * (ConvWgmmaStage::smem_bytes<ConvWgmmaStage::Shape>() + 1024) <= 233472 &&
              ConvWgmmaStage::kNarrowBlocksPerSm * (ConvWgmmaStage::smem_bytes<ConvWgmmaStage::NarrowShape>() + 1024) <=
                  233472 &&
              ConvWgmmaStage::kTallNarrowBlocksPerSm *
                      (ConvWgmmaStage::smem_bytes<ConvWgmmaStage::TallNarrowShape>() + 1024) <=
                  233472 &&
              ConvWgmmaStage::smem_bytes<ConvWgmmaStage::TallShape>() <= kMaxSmemPerBlock &&
              conv::kPersistentBlocksPerSm *
                      (ConvWgmmaStage::persistent_smem_bytes<ConvWgmmaStage::PersistentShape>() + 1024) <= 233472);

// conv::wgmma_tile (which the launch and the Conv view follow) names exactly these shapes: same
// rows, columns and blocks per SM, and its max_splits - 1 partial tiles of fp32 fit the stages'
// shared memory, where the k slices of a tile add up (conv/14d_conv_wgmma/conv_wgmma.cuh).
template <class S>
constexpr bool conv_tile_is(const conv::WgmmaTile& t, int blocks_per_sm) {
  return t.m == S::kTileM && t.n == S::kTileN && t.blocks_per_sm == blocks_per_sm &&
         std::size_t(t.max_splits - 1) * S::kTileM * S::kTileN * 4 <= std::size_t(S::kStages) * S::kStageBytes;
}
static_assert(conv_tile_is<ConvWgmmaStage::TallNarrowShape>(conv::wgmma_tile(conv::Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 132, true),
                                                            ConvWgmmaStage::kTallNarrowBlocksPerSm) &&
              conv_tile_is<ConvWgmmaStage::TallShape>(conv::wgmma_tile(conv::Shape{32, 28, 28, 128, 128, 3, 3, 1, 1, 1}, 132, true),
                                                      ConvWgmmaStage::kTallBlocksPerSm) &&
              conv_tile_is<ConvWgmmaStage::Shape>(conv::wgmma_tile(conv::Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132, true),
                                                  ConvWgmmaStage::kBlocksPerSm) &&
              conv_tile_is<ConvWgmmaStage::Shape>(conv::wgmma_tile(conv::Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1}, 132, false),
                                                  ConvWgmmaStage::kBlocksPerSm) &&
              conv_tile_is<ConvWgmmaStage::NarrowShape>(conv::wgmma_tile(conv::Shape{32, 56, 56, 64, 64, 3, 3, 1, 1, 1}, 132, false),
                                                        ConvWgmmaStage::kNarrowBlocksPerSm));

}  // namespace gemmlab::kernels::hopper
