// The `auto` stage's rule (issue 51): which of the Hopper ladder's launches runs an fp16 problem
// M x N x K on a GPU of `sms` SMs. The H200 shape sweep (assets/results/nvidia-h200-shapes.json,
// % of cuBLAS) says which launch wins in which class of shape; the classes are told apart by
// launch facts, tiles against SMs, never by a list of shapes:
//   big   tiles of stages 17-19's 128 x 256, small  tiles of stage 16's 128 x 128,
//   k     k-tiles of 64 (a split of K pays only where each piece keeps many).
// 1. big >= sms, a full wave of big tiles or more -> persistent: its scheduler evens out the last
//    round, its clusters share B (4096 x 8192 x 8192: 101.7%; stage 17 96.7%)
// 2. big >= 4/5 of sms, one wave that nearly fills the GPU -> warp-specialized: one block per
//    tile, no round to even out, no cluster partner idle beside a single row of tiles
//    (64 x 28672 x 8192: 112 tiles, 97.5%; persistent 64.6%)
// 3. k >= 32 and small <= sms / 4: too few tiles even at 128 x 128 -> persistent, which splits
//    K over its clusters (512 x 512 x 16384: 16 small tiles, 82.0%; wgmma 25.1%)
// 4. k >= 32 and M <= 64: one tile row, mostly empty, whose work is reading B -> wgmma-split-k:
//    64-row tiles and K cut into slices, every SM reading B (16 x 8192 x 8192: 79.2%; persistent
//    61.8%, wgmma 49.4%)
// 5. k < 32: K too short to split (each slice keeps 16 k-tiles) -> wgmma-split-k in one slice:
//    its 64-row tiles give twice stage 16's blocks (1024^3: 84.4%; wgmma 78.1%)
// 6. otherwise -> wgmma: twice the blocks of the big tile, rows full, K long (128 x 8192 x 8192:
//    77.6%; wgmma-split-k 70.0%, persistent 72.4%)
// (Figures: the shape sweep's rounds and stage 19b's own bench, kernels/lab/results/shapes/.)
// The sentence the app and `gemmlab sim dispatch` show is gemmlab/dispatch.h's; the stage each
// launch is, the registry's (stage_desc.h stage_of_auto_launch).
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/hopper_shapes.h"

namespace gemmlab {

enum class AutoLaunch { Wgmma, WarpSpecialized, Persistent, SplitK };
// Which clause of the rule decided (the numbers above).
enum class AutoRule { FullWaves, OneWave, FewTiles, ThinRows, ShortK, SmallTiles };

inline constexpr int kAutoMinSplitKTiles = 32;  // 1024^3 (16 k-tiles) lost with its K split in 19a
inline constexpr int kAutoThinRows = 64;        // at most half of a 128-row tile used

struct AutoPick {
  AutoLaunch launch = AutoLaunch::Persistent;
  AutoRule rule = AutoRule::FullWaves;
  int big_m = 0, big_n = 0, small_m = 0, small_n = 0;  // the two tiles the rule counts
  long long big_tiles = 0, small_tiles = 0;
  int k_tiles = 0;
};

GL_HD constexpr long long auto_tiles(int m, int n, int tile_m, int tile_n) {
  return 1ll * ((m + tile_m - 1) / tile_m) * ((n + tile_n - 1) / tile_n);
}

// The rule above; m, n, k, sms >= 1.
GL_HD constexpr AutoPick pick_auto_launch(int m, int n, int k, int sms) {
  using Big = kernels::hopper::WarpSpecializedStage::Shape;
  using Small = kernels::hopper::WgmmaStage::Shape;
  AutoPick p;
  p.big_m = Big::kTileM, p.big_n = Big::kTileN, p.small_m = Small::kTileM, p.small_n = Small::kTileN;
  p.big_tiles = auto_tiles(m, n, Big::kTileM, Big::kTileN);
  p.small_tiles = auto_tiles(m, n, Small::kTileM, Small::kTileN);
  p.k_tiles = (k + Big::kTileK - 1) / Big::kTileK;
  const bool splits = p.k_tiles >= kAutoMinSplitKTiles;
  if (p.big_tiles >= sms) {
    p.launch = AutoLaunch::Persistent, p.rule = AutoRule::FullWaves;
  } else if (5 * p.big_tiles >= 4ll * sms) {
    p.launch = AutoLaunch::WarpSpecialized, p.rule = AutoRule::OneWave;
  } else if (splits && 4 * p.small_tiles <= sms) {
    p.launch = AutoLaunch::Persistent, p.rule = AutoRule::FewTiles;
  } else if (splits && m <= kAutoThinRows) {
    p.launch = AutoLaunch::SplitK, p.rule = AutoRule::ThinRows;
  } else if (!splits) {
    p.launch = AutoLaunch::SplitK, p.rule = AutoRule::ShortK;
  } else {
    p.launch = AutoLaunch::Wgmma, p.rule = AutoRule::SmallTiles;
  }
  return p;
}

// The persistent stage counts the same big tiles (stage 17's tile, in clusters).
static_assert(kernels::hopper::PersistentStage::Shape::kTileM == kernels::hopper::WarpSpecializedStage::Shape::kTileM &&
              kernels::hopper::PersistentStage::Shape::kTileN == kernels::hopper::WarpSpecializedStage::Shape::kTileN);
// The sweep's classes on 132 SMs (the H200), one per clause.
static_assert(pick_auto_launch(4096, 8192, 8192, 132).rule == AutoRule::FullWaves);     // 1024 big tiles
static_assert(pick_auto_launch(64, 28672, 8192, 132).rule == AutoRule::OneWave);        // 112 big tiles
static_assert(pick_auto_launch(2048, 2048, 2048, 132).launch == AutoLaunch::WarpSpecialized);  // 128
static_assert(pick_auto_launch(512, 512, 16384, 132).rule == AutoRule::FewTiles);       // 16 small tiles
static_assert(pick_auto_launch(16, 8192, 8192, 132).rule == AutoRule::ThinRows);        // 64 small, M = 16
static_assert(pick_auto_launch(128, 8192, 8192, 132).rule == AutoRule::SmallTiles);         // rows full
static_assert(pick_auto_launch(1024, 1024, 1024, 132).rule == AutoRule::ShortK);      // 16 k-tiles

}  // namespace gemmlab
