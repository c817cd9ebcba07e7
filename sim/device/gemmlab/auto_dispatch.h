// The `auto` stage's rule (issue 51): which of the Hopper ladder's launches runs an fp16 problem
// M x N x K on a GPU of `sms` SMs. The H200 shape sweep and stage 19b's slice probe
// (kernels/lab/results/shapes/, % of cuBLAS) say which launch wins in which class of shape; the
// classes are told apart by launch facts, tiles against SMs, never by a list of shapes:
//   big   tiles of stages 17-19's 128 x 256, small  tiles of stage 19b's 64 x 128,
//   k     k-tiles of 64.
// 1. big >= sms, a full wave of big tiles or more -> persistent: its scheduler evens out the last
//    round, its clusters share B (4096 x 8192 x 8192: 100.2-100.9%; stage 17 96.7%)
// 2. small <= sms, the 64-row tiles fit the SMs one block each, and M > 128 in full rows of 128
//    where the 128-row tiles with their K slices make at least as many blocks -> wgmma-deep-128:
//    each k-tile's A and B feed twice the math (512 x 512 x 16384: 16 tiles x 8 slices against
//    32 x 4; 19f 98.4-100.9%, 19e 91.8-93.3%; 768 x 768 x 8192: 108 blocks against 72, 19f
//    91.6-92.5%, 19e 66.3-67.6%; but 1024^3, 16 k-tiles too short to cut: 64 blocks against 128)
// 3. otherwise small <= sms -> wgmma-deep: 8 stages in flight per SM, K cut only where the tiles
//    fill half the SMs or fewer (128 x 8192 x 8192: 96.5-98.9%, 19b 84.9-86.3%; 1024^3:
//    91.1-94.4%, 19b 83.6-84.2%; 112 x 8192 x 8192: 99.3-100.2%, 19b 86.6-87.8%; 80 x 8192 x 8192:
//    83.7-85.1%, 19d 81.1-82.5%; 16 x 8192 x 8192: 89.2-91.1%, level with 19b's 89.7-90.4%)
// 4. the 64-row tiles would not fit the SMs one block each, the 128-row tiles do and nearly fill
//    them (4/5 or more), in one row or in rows all full -> wgmma-deep-128 (96 x 16384 x 8192: 128
//    tiles; 19f 92.0-93.4%, 19e 82.1-83.8%, 19b 80.2-81.7%, 19d 77.4-78.1%; 256 x 8192 x 8192: 19f
//    98.7-99.3%, 19b 89.2-90.1%; but a part-used last row costs math: 192 x 8192 x 8192 19f
//    64.3-65.5%, 19b 77.0-78.3%; 129 x 8192 x 8192 19f 305-307%, 19b 356-357% of a slow cuBLAS;
//    and 1056 x 1024 x 1024: 72 tiles for 132 SMs; all 19b)
// 5. M of 65 .. 128 where stage 19b's 64-row tiles would not fit one wave (two blocks per SM) and
//    19d's 128-row tiles do -> wgmma-split-k-128 (128 x 28672 x 8192: 448 tiles against 224; 19d
//    103.8-105.3%, 19b 89.6-90.6%; 96 x 24576 x 8192: 19d 80.5-83.2%, 19f 81.6-82.6%, 19b
//    73.0-74.4%)
// 6. any other M <= 128, one row of 128-row tiles: the work is reading B -> wgmma-split-k: 64-row
//    tiles, two blocks per SM, K cut into as many slices as fill one wave (64 x 28672 x 8192: 224
//    tiles, one slice, 99.6-103.3%; 19e 99.2-99.9%)
// 7. big >= 4/5 of sms, one wave that nearly fills the GPU -> warp-specialized: one block per
//    tile, no round to even out (2048^3: 97.5-98.9%; stage 19b 89.3%)
// 8. otherwise, fewer big tiles than a wave -> wgmma-split-k: twice the blocks in 64-row tiles, K
//    cut to fill one wave where each slice keeps 16 k-tiles (1056 x 1024 x 1024: 19b 78.5-80.3%,
//    19e 60.4-61.1%, 19d 66.6-67.5%)
// Shapes of the sweep and their percentages of cuBLAS: kernels/lab/results/shapes/README.md.
// The sentence the app and `gemmlab sim dispatch` show is gemmlab/dispatch.h's; the stage each
// launch is, the registry's (stage_desc.h stage_of_auto_launch).
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/hopper_shapes.h"
#include "gemmlab/raster.h"

namespace gemmlab {

enum class AutoLaunch { WarpSpecialized, Persistent, SplitK, SplitK128, Deep, DeepRows };
// Which clause of the rule decided (the clauses above, in the order the code tests them: FullWaves,
// SmRows, SmTiles, RowWave, OneRow, ThinRows, OneWave, FewTiles).
enum class AutoRule { FullWaves, ThinRows, OneRow, OneWave, FewTiles, SmTiles, SmRows, RowWave };

inline constexpr int kAutoThinRows = 128;  // one row of 128-row tiles
// Stages 19b and 19d keep two blocks on an SM (97 KB of shared memory each).
inline constexpr int kSplitKBlocksPerSm = 2;
static_assert(kSplitKBlocksPerSm * kernels::hopper::SplitKStage::Shape::kSmemBytes <= 233472 &&
              kSplitKBlocksPerSm * kernels::hopper::SplitK128Stage::Shape::kSmemBytes <= 233472);

struct AutoPick {
  AutoLaunch launch = AutoLaunch::Persistent;
  AutoRule rule = AutoRule::FullWaves;
  int big_m = 0, big_n = 0, small_m = 0, small_n = 0;  // the two tiles the rule counts
  long long big_tiles = 0, small_tiles = 0, row_tiles = 0;  // row: 19d's and 19f's 128 x 128
  // Stages 19e's and 19f's tiles x their K slices, one block per SM (one wave).
  long long deep_blocks = 0, deep_row_blocks = 0;
  int k_tiles = 0;
};

GL_HD constexpr long long auto_tiles(int m, int n, int tile_m, int tile_n) {
  return 1ll * ((m + tile_m - 1) / tile_m) * ((n + tile_n - 1) / tile_n);
}

// The rule above; m, n, k, sms >= 1.
GL_HD constexpr AutoPick pick_auto_launch(int m, int n, int k, int sms) {
  using Big = kernels::hopper::WarpSpecializedStage::Shape;
  using Small = kernels::hopper::SplitKStage::Shape;
  using Row = kernels::hopper::SplitK128Stage::Shape;
  AutoPick p;
  p.big_m = Big::kTileM, p.big_n = Big::kTileN, p.small_m = Small::kTileM, p.small_n = Small::kTileN;
  p.big_tiles = auto_tiles(m, n, Big::kTileM, Big::kTileN);
  p.small_tiles = auto_tiles(m, n, Small::kTileM, Small::kTileN);
  p.row_tiles = auto_tiles(m, n, Row::kTileM, Row::kTileN);
  p.k_tiles = (k + Big::kTileK - 1) / Big::kTileK;
  const long long slots = 1ll * kSplitKBlocksPerSm * sms;
  p.deep_blocks = p.small_tiles * split_k_wave_slices(p.small_tiles, sms, k, Small::kTileK);
  p.deep_row_blocks = p.row_tiles * split_k_wave_slices(p.row_tiles, sms, k, Small::kTileK);
  const bool one_row = m > Small::kTileM && m <= kAutoThinRows;
  const bool full_rows = m <= kAutoThinRows || m % Row::kTileM == 0;  // one row, or every row full
  if (p.big_tiles >= sms) {
    p.launch = AutoLaunch::Persistent, p.rule = AutoRule::FullWaves;
  } else if (p.small_tiles <= sms && m > kAutoThinRows && full_rows && p.deep_row_blocks >= p.deep_blocks) {
    p.launch = AutoLaunch::DeepRows, p.rule = AutoRule::SmRows;
  } else if (p.small_tiles <= sms) {
    p.launch = AutoLaunch::Deep, p.rule = AutoRule::SmTiles;
  } else if (p.row_tiles <= sms && 5 * p.deep_row_blocks >= 4ll * sms && full_rows) {
    p.launch = AutoLaunch::DeepRows, p.rule = AutoRule::RowWave;
  } else if (one_row && p.small_tiles > slots && p.row_tiles <= slots) {
    p.launch = AutoLaunch::SplitK128, p.rule = AutoRule::OneRow;
  } else if (m <= kAutoThinRows) {
    p.launch = AutoLaunch::SplitK, p.rule = AutoRule::ThinRows;
  } else if (5 * p.big_tiles >= 4ll * sms) {
    p.launch = AutoLaunch::WarpSpecialized, p.rule = AutoRule::OneWave;
  } else {
    p.launch = AutoLaunch::SplitK, p.rule = AutoRule::FewTiles;
  }
  return p;
}

// Stages 19d and 19f count the same row tiles, 19b and 19e the same small ones.
static_assert(kernels::hopper::DeepRowStage::Shape::kTileM == kernels::hopper::SplitK128Stage::Shape::kTileM &&
              kernels::hopper::DeepRowStage::Shape::kTileN == kernels::hopper::SplitK128Stage::Shape::kTileN &&
              kernels::hopper::DeepStage::Shape::kTileM == kernels::hopper::SplitKStage::Shape::kTileM &&
              kernels::hopper::DeepStage::Shape::kTileN == kernels::hopper::SplitKStage::Shape::kTileN);
// The persistent stage counts the same big tiles (stage 17's tile, in clusters).
static_assert(kernels::hopper::PersistentStage::Shape::kTileM == kernels::hopper::WarpSpecializedStage::Shape::kTileM &&
              kernels::hopper::PersistentStage::Shape::kTileN == kernels::hopper::WarpSpecializedStage::Shape::kTileN);
// The sweep's classes on 132 SMs (the H200), one per clause.
static_assert(pick_auto_launch(4096, 8192, 8192, 132).rule == AutoRule::FullWaves);     // 1024 big tiles
static_assert(pick_auto_launch(128, 8192, 8192, 132).rule == AutoRule::SmTiles);        // 128 small tiles
static_assert(pick_auto_launch(1024, 1024, 1024, 132).rule == AutoRule::SmTiles);       // 64 row blocks < 128
static_assert(pick_auto_launch(512, 512, 16384, 132).rule == AutoRule::SmRows);         // 16 x 8 = 32 x 4
static_assert(pick_auto_launch(128, 28672, 8192, 132).rule == AutoRule::OneRow);        // 448 do not fit
static_assert(pick_auto_launch(96, 16384, 8192, 132).rule == AutoRule::RowWave);        // 128 row tiles
static_assert(pick_auto_launch(192, 8192, 8192, 132).rule == AutoRule::FewTiles);       // a half row
static_assert(pick_auto_launch(64, 28672, 8192, 132).rule == AutoRule::ThinRows);       // 224 small tiles
static_assert(pick_auto_launch(2048, 2048, 2048, 132).rule == AutoRule::OneWave);       // 128 big tiles
static_assert(pick_auto_launch(256, 13312, 8192, 132).rule == AutoRule::FewTiles);      // 104 big tiles

}  // namespace gemmlab
