// Stage 18's grid in clusters of two along m (hopper_launch.cuh serpentine_cluster_grid): an odd
// number of tile rows is rounded up to whole clusters, and the blocks past M run the main loop to
// load B for their peer (cluster_multicast.cuh). plan_launch models it, so the Grid view,
// `gemmlab sim schedule` and the sweep show the blocks the kernel launches.
#include <gtest/gtest.h>

#include "gemmlab/launch_plan.h"
#include "gemmlab/sweep_launch.h"

using namespace gemmlab;

namespace {

LaunchPlan cluster_plan(GemmCoord problem) {
  auto spec = stage_launch_spec(*find_stage_desc("cluster"), problem);
  EXPECT_TRUE(spec.ok());
  auto p = plan_launch(*spec, *device_preset("h200"));
  EXPECT_TRUE(p.ok()) << (p ? "" : p.error());
  return p ? *p : LaunchPlan{};
}

int pads(const BlockPlan& plan) {
  int n = 0;
  for (const WorkSegment& s : plan.segments) n += s.role == SegmentRole::ClusterPad;
  return n;
}

}  // namespace

// 64 x 28672 x 8192: one row of 112 tiles of 128 x 256, rounded up to a cluster of two rows:
// grid (8, 2, 14), 224 blocks, 112 of them loading B for their peer; 224 blocks on 132 SMs.
TEST(ClusterPadding, OneTileRowLaunchesTwo) {
  const LaunchPlan p = cluster_plan({64, 28672, 8192});
  EXPECT_EQ(p.plan.grid.x, 8);
  EXPECT_EQ(p.plan.grid.y, 2);
  EXPECT_EQ(p.plan.grid.z, 14);
  EXPECT_EQ(p.plan.blocks.size(), 224u);
  EXPECT_EQ(p.waves.work_blocks, 224);
  EXPECT_EQ(pads(p.plan), 112);
  EXPECT_EQ(p.tiles.alone, 112);  // every real tile still has its one block
  EXPECT_EQ(check_plan_coverage(p.plan), "");
  // A padding block runs all 128 k-tiles and no epilogue.
  for (const Phase& ph : p.timeline.phases) {
    const WorkSegment& s = p.plan.segments[static_cast<size_t>(ph.segment)];
    if (s.role != SegmentRole::ClusterPad) continue;
    EXPECT_EQ(ph.kind, PhaseKind::Mainloop);
    EXPECT_DOUBLE_EQ(ph.end - ph.start, 128.0);
    EXPECT_EQ(s.tile_index, -1);
    EXPECT_EQ(s.m_tile, 1);
  }
  // Two waves: 132 blocks, then 92 (128 k-tiles + the epilogue of the real ones).
  EXPECT_DOUBLE_EQ(p.timeline.makespan, 2 * 129.0);
}

// Odd slabs run their rows bottom-up over the rounded grid (serpentine get_tile_offset with the
// kernel's gridDim.y): 384 x 4096 is 3 x 16 tiles in slabs of 8; the grid is (8, 4, 2), and the
// padding row 3 is blockIdx.y 3 in slab 0 and blockIdx.y 0 in slab 1.
TEST(ClusterPadding, OddSlabsPadAtTheirFirstRow) {
  const LaunchPlan p = cluster_plan({384, 4096, 512});
  EXPECT_EQ(p.plan.grid.y, 4);
  EXPECT_EQ(p.plan.blocks.size(), 64u);
  EXPECT_EQ(pads(p.plan), 16);
  for (const BlockWork& b : p.plan.blocks) {
    const WorkSegment& s = p.plan.segments[static_cast<size_t>(b.first_segment)];
    const bool pad = s.role == SegmentRole::ClusterPad;
    EXPECT_EQ(pad, b.block_idx.y == (b.block_idx.z == 0 ? 3 : 0)) << b.block_idx.y << "," << b.block_idx.z;
  }
  // The L2 replay reads no A past M, and charges every DRAM sector it reads to a real C tile
  // (a padding block's B part to its peer's).
  auto l2 = replay_launch_l2(p);
  ASSERT_TRUE(l2.ok()) << l2.error();
  ASSERT_EQ(l2->c_tile_dram_sectors.size(), 48u);
  std::uint64_t charged = 0;
  for (std::uint32_t sectors : l2->c_tile_dram_sectors) charged += sectors;
  EXPECT_EQ(charged, l2->counters.dram_read_sectors);
  // 4.5 MB in a 60 MB L2: A and B each come from DRAM once.
  EXPECT_EQ(l2->counters.dram_read_sectors * 32, l2->compulsory_read_bytes);
}

// An even number of rows is not padded, and stage 17 (no cluster) never is.
TEST(ClusterPadding, EvenRowsAndOtherStagesAreUnchanged) {
  EXPECT_EQ(pads(cluster_plan({4096, 8192, 8192}).plan), 0);
  EXPECT_EQ(cluster_plan({4096, 8192, 8192}).plan.blocks.size(), 1024u);
  auto ws = plan_launch(*stage_launch_spec(*find_stage_desc("warp-specialized"), {64, 28672, 8192}), *device_preset("h200"));
  ASSERT_TRUE(ws.ok());
  EXPECT_EQ(ws->plan.blocks.size(), 112u);
  // The sweep's launch reads the same plan: 224 blocks, the real tiles' work over 2 waves.
  const auto w = sweep_launch(*find_stage_desc("cluster"), {64, 28672, 8192}, *device_preset("h200"));
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->blocks, 224);
  EXPECT_NEAR(w->busy, 112.0 * 129 / (2 * 129.0 * 132), 1e-9);
}
