// The `auto` stage (issue 51): gemmlab/auto_dispatch.h's rule on the shape sweep's shapes on an
// H200 (132 SMs), the stage each pick runs, the sentence, and the simulator planning the chosen
// stage's launch for it. Tile counts worked out by hand beside each row.
#include <gtest/gtest.h>

#include "gemmlab/dispatch.h"
#include "gemmlab/launch_plan.h"
#include "gemmlab/sweep_launch.h"

using namespace gemmlab;

namespace {

DeviceDesc h200() { return *device_preset("h200"); }

struct Expect {
  GemmCoord problem;
  AutoRule rule;
  const char* stage;
  long long big, small;  // tiles of 128 x 256 and of 64 x 128
  int k_tiles;
};

// clang-format off
const Expect kTable[] = {
  {{4096, 8192, 8192},  AutoRule::FullWaves,  "persistent",       32 * 32,  64 * 64, 128},
  {{4096, 28672, 8192}, AutoRule::FullWaves,  "persistent",       32 * 112, 64 * 224, 128},
  {{4096, 8192, 28672}, AutoRule::FullWaves,  "persistent",       32 * 32,  64 * 64, 448},
  {{4096, 10240, 8192}, AutoRule::FullWaves,  "persistent",       32 * 40,  64 * 80, 128},
  {{16384, 8192, 8192}, AutoRule::FullWaves,  "persistent",       128 * 32, 256 * 64, 128},
  {{8192, 1024, 8192},  AutoRule::FullWaves,  "persistent",       64 * 4,   128 * 8, 128},  // 256 >= 132
  {{2048, 2048, 2048},  AutoRule::OneWave,    "warp-specialized", 16 * 8,   32 * 16, 32},   // 128 >= 105.6
  // 64-row tiles that fit the 132 SMs one block each: 19e.
  {{128, 8192, 8192},   AutoRule::SmTiles,    "wgmma-deep",       32,       2 * 64, 128},   // 128 <= 132
  {{96, 8192, 8192},    AutoRule::SmTiles,    "wgmma-deep",       32,       2 * 64, 128},
  {{112, 8192, 8192},   AutoRule::SmTiles,    "wgmma-deep",       32,       2 * 64, 128},
  {{96, 4096, 4096},    AutoRule::SmTiles,    "wgmma-deep",       16,       2 * 32, 64},
  {{16, 8192, 8192},    AutoRule::SmTiles,    "wgmma-deep",       32,       64, 128},       // M = 16
  {{16, 8192, 1024},    AutoRule::SmTiles,    "wgmma-deep",       32,       64, 16},
  // M > 128 where 19f's 128-row tiles with their slices make as many blocks as 19e's (one per SM):
  // 512 x 512 x 16384: 16 x 8 = 128 against 32 x 4; 256 x 4096 x 8192: 64 x 2 against 128 x 1.
  {{512, 512, 16384},   AutoRule::SmRows,     "wgmma-deep-128",   4 * 2,    8 * 4, 256},
  {{256, 4096, 8192},   AutoRule::SmRows,     "wgmma-deep-128",   2 * 16,   4 * 32, 128},
  {{512, 1024, 8192},   AutoRule::SmRows,     "wgmma-deep-128",   4 * 4,    8 * 8, 128},
  // 448 rows: the last row of 128 holds 64: 19e (28 tiles x 4 slices).
  {{448, 512, 16384},   AutoRule::SmTiles,    "wgmma-deep",       4 * 2,    7 * 4, 256},
  // 1024^3: 64 tiles of 128 x 128 in one slice (16 k-tiles) against 128 of 64 x 128: 19e.
  {{1024, 1024, 1024},  AutoRule::SmTiles,    "wgmma-deep",       8 * 4,    16 * 8, 16},
  // 1056 x 1024 x 1024: 136 tiles of 64 x 128 > 132; 72 of 128 x 128 in one slice (16 k-tiles) would
  // leave 60 SMs idle: 19b.
  {{1056, 1024, 1024},  AutoRule::FewTiles,   "wgmma-split-k",    9 * 4,    17 * 8, 16},
  {{64, 28672, 8192},   AutoRule::ThinRows,   "wgmma-split-k",    112,      224, 128},      // 224 > 132
  {{64, 30720, 8192},   AutoRule::ThinRows,   "wgmma-split-k",    120,      240, 128},
  // 448 tiles of 64 x 128 > 264 slots, 224 of 128 x 128 fit. At M <= 64 the tiles are the same:
  // 19b (and past 264 of them the big tiles fill the SMs).
  {{128, 28672, 8192},  AutoRule::OneRow,     "wgmma-split-k-128", 112,     2 * 224, 128},
  {{65, 28672, 8192},   AutoRule::OneRow,     "wgmma-split-k-128", 112,     2 * 224, 128},
  // M = 96, N = 16384: 256 tiles of 64 x 128 do not fit the SMs one block each, 128 of 128 x 128 do.
  {{96, 16384, 8192},   AutoRule::RowWave,    "wgmma-deep-128",   64,       2 * 128, 128},
  {{65, 16384, 8192},   AutoRule::RowWave,    "wgmma-deep-128",   64,       2 * 128, 128},
  {{256, 8192, 8192},   AutoRule::RowWave,    "wgmma-deep-128",   2 * 32,   4 * 64, 128},
  // N = 24576: 192 tiles of 128 x 128 do not fit the SMs one block each; they fit 19d's 264 slots.
  {{96, 24576, 8192},   AutoRule::OneRow,     "wgmma-split-k-128", 96,      2 * 192, 128},
  // N = 40960: 320 do not, but 160 tiles of 128 x 256 make a full wave: 19a.
  {{96, 40960, 8192},   AutoRule::FullWaves,  "persistent",       160,      2 * 320, 128},
  // Ragged: 104 big tiles is 78.8% of 132, under 4/5; 106 is 80.3%.
  {{256, 13312, 8192},  AutoRule::FewTiles,   "wgmma-split-k",    2 * 52,   4 * 104, 128},
  {{256, 13568, 8192},  AutoRule::OneWave,    "warp-specialized", 2 * 53,   4 * 106, 128},
  // 128 tiles of 128 x 128 whose second row is part-used: 19b.
  {{129, 8192, 8192},   AutoRule::FewTiles,   "wgmma-split-k",    2 * 32,   3 * 64, 128},
  {{192, 8192, 8192},   AutoRule::FewTiles,   "wgmma-split-k",    2 * 32,   3 * 64, 128},
};
// clang-format on

}  // namespace

TEST(AutoDispatch, EachShapeClassPicksTheLaunchThatWonThere) {
  for (const Expect& e : kTable) {
    SCOPED_TRACE(std::to_string(e.problem.m) + "x" + std::to_string(e.problem.n) + "x" + std::to_string(e.problem.k));
    const auto d = dispatch_auto(e.problem, h200());
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_EQ(d->pick.rule, e.rule);
    EXPECT_STREQ(d->stage->id, e.stage);
    EXPECT_EQ(d->pick.big_tiles, e.big);
    EXPECT_EQ(d->pick.small_tiles, e.small);
    EXPECT_EQ(d->pick.k_tiles, e.k_tiles);
    // The registry's dispatcher row launches the same stage.
    EXPECT_STREQ(launched_stage(*find_stage_desc("auto"), e.problem, 132).id, e.stage);
  }
}

// Fewer SMs move the classes: on 100 SMs 2048^3's 128 big tiles are a full wave.
TEST(AutoDispatch, TheSmCountIsPartOfTheRule) {
  DeviceDesc d = h200();
  d.sms = 100;
  EXPECT_EQ(dispatch_auto({2048, 2048, 2048}, d)->pick.rule, AutoRule::FullWaves);
  EXPECT_EQ(dispatch_auto({1024, 1024, 1024}, d)->pick.rule, AutoRule::FewTiles);  // 128 small tiles > 100
  d.sms = 200;  // 128 of 200 is 64%: less than one wave of big tiles
  EXPECT_EQ(dispatch_auto({2048, 2048, 2048}, d)->pick.rule, AutoRule::FewTiles);
  EXPECT_FALSE(dispatch_auto({0, 8, 8}, h200()).ok());
  d.sms = 0;
  EXPECT_FALSE(dispatch_auto({8, 8, 8}, d).ok());
}

TEST(AutoDispatch, TheSentenceNamesTheFactsAndTheStage) {
  EXPECT_EQ(dispatch_auto({64, 28672, 8192}, h200())->explanation,
            "M = 64: one row of tiles with 64 of its 128 rows used, so the work is reading B -> 19b wgmma split-K: "
            "64 x 128 tiles, K cut into as many slices as fill one wave");
  EXPECT_EQ(dispatch_auto({128, 8192, 8192}, h200())->explanation,
            "M = 128: 128 tiles of 64 x 128 fit the 132 SMs one block each -> 19e wgmma deep pipeline: 8 stages in "
            "flight per SM, K cut only where the tiles fill half the SMs or fewer");
  EXPECT_EQ(dispatch_auto({2048, 2048, 2048}, h200())->explanation,
            "M = 2048: one wave of 128 tiles of 128 x 256 fills 97% of the 132 SMs -> 17 warp specialization: one "
            "block per tile, no round to even out, no cluster partner idle");
  EXPECT_EQ(dispatch_auto({4096, 8192, 8192}, h200())->explanation,
            "M = 4096: 1024 tiles of 128 x 256 fill the 132 SMs 7.8 times -> 19a persistent blocks: its scheduler "
            "evens out the last round, its clusters share B");
  EXPECT_EQ(dispatch_auto({256, 13312, 8192}, h200())->explanation,
            "M = 256: 104 tiles of 128 x 256 would fill 79% of the 132 SMs -> 19b wgmma split-K: 64 x 128 tiles, "
            "twice the blocks, and K (128 k-tiles) cut into slices that fill one wave where each keeps 16 k-tiles");
  EXPECT_EQ(fill_sentence("%s of %s, 50%%", {"a", "b"}), "a of b, 50%");
  EXPECT_EQ(dispatch_auto({128, 28672, 8192}, h200())->explanation,
            "M = 128: 448 tiles of 64 x 128 would not fit one wave of 264 blocks (2 per SM), 224 tiles of 128 x 128 "
            "do -> 19d wgmma split-K, 128-row tiles: two warpgroups share each B box");
  EXPECT_EQ(dispatch_auto({512, 512, 16384}, h200())->explanation,
            "M = 512: 32 tiles of 64 x 128 fit the 132 SMs one block each; 16 tiles of 128 x 128 with K cut make at "
            "least as many blocks (128) -> 19f wgmma deep pipeline, 128-row tiles: two warpgroups share each B box, so "
            "each k-tile's A and B feed twice the math");
  EXPECT_EQ(dispatch_auto({96, 16384, 8192}, h200())->explanation,
            "M = 96: 256 tiles of 64 x 128 would not fit the 132 SMs one block each, 128 tiles of 128 x 128 do (128 "
            "blocks) -> 19f wgmma deep pipeline, 128-row tiles: two warpgroups share each B box, 6 stages in flight "
            "per SM");
  EXPECT_EQ(auto_sentence_formats().size(), 8u);
}

// The simulator plans the chosen stage's launch for the dispatcher: its tile, grid and schedule.
TEST(AutoDispatch, PlanLaunchRunsTheChosenStagesLaunch) {
  const StageDesc& a = *find_stage_desc("auto");
  EXPECT_FALSE(stage_launch_spec(a, {16, 8192, 8192}).ok());  // no device: no pick
  for (const auto& [problem, chosen] : {std::pair{GemmCoord{2048, 2048, 2048}, "warp-specialized"},
                                        {GemmCoord{1024, 1024, 1024}, "wgmma-deep"},
                                        {GemmCoord{64, 28672, 8192}, "wgmma-split-k"},
                                        {GemmCoord{128, 28672, 8192}, "wgmma-split-k-128"},
                                        {GemmCoord{16, 8192, 8192}, "wgmma-deep"},
                                        {GemmCoord{512, 512, 16384}, "wgmma-deep-128"},
                                        {GemmCoord{4096, 8192, 8192}, "persistent"}}) {
    const auto mine = plan_launch(*stage_launch_spec(a, problem, h200()), h200());
    const auto theirs = plan_launch(*stage_launch_spec(*find_stage_desc(chosen), problem), h200());
    ASSERT_TRUE(mine.ok() && theirs.ok());
    EXPECT_EQ(mine->spec.tile, theirs->spec.tile);
    EXPECT_EQ(mine->plan.blocks.size(), theirs->plan.blocks.size());
    EXPECT_EQ(mine->tail_pieces, theirs->tail_pieces);
    EXPECT_DOUBLE_EQ(mine->timeline.makespan, theirs->timeline.makespan);
  }
  // 2048^3: stage 17's one wave of 128 blocks of 128 x 256.
  const auto ws = plan_launch(*stage_launch_spec(a, {2048, 2048, 2048}, h200()), h200());
  EXPECT_EQ(ws->spec.tile, (GemmCoord{128, 256, 64}));
  EXPECT_EQ(ws->plan.blocks.size(), 128u);
  // 1024^3: stage 19e's 16 x 8 tiles of 64 x 128, one block per SM (197 KB), one slice (K = 16
  // k-tiles is too short to cut).
  const auto deep = plan_launch(*stage_launch_spec(a, {1024, 1024, 1024}, h200()), h200());
  EXPECT_EQ(deep->spec.tile, (GemmCoord{64, 128, 64}));
  EXPECT_EQ(deep->blocks_per_sm, 1);
  EXPECT_EQ(deep->plan.blocks.size(), 128u);
  EXPECT_EQ(deep->split_k, 1);
  // 16 x 8192 x 8192: 64 tiles on 132 slots -> 2 slices fit one wave (3 would need 192) -> 128 blocks.
  const auto thin = plan_launch(*stage_launch_spec(a, {16, 8192, 8192}, h200()), h200());
  EXPECT_EQ(thin->blocks_per_sm, 1);
  EXPECT_EQ(thin->split_k, 2);
  EXPECT_EQ(thin->plan.blocks.size(), 128u);
  // 128 x 28672 x 8192: 19d's 224 tiles of 128 x 128, 256 threads, 2 blocks per SM -> one slice.
  const auto row = plan_launch(*stage_launch_spec(a, {128, 28672, 8192}, h200()), h200());
  EXPECT_EQ(row->spec.tile, (GemmCoord{128, 128, 64}));
  EXPECT_EQ(row->blocks_per_sm, 2);
  EXPECT_EQ(row->split_k, 1);
  EXPECT_EQ(row->plan.blocks.size(), 224u);
  // 128 x 8192 x 8192: 19e's 128 tiles, one slice.
  const auto rows2 = plan_launch(*stage_launch_spec(a, {128, 8192, 8192}, h200()), h200());
  EXPECT_EQ(rows2->spec.tile, (GemmCoord{64, 128, 64}));
  EXPECT_EQ(rows2->split_k, 1);
  EXPECT_EQ(rows2->plan.blocks.size(), 128u);
  // 64 x 28672 x 8192: 19b's 224 tiles fill 224 of the 264 slots: one slice.
  const auto wide = plan_launch(*stage_launch_spec(a, {64, 28672, 8192}, h200()), h200());
  EXPECT_EQ(wide->blocks_per_sm, 2);
  EXPECT_EQ(wide->split_k, 1);
  EXPECT_EQ(wide->plan.blocks.size(), 224u);
  // 512 x 512 x 16384: 19f's 16 tiles of 128 x 128, one block per SM -> 8 slices of 32 k-tiles ->
  // 128 blocks.
  const auto few = plan_launch(*stage_launch_spec(a, {512, 512, 16384}, h200()), h200());
  EXPECT_EQ(few->spec.tile, (GemmCoord{128, 128, 64}));
  EXPECT_EQ(few->blocks_per_sm, 1);
  EXPECT_EQ(few->split_k, 8);
  EXPECT_EQ(few->plan.blocks.size(), 128u);
  // 256 x 13312 x 8192: 19b's 416 tiles > 264 slots -> one slice.
  const auto rest = plan_launch(*stage_launch_spec(a, {256, 13312, 8192}, h200()), h200());
  EXPECT_EQ(rest->split_k, 1);
  EXPECT_EQ(rest->plan.blocks.size(), 416u);
  // The sweep's why line reads the same launch and says whose it is.
  const auto w = sweep_launch(a, {2048, 2048, 2048}, h200());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->blocks, 128);
  ASSERT_NE(w->launched, nullptr);
  EXPECT_STREQ(w->launched->id, "warp-specialized");
}
