// Rasterization and partitioning against CUTLASS 4.7's own values (cutlass_layouts.json,
// identity_swizzle cases) and against small cases worked by hand from the CUTLASS formulas and
// the hand-written mma_base HGEMM's swizzle, through the library, the constexpr header and `gemmlab sim raster`.
#include <gtest/gtest.h>

#include "gemmlab/raster.h"
#include "gemmlab/raster_analysis.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

PlanRequest request(GemmCoord problem, GemmCoord tile, const std::string& order) {
  PlanRequest rq;
  rq.problem = problem;
  rq.tile = tile;
  auto o = parse_order(order);
  EXPECT_TRUE(o.ok()) << o.error();
  if (o) rq.order = *o;
  return rq;
}

std::vector<std::pair<int, int>> tiles_of(const BlockPlan& p) {
  std::vector<std::pair<int, int>> v;
  for (const auto& b : p.blocks) v.push_back({b.tile.m, b.tile.n});
  return v;
}

std::string tuple(int a, int b, int c = -1) {
  return std::to_string(a) + "," + std::to_string(b) + (c >= 0 ? "," + std::to_string(c) : "");
}

}  // namespace

TEST(Raster, ReferenceHasIdentitySwizzleCases) {
  EXPECT_EQ(test::cutlass_cases("identity_swizzle").size(), 5u);
}

TEST(Raster, IdentitySwizzleMatchesCutlassThroughHeader) {
  for (const auto& c : test::cutlass_cases("identity_swizzle")) {
    SCOPED_TRACE(c.dump().substr(0, 120));
    const int n = c["N"];
    const GemmCoord problem{c["problem"][0], c["problem"][1], c["problem"][2]};
    const GemmCoord tile{c["tile"][0], c["tile"][1], 32};
    const GemmCoord tiled = identity_swizzle::get_tiled_shape(problem, tile, 1);
    EXPECT_EQ(tiled.m, c["tiled_shape"][0]);
    EXPECT_EQ(tiled.n, c["tiled_shape"][1]);
    EXPECT_EQ(tiled.k, c["tiled_shape"][2]);
    const int log_tile = identity_swizzle::get_log_tile(n, tiled);
    EXPECT_EQ(log_tile, c["log_tile"]);
    const Dim3 grid = identity_swizzle::get_grid_shape(n, tiled);
    EXPECT_EQ(grid.x, c["grid"][0]);
    EXPECT_EQ(grid.y, c["grid"][1]);
    EXPECT_EQ(grid.z, c["grid"][2]);
    ASSERT_EQ(grid_block_count(grid), static_cast<long long>(c["tile_of_block"].size()));
    for (long long i = 0; i < grid_block_count(grid); ++i) {
      const GemmCoord t = identity_swizzle::get_tile_offset(log_tile, block_of_linear_index(i, grid));
      EXPECT_EQ(t.m, c["tile_of_block"][i][0]) << "block " << i;
      EXPECT_EQ(t.n, c["tile_of_block"][i][1]) << "block " << i;
    }
  }
}

TEST(Raster, IdentitySwizzleMatchesCutlassThroughCli) {
  for (const auto& c : test::cutlass_cases("identity_swizzle")) {
    SCOPED_TRACE(c.dump().substr(0, 120));
    auto r = test::run_gemmlab({"sim", "raster", "--order", "identity:" + std::to_string(int(c["N"])),
                                "--problem", tuple(c["problem"][0], c["problem"][1], c["problem"][2]),
                                "--tile", tuple(c["tile"][0], c["tile"][1])});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out["grid"], c["grid"]);
    EXPECT_EQ(out["log_tile"], c["log_tile"]);
    EXPECT_EQ(out["tiled_shape"], c["tiled_shape"]);
    EXPECT_EQ(out["tile_of_block"], c["tile_of_block"]);
  }
}

TEST(Raster, PaddingBlocksPastTheEdgeAreNoOps) {
  // CUTLASS case N=8, 1024x384: 3 n tiles, log_tile 2 -> every 4th block names n tile 3.
  auto p = make_block_plan(request({1024, 384, 64}, {128, 128, 32}, "identity:8"));
  ASSERT_TRUE(p.ok()) << p.error();
  ASSERT_EQ(p->blocks.size(), 32u);
  for (size_t i = 0; i < 32; ++i)
    EXPECT_EQ(p->blocks[i].kind == BlockKind::NoOp, i % 4 == 3) << "block " << i;
  EXPECT_EQ(check_plan_coverage(*p), "");
}

TEST(Raster, LaunchOrderIsXThenYThenZ) {
  const Dim3 g{3, 2, 2};
  EXPECT_EQ(linear_block_index(Dim3{2, 1, 1}, g), 2 + 3 * (1 + 2 * 1));
  EXPECT_TRUE((block_of_linear_index(11, g) == Dim3{2, 1, 1}));
}

// Seed 004: block_tile_i = (z & 1) ? gridDim.y - y - 1 : y; block_tile_j = z * gridDim.x + x.
// 512 x 768 with 128 x 128 tiles = 4 x 6 tiles; stride 2 -> grid (2, 4, 3).
TEST(Raster, SerpentineFollowsSeed004) {
  auto p = make_block_plan(request({512, 768, 64}, {128, 128, 32}, "serpentine:2"));
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_TRUE((p->grid == Dim3{2, 4, 3}));
  const std::vector<std::pair<int, int>> expected = {
      {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1},   // z = 0: rows top-down
      {3, 2}, {3, 3}, {2, 2}, {2, 3}, {1, 2}, {1, 3}, {0, 2}, {0, 3},   // z = 1: rows bottom-up
      {0, 4}, {0, 5}, {1, 4}, {1, 5}, {2, 4}, {2, 5}, {3, 4}, {3, 5}};  // z = 2: top-down again
  EXPECT_EQ(tiles_of(*p), expected);
  EXPECT_EQ(check_plan_coverage(*p), "");
}

TEST(Raster, SerpentineDefaultStrideIsSeed004s16) {
  // 8192 x 8192 with the seed's 256 x 128 tile: grid (16, 32, 4), as its launch code computes.
  auto p = make_block_plan(request({8192, 8192, 64}, {256, 128, 32}, "serpentine"));
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_TRUE((p->grid == Dim3{16, 32, 4}));
}

// SM90 get_work_idx_m_and_n with cluster 1x1, worked by hand.
TEST(Raster, AlongNWithSwizzleTwo) {
  // 4 x 4 tiles, max swizzle 2 -> log 1: pairs of m rows walk along n.
  auto p = make_block_plan(request({512, 512, 64}, {128, 128, 32}, "along-n:2"));
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->log_tile, 1);
  const std::vector<std::pair<int, int>> expected = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},
                                                     {0, 3}, {1, 3}, {2, 0}, {3, 0}, {2, 1}, {3, 1},
                                                     {2, 2}, {3, 2}, {2, 3}, {3, 3}};
  EXPECT_EQ(tiles_of(*p), expected);
}

TEST(Raster, AlongMRoundsUpToTheSwizzleAndPadsWithNoOps) {
  // 3 x 5 tiles, max swizzle 2 -> log 1 (min(3,5) >= 2); tiles rounded up to 4 x 6.
  // AlongM: offset = w & 1 -> n, extra = w >> 1: m = extra % 4, n = (extra / 4) * 2 + offset.
  auto p = make_block_plan(request({384, 640, 64}, {128, 128, 32}, "along-m:2"));
  ASSERT_TRUE(p.ok()) << p.error();
  ASSERT_EQ(p->blocks.size(), 24u);
  const std::vector<std::pair<int, int>> first10 = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0},
                                                    {2, 1}, {3, 0}, {3, 1}, {0, 2}, {0, 3}};
  const auto tiles = tiles_of(*p);
  EXPECT_EQ((std::vector<std::pair<int, int>>(tiles.begin(), tiles.begin() + 10)), first10);
  EXPECT_EQ(p->blocks[6].kind, BlockKind::NoOp);  // m tile 3 of 3
  EXPECT_EQ(check_plan_coverage(*p), "");
}

TEST(Raster, UserListOrder) {
  auto p = make_block_plan(request({256, 256, 64}, {128, 128, 32}, "list:1,1;0,0;1,0;0,1"));
  ASSERT_TRUE(p.ok()) << p.error();
  const std::vector<std::pair<int, int>> expected = {{1, 1}, {0, 0}, {1, 0}, {0, 1}};
  EXPECT_EQ(tiles_of(*p), expected);
  EXPECT_FALSE(make_block_plan(request({256, 256, 64}, {128, 128, 32}, "list:1,1;0,0;1,0")).ok());
  EXPECT_FALSE(make_block_plan(request({256, 256, 64}, {128, 128, 32}, "list:1,1;0,0;1,0;1,0")).ok());
  EXPECT_FALSE(make_block_plan(request({256, 256, 64}, {128, 128, 32}, "list:1,1;0,0;1,0;2,0")).ok());
}

// kernel::Gemm (SplitKSerial) rounds each slice's iterations up; GemmSplitKParallel rounds down
// and gives the rest to the last slice. K = 1000, TK = 32 (32 iterations, 31 whole), 4 slices:
//   serial:   gemm_k_size = ceil(32/4)*32 = 256  -> [0,256) [256,512) [512,768) [768,1000)
//   parallel: gemm_k_size = (31/4)*32 = 224      -> [0,224) [224,448) [448,672) [672,1000)
TEST(Raster, SplitKRangesFollowCutlass) {
  for (int s = 0; s < 4; ++s) {
    const KRange serial = split_k_serial_range(s, 1000, 32, 4);
    const KRange parallel = split_k_parallel_range(s, 1000, 32, 4);
    EXPECT_EQ(serial.begin, 256 * s);
    EXPECT_EQ(serial.end, s == 3 ? 1000 : 256 * (s + 1));
    EXPECT_EQ(parallel.begin, 224 * s);
    EXPECT_EQ(parallel.end, s == 3 ? 1000 : 224 * (s + 1));
  }
  PlanRequest rq = request({64, 64, 1000}, {64, 64, 32}, "launch");
  rq.partition = Partition::SplitKSerial;
  rq.split_k = 4;
  auto p = make_block_plan(rq);
  ASSERT_TRUE(p.ok()) << p.error();
  ASSERT_EQ(p->blocks.size(), 4u);  // one tile, blockIdx.z = slice
  const int expected_iters[4][2] = {{0, 8}, {8, 16}, {16, 24}, {24, 32}};
  for (int s = 0; s < 4; ++s) {
    const WorkSegment& w = p->segments[static_cast<size_t>(p->blocks[static_cast<size_t>(s)].first_segment)];
    EXPECT_EQ(p->blocks[static_cast<size_t>(s)].block_idx.z, s);
    EXPECT_EQ(w.k_iter_begin, expected_iters[s][0]);
    EXPECT_EQ(w.k_iter_end, expected_iters[s][1]);
  }
  EXPECT_EQ(check_plan_coverage(*p), "");
  rq.partition = Partition::SplitKParallel;
  p = make_block_plan(rq);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->segments[3].k_iter_begin, 21);
  EXPECT_EQ(p->segments[3].k_iter_end, 32);
  EXPECT_EQ(check_plan_coverage(*p), "");
}

TEST(Raster, SerialSplitKCanLeaveAnEmptyLastSlice) {
  // 10 iterations over 6 slices: ceil(10/6) = 2 per slice -> slices 0..4 cover all, slice 5 none.
  PlanRequest rq = request({64, 64, 320}, {64, 64, 32}, "launch");
  rq.partition = Partition::SplitKSerial;
  rq.split_k = 6;
  auto p = make_block_plan(rq);
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_EQ(p->segments[5].k_iter_begin, p->segments[5].k_iter_end);
  EXPECT_EQ(p->segments[4].k_iter_end, 10);
  EXPECT_EQ(check_plan_coverage(*p), "");
}

// ThreadblockSwizzleStreamK on 4 SMs, one block per SM, 3 x 3 tiles of 8 iterations (the
// paper's 4-SM picture). By hand: 2 full waves + 1 tile -> the last full wave joins the partial
// one: dp_tiles = 4, get_sk_blocks(5 tiles, 8 iters, 4 SMs, occupancy 1, no partial wave):
// trial 4 -> 10 iterations each, savings 16 - 10 - int(2 + 0.4 + 4) = 0 >= 0 -> 4 SK blocks.
// SK block b covers global iterations [10b, 10b+10) of tiles 0..4 (tile t = iterations 8t..8t+7)
// and walks its tiles backwards; DP blocks 4..7 take tiles 5..8.
TEST(Raster, StreamKFourSmPicture) {
  PlanRequest rq = request({384, 384, 256}, {128, 128, 32}, "launch");
  rq.partition = Partition::StreamK;
  rq.sms = 4;
  rq.sm_occupancy = 1;
  auto p = make_block_plan(rq);
  ASSERT_TRUE(p.ok()) << p.error();
  const auto& s = p->streamk;
  EXPECT_EQ(s.iters_per_tile, 8);
  EXPECT_EQ(s.dp_tiles, 4);
  EXPECT_EQ(s.sk_tiles, 5);
  EXPECT_EQ(s.sk_blocks, 4);
  EXPECT_EQ(s.sk_waves, 1);
  EXPECT_EQ(s.sk_iters_per_normal_block, 10);
  EXPECT_EQ(s.sk_big_blocks_per_region, 0);
  EXPECT_EQ(s.dp_blocks, 4);
  EXPECT_FALSE(s.cohort_raster);
  ASSERT_EQ(p->blocks.size(), 8u);
  struct Seg {
    int m, n, kb, ke;
    SegmentRole role;
    int peers;
  };
  const std::vector<std::vector<Seg>> expected = {
      {{0, 1, 0, 2, SegmentRole::SkPartial, 0}, {0, 0, 0, 8, SegmentRole::Full, 0}},
      {{0, 2, 0, 4, SegmentRole::SkPartial, 0}, {0, 1, 2, 8, SegmentRole::SkFinish, 1}},
      {{1, 0, 0, 6, SegmentRole::SkPartial, 0}, {0, 2, 4, 8, SegmentRole::SkFinish, 1}},
      {{1, 1, 0, 8, SegmentRole::Full, 0}, {1, 0, 6, 8, SegmentRole::SkFinish, 1}},
      {{1, 2, 0, 8, SegmentRole::Full, 0}},
      {{2, 0, 0, 8, SegmentRole::Full, 0}},
      {{2, 1, 0, 8, SegmentRole::Full, 0}},
      {{2, 2, 0, 8, SegmentRole::Full, 0}}};
  for (size_t b = 0; b < 8; ++b) {
    SCOPED_TRACE("block " + std::to_string(b));
    const BlockWork& bw = p->blocks[b];
    ASSERT_EQ(bw.segment_count, static_cast<int>(expected[b].size()));
    for (int i = 0; i < bw.segment_count; ++i) {
      const WorkSegment& w = p->segments[static_cast<size_t>(bw.first_segment + i)];
      const Seg& e = expected[b][static_cast<size_t>(i)];
      EXPECT_EQ(w.m_tile, e.m);
      EXPECT_EQ(w.n_tile, e.n);
      EXPECT_EQ(w.k_iter_begin, e.kb);
      EXPECT_EQ(w.k_iter_end, e.ke);
      EXPECT_EQ(w.role, e.role);
      if (e.role == SegmentRole::SkFinish) {
        EXPECT_EQ(w.peers, e.peers);
      }
    }
  }
  EXPECT_EQ(check_plan_coverage(*p), "");
}

// Stream-k's plan for a realistic launch still covers every tile's k exactly once, whatever
// heuristics branch it takes (cohort raster, first-wave DP tiles, index remapping).
TEST(Raster, StreamKCoversEveryTileOnce) {
  const GemmCoord problems[] = {{4096, 4096, 4096}, {1000, 3000, 777}, {8192, 256, 8192}, {384, 384, 64}};
  for (const auto& pr : problems)
    for (int occ : {1, 2, 3}) {
      SCOPED_TRACE(tuple(pr.m, pr.n, pr.k) + " occupancy " + std::to_string(occ));
      PlanRequest rq = request(pr, {128, 128, 32}, "launch");
      rq.partition = Partition::StreamK;
      rq.sms = 132;
      rq.sm_occupancy = occ;
      auto p = make_block_plan(rq);
      ASSERT_TRUE(p.ok()) << p.error();
      EXPECT_EQ(check_plan_coverage(*p), "");
    }
}

TEST(Raster, EveryOrderCoversEveryTileOnce) {
  for (const char* order : {"launch", "identity:1", "identity:2", "identity:4", "identity:8", "serpentine",
                            "serpentine:3", "along-m:1", "along-m:8", "along-n:4"}) {
    for (const GemmCoord pr : {GemmCoord{1000, 1500, 300}, GemmCoord{4096, 512, 64}, GemmCoord{100, 100, 100}}) {
      SCOPED_TRACE(std::string(order) + " " + tuple(pr.m, pr.n, pr.k));
      auto p = make_block_plan(request(pr, {128, 64, 32}, order));
      ASSERT_TRUE(p.ok()) << p.error();
      EXPECT_EQ(check_plan_coverage(*p), "");
    }
  }
}

TEST(Raster, InvalidInputsNameTheRule) {
  auto err = [](PlanRequest rq) {
    auto p = make_block_plan(rq);
    EXPECT_FALSE(p.ok());
    return p.ok() ? std::string() : p.error();
  };
  EXPECT_NE(err(request({0, 10, 10}, {8, 8, 8}, "launch")).find("positive"), std::string::npos);
  EXPECT_NE(err(request({10, 10, 10}, {8, -8, 8}, "launch")).find("positive"), std::string::npos);
  EXPECT_NE(err(request({1 << 21, 10, 10}, {8, 8, 8}, "launch")).find("at most"), std::string::npos);
  // 1M x 1M with 1x1 tiles: far too many blocks (and gridDim.y would pass 65535).
  EXPECT_FALSE(make_block_plan(request({1 << 20, 1 << 20, 8}, {1, 1, 8}, "launch")).ok());
  PlanRequest split = request({64, 64, 64}, {64, 64, 32}, "launch");
  split.partition = Partition::SplitKSerial;
  split.split_k = 3;
  EXPECT_NE(err(split).find("exceeds the 2 k iterations"), std::string::npos);
  split.split_k = 2;
  split.order = *parse_order("serpentine");
  EXPECT_NE(err(split).find("gridDim.z"), std::string::npos);
  PlanRequest sk = request({64, 64, 64}, {64, 64, 32}, "identity:8");
  sk.partition = Partition::StreamK;
  sk.sms = 132;
  EXPECT_NE(err(sk).find("stream-k orders tiles itself"), std::string::npos);
  for (const char* bad : {"identity:3", "identity", "spiral", "along-m:3", "serpentine:0", "list:1", "launch:2"}) {
    auto o = parse_order(bad);
    EXPECT_FALSE(o.ok()) << bad;
  }
}

TEST(Raster, CliRejectsMalformedInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"sim", "raster", "--problem", "64,64", "--tile", "32,32"},
      {"sim", "raster", "--problem", "64,64,64", "--tile", "32,32", "--order", "zigzag"},
      {"sim", "raster", "--problem", "64,64,64", "--tile", "32,32", "--split-k", "2"},
      {"sim", "raster", "--problem", "64,64,64", "--tile", "32,32,32", "--split-k", "2", "--stream-k"},
      {"sim", "raster", "--problem", "64,64,64", "--tile", "32,32", "--bogus", "1"},
      {"sim", "raster", "--problem", "64,x,64", "--tile", "32,32"},
  };
  for (const auto& args : bad) {
    auto r = test::run_gemmlab(args);
    EXPECT_EQ(r.exit_code, 2) << args[3];
    EXPECT_FALSE(r.err.empty());
  }
}
