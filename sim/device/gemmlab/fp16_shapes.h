// The FP16 stages' compile-time shapes, and which shape and options each stage's .cu file
// launches. No CUDA in here: sim/tests/test_kernel_banks.cpp includes it to replay each stage's
// shared-memory instructions with the very constants the kernels are built with.
#pragma once
#include <cstddef>

namespace gemmlab::kernels::fp16 {

enum class FragmentLoad { Lds32, Ldmatrix };

// Stages 7-9: one block tile 128x128xkTileK, 8 warps of 64x32 (2 along m x 4 along n), one
// shared buffer filled through registers.
template <int kTileK_>
struct SyncTileShape {
  static constexpr int kTileM = 128, kTileN = 128, kTileK = kTileK_, kThreads = 256;
  static constexpr int kWarpM = 64, kWarpN = 32;  // warps 2 (m) x 4 (n)
  static constexpr int kWarpsN = kTileN / kWarpN;
  static_assert((kTileM / kWarpM) * kWarpsN * 32 == kThreads);
  static constexpr int kSmemBytes = (kTileM + kTileN) * kTileK * 2;  // A and B tiles of __half: 16 KB
};

// A multistage shape's threads (a warp per warp tile) and shared memory (`stages` of an A and a B
// tile of __half); also what stage_as_measured reads off an earlier build's kernel name.
constexpr int multistage_threads(int tile_m, int tile_n, int warp_m, int warp_n) {
  return (tile_m / warp_m) * (tile_n / warp_n) * 32;
}
constexpr std::size_t multistage_smem_bytes(int tile_m, int tile_n, int tile_k, int stages) {
  return std::size_t(stages) * std::size_t(tile_m + tile_n) * std::size_t(tile_k) * 2;
}

// Stages 10 and 12: kStages shared buffers of (A tile, then B tile), always Swizzle<3,3,3>.
// kBarrierAfterMma (fp16_mainloop.cuh's k-tile loop): a tile's cp.async wait and block barrier
// come after the mma of its second-to-last k16 step are issued (CUTLASS 2.x's MmaMultistage
// order), not before those of its last step.
template <int kTileM_, int kTileN_, int kTileK_, int kStages_, int kWarpM_, int kWarpN_,
          bool kBarrierAfterMma_ = false>
struct MultistageShape {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kStages = kStages_, kWarpM = kWarpM_, kWarpN = kWarpN_;
  static constexpr bool kBarrierAfterMma = kBarrierAfterMma_;
  static constexpr int kWarpsN = kTileN / kWarpN;
  static constexpr int kThreads = multistage_threads(kTileM, kTileN, kWarpM, kWarpN);
  static constexpr int kStepsPerTile = kTileK / 16;
  static constexpr int kStageHalves = (kTileM + kTileN) * kTileK;  // A tile, then B tile
  static constexpr int kBOffsetHalves = kTileM * kTileK;            // where the B tile starts
  static constexpr int kHalfBytes = 2;                              // sizeof(__half)
  static constexpr std::size_t kSmemBytes = multistage_smem_bytes(kTileM, kTileN, kTileK, kStages);
  static_assert(kSmemBytes == std::size_t(kStages) * kStageHalves * kHalfBytes);
  static constexpr bool kSwizzled = true;
  static_assert(kStages >= 2 && kTileK % 16 == 0);
  // The fragment double buffer alternates per k16 step; an even count per tile keeps step 0 of
  // every tile in buffer 0.
  static_assert(kStepsPerTile % 2 == 0, "kTileK must be a multiple of 32");
};

// ---- The stages as registered in stages.def ---------------------------------------------------
template <FragmentLoad kLoad_, bool kSwizzled_>
struct SyncStage {
  using Shape = SyncTileShape<32>;  // 128x128x32, 256 threads, 16 KB static shared memory
  static constexpr FragmentLoad kLoad = kLoad_;
  static constexpr bool kSwizzled = kSwizzled_;
};
using MmaSyncStage = SyncStage<FragmentLoad::Lds32, false>;         // 7 mma-sync
using LdmatrixStage = SyncStage<FragmentLoad::Ldmatrix, false>;     // 8 ldmatrix
using SmemSwizzleStage = SyncStage<FragmentLoad::Ldmatrix, true>;   // 9 smem-swizzle
struct MultistageStage {                                            // 10 multistage
  // 128x128x32, 4 stages (64 KB), warps 64x32; one block per SM (about 150 registers a thread).
  using Shape = MultistageShape<128, 128, 32, 4, 64, 32>;
  static constexpr int kMinBlocks = 1;
};
struct EpilogueStage {                                              // 12 epilogue
  // 256x128x32, warps 64x64 (4 x 2), 4 stages (96 KB), 256 threads, the barrier after the mma.
  using Shape = MultistageShape<256, 128, 32, 4, 64, 64, true>;
  static constexpr int kMaxStride = 8;  // serpentine slab width
};

}  // namespace gemmlab::kernels::fp16
