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
  long long big, small;  // tiles of 128 x 256 and of 128 x 128
  int k_tiles;
};

// clang-format off
const Expect kTable[] = {
  {{4096, 8192, 8192},  AutoRule::FullWaves,  "persistent",       32 * 32,  32 * 64, 128},
  {{4096, 28672, 8192}, AutoRule::FullWaves,  "persistent",       32 * 112, 32 * 224, 128},
  {{4096, 8192, 28672}, AutoRule::FullWaves,  "persistent",       32 * 32,  32 * 64, 448},
  {{4096, 10240, 8192}, AutoRule::FullWaves,  "persistent",       32 * 40,  32 * 80, 128},
  {{16384, 8192, 8192}, AutoRule::FullWaves,  "persistent",       128 * 32, 128 * 64, 128},
  {{8192, 1024, 8192},  AutoRule::FullWaves,  "persistent",       64 * 4,   64 * 8, 128},   // 256 >= 132
  {{2048, 2048, 2048},  AutoRule::OneWave,    "warp-specialized", 16 * 8,   16 * 16, 32},   // 128 >= 105.6
  {{64, 28672, 8192},   AutoRule::OneWave,    "warp-specialized", 112,      224, 128},      // 112 >= 105.6
  {{512, 512, 16384},   AutoRule::FewTiles,   "persistent",       4 * 2,    4 * 4, 256},    // 16 <= 33
  {{16, 8192, 8192},    AutoRule::ThinRows,   "wgmma-split-k",    32,       64, 128},       // M = 16 <= 64
  {{128, 8192, 8192},   AutoRule::SmallTiles, "wgmma",            32,       64, 128},       // rows full
  {{1024, 1024, 1024},  AutoRule::ShortK,     "wgmma-split-k",    8 * 4,    8 * 8, 16},     // 16 < 32 k-tiles
  // Ragged: 105 big tiles is 79.5% of 132, under 4/5; 106 is 80.3%.
  {{64, 26880, 8192},   AutoRule::ThinRows,   "wgmma-split-k",    105,      210, 128},
  {{64, 27136, 8192},   AutoRule::OneWave,    "warp-specialized", 106,      212, 128},
  // A thin M with a short K is not split: 16 k-tiles.
  {{16, 8192, 1024},    AutoRule::ShortK,     "wgmma-split-k",    32,       64, 16},
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
  d.sms = 200;  // 128 of 200 is 64%: 256 small tiles are too many to split (> 50)
  EXPECT_EQ(dispatch_auto({2048, 2048, 2048}, d)->pick.rule, AutoRule::SmallTiles);
  EXPECT_FALSE(dispatch_auto({0, 8, 8}, h200()).ok());
  d.sms = 0;
  EXPECT_FALSE(dispatch_auto({8, 8, 8}, d).ok());
}

TEST(AutoDispatch, TheSentenceNamesTheFactsAndTheStage) {
  EXPECT_EQ(dispatch_auto({16, 8192, 8192}, h200())->explanation,
            "M = 16: one row of tiles with 16 of its 128 rows used; 64 tiles of 128 x 128 fill 48% of the 132 SMs "
            "and K is 128 k-tiles -> 19b wgmma split-K: 64-row tiles and K cut into slices, every SM reading B");
  EXPECT_EQ(dispatch_auto({64, 28672, 8192}, h200())->explanation,
            "M = 64: one wave of 112 tiles of 128 x 256 fills 85% of the 132 SMs -> 17 warp specialization: one "
            "block per tile, no round to even out, no cluster partner idle");
  EXPECT_EQ(dispatch_auto({4096, 8192, 8192}, h200())->explanation,
            "M = 4096: 1024 tiles of 128 x 256 fill the 132 SMs 7.8 times -> 19a persistent blocks: its scheduler "
            "evens out the last round, its clusters share B");
  EXPECT_EQ(dispatch_auto({1024, 1024, 1024}, h200())->explanation,
            "M = 1024: 64 tiles of 128 x 128 would fill 48% of the 132 SMs and K is only 16 k-tiles, too short to "
            "split -> 19b wgmma split-K: 64-row tiles, twice the blocks");
  EXPECT_EQ(dispatch_auto({128, 8192, 8192}, h200())->explanation,
            "M = 128: 32 tiles of 128 x 256 would fill 24% of the 132 SMs, 64 tiles of 128 x 128 fill 48% -> "
            "16 wgmma: twice the blocks, K not split");
  EXPECT_EQ(dispatch_auto({512, 512, 16384}, h200())->explanation,
            "M = 512: even 16 tiles of 128 x 128 would fill 12% of the 132 SMs and K is 256 k-tiles -> "
            "19a persistent blocks splits K over its clusters");
  EXPECT_EQ(fill_sentence("%s of %s, 50%%", {"a", "b"}), "a of b, 50%");
  EXPECT_EQ(auto_sentence_formats().size(), 6u);
}

// The simulator plans the chosen stage's launch for the dispatcher: its tile, grid and schedule.
TEST(AutoDispatch, PlanLaunchRunsTheChosenStagesLaunch) {
  const StageDesc& a = *find_stage_desc("auto");
  EXPECT_FALSE(stage_launch_spec(a, {16, 8192, 8192}).ok());  // no device: no pick
  for (const auto& [problem, chosen] : {std::pair{GemmCoord{64, 28672, 8192}, "warp-specialized"},
                                        {GemmCoord{1024, 1024, 1024}, "wgmma-split-k"},
                                        {GemmCoord{128, 8192, 8192}, "wgmma"},
                                        {GemmCoord{16, 8192, 8192}, "wgmma-split-k"},
                                        {GemmCoord{512, 512, 16384}, "persistent"}}) {
    const auto mine = plan_launch(*stage_launch_spec(a, problem, h200()), h200());
    const auto theirs = plan_launch(*stage_launch_spec(*find_stage_desc(chosen), problem), h200());
    ASSERT_TRUE(mine.ok() && theirs.ok());
    EXPECT_EQ(mine->spec.tile, theirs->spec.tile);
    EXPECT_EQ(mine->plan.blocks.size(), theirs->plan.blocks.size());
    EXPECT_EQ(mine->tail_pieces, theirs->tail_pieces);
    EXPECT_DOUBLE_EQ(mine->timeline.makespan, theirs->timeline.makespan);
  }
  // 64 x 28672 x 8192: stage 17's one wave of 112 blocks of 128 x 256 (not stage 18's 224).
  const auto ws = plan_launch(*stage_launch_spec(a, {64, 28672, 8192}, h200()), h200());
  EXPECT_EQ(ws->spec.tile, (GemmCoord{128, 256, 64}));
  EXPECT_EQ(ws->plan.blocks.size(), 112u);
  // 1024^3: stage 19b's 16 x 8 tiles of 64 x 128 in one slice (K = 16 k-tiles is too short to cut).
  const auto sk = plan_launch(*stage_launch_spec(a, {1024, 1024, 1024}, h200()), h200());
  EXPECT_EQ(sk->spec.tile, (GemmCoord{64, 128, 64}));
  EXPECT_EQ(sk->plan.blocks.size(), 128u);
  EXPECT_EQ(sk->split_k, 1);
  // 16 x 8192 x 8192: 64 tiles, 2 blocks per SM -> 264 slots -> 5 slices (each 1638 of K) -> 320 blocks.
  const auto thin = plan_launch(*stage_launch_spec(a, {16, 8192, 8192}, h200()), h200());
  EXPECT_EQ(thin->blocks_per_sm, 2);
  EXPECT_EQ(thin->split_k, 5);
  EXPECT_EQ(thin->plan.blocks.size(), 320u);
  // The sweep's why line reads the same launch and says whose it is.
  const auto w = sweep_launch(a, {64, 28672, 8192}, h200());
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->blocks, 112);
  ASSERT_NE(w->launched, nullptr);
  EXPECT_STREQ(w->launched->id, "warp-specialized");
}
