// Why a stage wins or loses at a shape of the sweep (gemmlab/sweep_launch.h): the launch of the
// Hopper ladder's stages on issue 51's shapes on an H200 (132 SMs, one block per SM), worked out
// by hand from the stages' tiles (stages.def) beside each value.
#include <gtest/gtest.h>

#include "gemmlab/sweep_launch.h"

using namespace gemmlab;

namespace {

SweepLaunch launch(const char* stage, GemmCoord problem) {
  auto s = sweep_launch(*find_stage_desc(stage), problem, *device_preset("h200"));
  EXPECT_TRUE(s.ok()) << (s ? "" : s.error());
  return s ? *s : SweepLaunch{};
}

// Small M: one row of 128-row tiles, 16 of its rows used, and too few tiles for the SMs.
TEST(SweepLaunch, SmallMLeavesRowsAndSmsEmpty) {
  const SweepLaunch w = launch("wgmma", {16, 8192, 8192});  // 128 x 128 tiles
  EXPECT_EQ(w.tile_m, 128);
  EXPECT_EQ(w.tile_n, 128);
  EXPECT_EQ(w.tiles_m, 1);
  EXPECT_EQ(w.tiles_n, 64);
  EXPECT_EQ(w.rows_used, 16);
  EXPECT_EQ(w.k_tiles, 128);  // 8192 / 64
  EXPECT_EQ(w.blocks, 64);
  EXPECT_EQ(w.slots, 132);
  EXPECT_NEAR(w.busy, 64.0 / 132, 1e-9);
  const SweepLaunch ws = launch("warp-specialized", {16, 8192, 8192});  // 128 x 256: half the blocks
  EXPECT_EQ(ws.tiles, 32);
  EXPECT_EQ(ws.blocks, 32);
  EXPECT_NEAR(ws.busy, 32.0 / 132, 1e-9);
  // 1024^3: the same 64 against 32 blocks (8 x 8 tiles of 128 x 128 against 8 x 4 of 128 x 256).
  EXPECT_EQ(launch("wgmma", {1024, 1024, 1024}).blocks, 64);
  EXPECT_EQ(launch("warp-specialized", {1024, 1024, 1024}).blocks, 32);
}

// Stage 18 rounds one row of tiles up to a cluster of two: 112 tiles hold 224 SMs, 1.70 waves.
TEST(SweepLaunch, ClustersOfTwoDoubleASingleRowOfTiles) {
  const SweepLaunch c = launch("cluster", {64, 28672, 8192});
  EXPECT_EQ(c.cluster_m, 2);
  EXPECT_EQ(c.tiles, 112);  // 28672 / 256
  EXPECT_EQ(c.blocks, 224);
  EXPECT_NEAR(c.waves, 224.0 / 132, 1e-9);
  EXPECT_NEAR(c.busy, 112.0 / (2 * 132), 1e-9);
  const SweepLaunch ws = launch("warp-specialized", {64, 28672, 8192});  // the same tiles, one wave
  EXPECT_EQ(ws.blocks, 112);
  EXPECT_NEAR(ws.busy, 112.0 / 132, 1e-9);
  // With an even number of tile rows nothing is rounded: 4096 x 8192 x 8192 = 32 x 32 tiles.
  const SweepLaunch even = launch("cluster", {4096, 8192, 8192});
  EXPECT_EQ(even.blocks, 1024);
  EXPECT_NEAR(even.busy, 1024.0 / (8 * 132), 1e-9);
}

// Long K with few tiles: 512 x 512 x 16384 is 2 x 4 tiles of 256 k-tiles. A grid stage runs 8
// blocks on 132 SMs; stage 19 splits the 4 cluster tiles' k-tiles over all its clusters.
TEST(SweepLaunch, LongKIsSplitOnlyByTheTileScheduler) {
  const SweepLaunch ws = launch("warp-specialized", {512, 512, 16384});
  EXPECT_EQ(ws.tiles, 8);
  EXPECT_EQ(ws.k_tiles, 256);
  EXPECT_EQ(ws.blocks, 8);
  EXPECT_EQ(ws.pieces, 0);
  EXPECT_NEAR(ws.busy, 8.0 / 132, 1e-9);
  const SweepLaunch p = launch("persistent", {512, 512, 16384});
  EXPECT_TRUE(p.persistent);
  EXPECT_EQ(p.tiles, 8);
  // 4 cluster tiles of 2 x 256 k-tiles, each cut into 16 k ranges of 16 for 16 clusters: 64 of
  // the 66 clusters launched work (persistent_schedule.h), 2 x 64 pieces.
  EXPECT_EQ(p.blocks, 132);
  EXPECT_EQ(p.pieces, 128);
  EXPECT_NEAR(p.busy, 64.0 / 66, 1e-4);
  // M = 16 is 32 cluster tiles of one real tile: K cut in 2 over 64 clusters, whose second
  // blocks only load B. Half the SMs compute: 48%, twice stage 17's 24%.
  const SweepLaunch m16 = launch("persistent", {16, 8192, 8192});
  EXPECT_EQ(m16.pieces, 64);
  EXPECT_NEAR(m16.busy, 64.0 / 132, 1e-4);
}

// Stage 19 launches only as many blocks as it has tiles for when there are few: 1024^3 is 16
// cluster tiles, 32 blocks, a quarter of the GPU; the same 24% as stage 17's 32 blocks.
TEST(SweepLaunch, FewTilesFewResidentBlocks) {
  const SweepLaunch p = launch("persistent", {1024, 1024, 1024});
  EXPECT_EQ(p.tiles, 32);
  EXPECT_EQ(p.blocks, 32);
  EXPECT_NEAR(p.busy, 32.0 / 132, 1e-9);
  const SweepLaunch big = launch("persistent", {4096, 8192, 8192});  // 1024 tiles on 132 blocks
  EXPECT_EQ(big.blocks, 132);
  EXPECT_GT(big.busy, 0.99);
  EXPECT_FALSE(sweep_launch(*find_stage_desc("naive"), {16, 16, 16}, *device_preset("h200")).ok());
  // Shapes a hostile results file may hold: refused, not planned block by block.
  const StageDesc& w = *find_stage_desc("wgmma");
  EXPECT_FALSE(sweep_launch(w, {0, 8192, 8192}, *device_preset("h200")).ok());
  EXPECT_FALSE(sweep_launch(w, {1 << 21, 8192, 8192}, *device_preset("h200")).ok());
  const auto huge = sweep_launch(w, {1 << 20, 1 << 20, 64}, *device_preset("h200"));  // 2^26 tiles
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error(), "67108864 tiles, more than the 262144 a sweep plans");
  EXPECT_TRUE(sweep_launch(w, {16384, 8192, 8192}, *device_preset("h200")).ok());
}

}  // namespace
