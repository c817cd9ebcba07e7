// Why a stage wins or loses at a shape of the Kernels view's sweep (gemmlab/shape_sweep.h): its
// launch at that shape as the simulator plans it (plan_launch, the launch the Grid view draws), in
// the few numbers the sweep's "why" line shows. Small M leaves most rows of a 128-row tile empty
// and most SMs idle; a long K with few tiles leaves a handful of blocks each running the whole K
// unless the stage splits it (stage 19's stream-k); that is where cuBLAS, which picks a kernel per
// shape (gemmlab/dispatch.h states such a rule), wins.
//   16 x 8192 x 8192 on an H200, stage 17 (128 x 256 tiles): 1 x 32 tiles, 16 of 128 rows used,
//   32 blocks for 132 SMs: 24% of the GPU's block slots busy
//   64 x 28672 x 8192, stage 18 (clusters of 2 along m): 112 tiles in 224 blocks, 1.70 waves: 42%
#pragma once
#include <string>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/raster.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab {

struct SweepLaunch {
  GemmCoord problem;
  int sms = 0;
  int tile_m = 0, tile_n = 0, tile_k = 0;
  int tiles_m = 0, tiles_n = 0;
  long long tiles = 0;
  int rows_used = 0;         // rows of the last tile row inside M (tile_m where M divides)
  int k_tiles = 0;           // k-tiles of one whole tile: ceil(K / tile_k)
  int cluster_m = 1;         // blocks per cluster along m (stages.def)
  bool persistent = false;   // resident blocks take tiles from a scheduler (stage 19)
  long long blocks = 0;      // blocks that run a main loop: stage 18's rows rounded up to whole
                             // clusters included (they load B for their peer); stage 19: its
                             // resident blocks
  long long pieces = 0;      // stage 19: k-range pieces its stream-k split makes of the tiles (0: none)
  int split_k = 1;           // K slices of a split-K launch (launch_facts; 1: K not split)
  int slots = 0;             // blocks the GPU holds at once (SMs x blocks per SM)
  double waves = 0;          // a grid stage's blocks over the slots; stage 19's rounds of whole tiles
  double busy = 0;           // share of the whole GPU's block slots busy until the last block ends
  const StageDesc* launched = nullptr;  // the dispatcher (`auto`): the stage whose launch it runs here
};

// Tiles a sweep plans at most (16384 x 8192 x 8192 is 8192 tiles of 128 x 128).
inline constexpr long long kMaxSweepTiles = 1 << 18;

// The stage's launch at `problem` on `device` (its SM count as the results file states it); the
// dispatcher's, that of the stage its rule picks (SweepLaunch::launched).
// Fails for a stage without a threadblock tile, M, N or K outside 1 .. 2^20, or more tiles than
// kMaxSweepTiles.
Expected<SweepLaunch> sweep_launch(const StageDesc& stage, GemmCoord problem, const DeviceDesc& device);

}  // namespace gemmlab
