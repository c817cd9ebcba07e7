// The facts the app and the CLI show for a stage at a problem (gemmlab/launch_facts.h): for the
// dispatcher (`auto`), those of the launch its rule picks there, never its registry row's. The
// shape sweep's 12 shapes on an H200 (132 SMs); tile counts and blocks worked out beside each row.
#include <gtest/gtest.h>

#include "gemmlab/dispatch.h"
#include "gemmlab/launch_facts.h"
#include "gemmlab/sweep_launch.h"
#include "support.h"

using namespace gemmlab;

namespace {

DeviceDesc h200() { return *device_preset("h200"); }

struct Expect {
  GemmCoord problem;
  const char* launched;
  int tile_m, tile_n, threads;
  int split_k;
  long long tiles, blocks;
  long long tail;  // stage 19a's stream-k pieces; -1: some (worked out below, not counted by hand)
};

// Threads: WgmmaShape's warpgroups (hopper_shapes.h): 16's two consumers 256, 17's and 19a's two
// consumers and a producer 384, 19b's and 19e's one consumer 128, 19f's two 256. Stage 19a: one block per SM (230,464 B of
// shared memory), 66 clusters of 2 = 132 resident blocks, a unit = a cluster's 2 tiles; a tail
// where the last round is at most 3/4 full (persistent_schedule.h).
// clang-format off
const Expect kSweep[] = {
  // 512 units = 7 x 66 + 50: the last round 76% full, no tail (narrowed rows instead).
  {{4096, 8192, 8192},  "persistent",       128, 256, 384, 1, 32 * 32,  132, 0},
  {{4096, 28672, 8192}, "persistent",       128, 256, 384, 1, 32 * 112, 132, -1},  // 1792 = 27 x 66 + 10
  {{4096, 8192, 28672}, "persistent",       128, 256, 384, 1, 32 * 32,  132, 0},
  {{4096, 10240, 8192}, "persistent",       128, 256, 384, 1, 32 * 40,  132, -1},  // 640 = 9 x 66 + 46: 70%
  // 2048 units = 31 x 66 + 2: the 2 last units' K over all 66 clusters, a piece per block.
  {{16384, 8192, 8192}, "persistent",       128, 256, 384, 1, 128 * 32, 132, 132},
  // 256 tiles = 128 units: 2 rounds on 66 clusters or on 64, so two spare: 128 blocks.
  {{8192, 1024, 8192},  "persistent",       128, 256, 384, 1, 64 * 4,   128, 0},
  {{2048, 2048, 2048},  "warp-specialized", 128, 256, 384, 1, 16 * 8,   128, 0},  // a block per tile
  // Stage 19e, one block per SM (197 KB): 128 tiles fit 132 SMs; 16 k-tiles, too short to cut.
  {{1024, 1024, 1024},  "wgmma-deep",       64,  128, 128, 1, 16 * 8,   128, 0},
  {{128, 8192, 8192},   "wgmma-deep",       64,  128, 128, 1, 2 * 64,   128, 0},
  // 224 tiles do not fit 132 SMs: 19b's 264 slots (2 blocks per SM), one slice.
  {{64, 28672, 8192},   "wgmma-split-k",    64,  128, 128, 1, 1 * 224,  224, 0},
  // 64 tiles -> 2 slices (split_k_wave_slices; 3 would need a second wave) -> 128 blocks.
  {{16, 8192, 8192},    "wgmma-deep",       64,  128, 128, 2, 1 * 64,   128, 0},
  // Stage 19f: 16 tiles of 128 x 128 -> 8 slices of 32 k-tiles -> 128 blocks.
  {{512, 512, 16384},   "wgmma-deep-128",   128, 128, 256, 8, 4 * 4,    128, 0},
};
// clang-format on

std::string shape(GemmCoord p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

}  // namespace

TEST(LaunchFacts, TheDispatcherShowsTheLaunchItPicks) {
  const StageDesc& a = *find_stage_desc("auto");
  for (const Expect& e : kSweep) {
    SCOPED_TRACE(shape(e.problem));
    const auto f = launch_facts(a, e.problem, h200());
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(f->stage, &a);
    EXPECT_STREQ(f->launched->id, e.launched);
    EXPECT_TRUE(f->dispatched());
    EXPECT_EQ(f->tile.m, e.tile_m);
    EXPECT_EQ(f->tile.n, e.tile_n);
    EXPECT_EQ(f->tile.k, 64);
    EXPECT_EQ(f->resources.threads, e.threads);
    EXPECT_EQ(f->split_k, e.split_k);
    EXPECT_EQ(f->tiles, e.tiles);
    EXPECT_EQ(f->blocks, e.blocks);
    if (e.tail < 0) EXPECT_GT(f->tail_pieces, 0);
    else EXPECT_EQ(f->tail_pieces, e.tail);
    // Registers, shared memory, cluster and schedule are the picked row's, not the dispatcher's.
    const StageDesc& picked = *f->launched;
    EXPECT_EQ(f->resources.regs_per_thread, picked.regs);
    EXPECT_EQ(f->resources.smem_per_block, picked.smem);
    EXPECT_EQ(f->cluster_m, picked.cluster_m);
    EXPECT_EQ(f->schedule, picked.schedule);
    EXPECT_NE(f->schedule, BlockSchedule::Dispatch);
    // The same stage as the rule's sentence names.
    EXPECT_EQ(dispatch_auto(e.problem, h200())->stage, f->launched);
  }
}

TEST(LaunchFacts, TheLineNamesTheDispatcherAndItsPick) {
  const StageDesc& a = *find_stage_desc("auto");
  EXPECT_EQ(launch_facts(a, {16, 8192, 8192}, h200())->line,
            "19c dispatcher -> 19e wgmma deep pipeline: tile 64 x 128, K split into 2 slices: 128 blocks");
  EXPECT_EQ(launch_facts(a, {2048, 2048, 2048}, h200())->line,
            "19c dispatcher -> 17 warp specialization: tile 128 x 256, 128 blocks, one per tile");
  EXPECT_EQ(launch_facts(a, {4096, 8192, 8192}, h200())->line,
            "19c dispatcher -> 19a persistent blocks: tile 128 x 256, 132 resident blocks in clusters of 2 take "
            "the tiles");
  EXPECT_EQ(launch_facts(a, {128, 28672, 8192}, h200())->line,
            "19c dispatcher -> 19d wgmma split-K, 128-row tiles: tile 128 x 128, 224 blocks, one per tile");
  EXPECT_EQ(launch_facts(a, {64, 28672, 8192}, h200())->line,
            "19c dispatcher -> 19b wgmma split-K: tile 64 x 128, 224 blocks, one per tile");
  EXPECT_EQ(launch_facts(a, {512, 512, 16384}, h200())->line,
            "19c dispatcher -> 19f wgmma deep pipeline, 128-row tiles: tile 128 x 128, K split into 8 slices: 128 "
            "blocks");
  // The line is its template filled (the app fills the translated template with the same arguments).
  const auto f = launch_facts(a, {16, 8192, 8192}, h200());
  EXPECT_EQ(fill_sentence(f->format, f->args), f->line);
  EXPECT_EQ(f->args, (std::vector<std::string>{"19c dispatcher -> 19e wgmma deep pipeline", "64", "128", "2", "128"}));
  EXPECT_EQ(launch_facts_formats().size(), 6u);
}

// Any other row's facts are its own, with the split, clusters or schedule its plan has.
TEST(LaunchFacts, AnyOtherStageIsItsOwnLaunch) {
  const DeviceDesc h100 = *device_preset("h100");
  const auto c = launch_facts(*find_stage_desc("cluster"), {4096, 4096, 4096}, h200());
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_FALSE(c->dispatched());
  EXPECT_EQ(c->line, "18 clusters, TMA multicast: tile 128 x 256, 512 blocks in clusters of 2, one per tile");  // 32 x 16
  // 16 tiles of 128 x 128, 2 blocks per SM: 264 slots / 16 -> 17 slices, 272 blocks.
  const auto sk = launch_facts(*find_stage_desc("split-k"), {512, 512, 16384}, h100);
  ASSERT_TRUE(sk.ok()) << sk.error();
  EXPECT_EQ(sk->split_k, 17);
  EXPECT_EQ(sk->blocks, 16 * 17);
  EXPECT_EQ(sk->line, "13a split-k: tile 128 x 128, K split into 17 slices: 272 blocks");
  // 13a at 4096^3: 1024 tiles fill the slots already, one slice: a plain grid.
  const auto whole = launch_facts(*find_stage_desc("split-k"), {4096, 4096, 4096}, h100);
  EXPECT_EQ(whole->split_k, 1);
  EXPECT_EQ(whole->partition, Partition::None);
  EXPECT_EQ(whole->blocks, 1024);
  const auto st = launch_facts(*find_stage_desc("stream-k"), {4096, 4096, 4096}, h100);
  EXPECT_EQ(st->partition, Partition::StreamK);
  EXPECT_NE(st->line.find("stream-k: "), std::string::npos) << st->line;
  const auto ws = launch_facts(*find_stage_desc("warp-specialized"), {64, 28672, 8192}, h200());
  EXPECT_EQ(ws->line, "17 warp specialization: tile 128 x 256, 112 blocks, one per tile");
  // 19a's stream-k tail: 4 units, each over 16 clusters (64 busy, 2 idle), a piece per block.
  const auto tail = launch_facts(*find_stage_desc("persistent"), {512, 512, 16384}, h200());
  EXPECT_EQ(tail->tail_pieces, 128);
  EXPECT_EQ(tail->line, "19a persistent blocks: tile 128 x 256, 132 resident blocks in clusters of 2 take the tiles, "
                        "the last round's K split into 128 pieces");
}

// From a plan the caller already has (the Grid view's): the same facts, its order changed or not.
TEST(LaunchFacts, FromThePlanDrawn) {
  const StageDesc& a = *find_stage_desc("auto");
  const auto spec = stage_launch_spec(a, {16, 8192, 8192}, h200());
  ASSERT_TRUE(spec.ok());
  LaunchSpec launch_order = *spec;
  launch_order.order = *parse_order("identity:1");
  const auto plan = plan_launch(launch_order, h200());
  ASSERT_TRUE(plan.ok());
  const LaunchFacts f = launch_facts(a, *plan);
  EXPECT_STREQ(f.launched->id, "wgmma-deep");
  EXPECT_EQ(f.tile, plan->spec.tile);
  EXPECT_EQ(f.split_k, plan->split_k);
  EXPECT_EQ(f.blocks, static_cast<long long>(plan->plan.blocks.size()));
  // Where the rule has no launch the device can run, no facts: an A100 holds no 230 KB block.
  EXPECT_FALSE(launch_facts(a, {2048, 2048, 2048}, *device_preset("a100")).ok());
  EXPECT_FALSE(launch_facts(a, {0, 8, 8}, h200()).ok());
}

TEST(LaunchFacts, TheDispatchersChoicesAreTheRulesStages) {
  std::vector<std::string> ids;
  for (const StageDesc* s : dispatch_choices(*find_stage_desc("auto"))) ids.push_back(s->id);
  EXPECT_EQ(ids, (std::vector<std::string>{"warp-specialized", "persistent", "wgmma-split-k", "wgmma-split-k-128",
                                             "wgmma-deep", "wgmma-deep-128"}));
  EXPECT_TRUE(dispatch_choices(*find_stage_desc("persistent")).empty());
}

// `gemmlab sim schedule|l2 --stage auto` print the picked launch's facts under "stage", as the
// Grid view does (its export's "launch"), not the registry row's 128 x 256 / 384 threads.
TEST(LaunchFacts, TheCliPrintsThePickedLaunch) {
  for (const char* what : {"schedule", "l2"}) {
    SCOPED_TRACE(what);
    auto r = test::run_gemmlab({"sim", what, "--stage", "auto", "--device", "h200", "--problem", "16,8192,8192"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out)["stage"];
    EXPECT_EQ(j["id"], "auto");
    EXPECT_EQ(j["launched"]["id"], "wgmma-deep");
    EXPECT_EQ(j["tile"], nlohmann::json::array({64, 128, 64}));
    EXPECT_EQ(j["threads"], 128);
    EXPECT_EQ(j["split_k"], 2);
    EXPECT_EQ(j["blocks"], 128);
    EXPECT_EQ(j["facts"], launch_facts(*find_stage_desc("auto"), {16, 8192, 8192}, h200())->line);
  }
  auto r = test::run_gemmlab({"sim", "schedule", "--stage", "auto", "--device", "h200", "--problem", "2048,2048,2048"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out)["stage"];
  EXPECT_EQ(j["launched"]["id"], "warp-specialized");
  EXPECT_EQ(j["threads"], 384);
  EXPECT_EQ(j["smem"], find_stage_desc("warp-specialized")->smem);
  EXPECT_EQ(j["blocks"], 128);
  // `sim dispatch` prints the same facts beside the rule's sentence.
  r = test::run_gemmlab({"sim", "dispatch", "--device", "h200", "--problem", "16,8192,8192"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto d = nlohmann::json::parse(r.out)["auto_stage"];
  EXPECT_EQ(d["stage"], "wgmma-deep");
  EXPECT_EQ(d["launch"]["tile"], nlohmann::json::array({64, 128, 64}));
  EXPECT_EQ(d["launch"]["split_k"], 2);
  EXPECT_EQ(d["launch"]["facts"], launch_facts(*find_stage_desc("auto"), {16, 8192, 8192}, h200())->line);
  // Another stage is its own launch: no "launched".
  r = test::run_gemmlab({"sim", "schedule", "--stage", "wgmma", "--device", "h200", "--problem", "128,8192,8192"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)["stage"].contains("launched"));
}

// The Kernels view's sweep line reads the same launch: the dispatcher's pick, its K slices.
TEST(LaunchFacts, TheSweepLineHasTheSameSlices) {
  const StageDesc& a = *find_stage_desc("auto");
  const auto thin = sweep_launch(a, {16, 8192, 8192}, h200());
  ASSERT_TRUE(thin.ok()) << thin.error();
  ASSERT_NE(thin->launched, nullptr);
  EXPECT_STREQ(thin->launched->id, "wgmma-deep");
  EXPECT_EQ(thin->split_k, 2);
  EXPECT_EQ(thin->tile_m, 64);
  EXPECT_EQ(sweep_launch(a, {1024, 1024, 1024}, h200())->split_k, 1);  // 16 k-tiles: one slice
  EXPECT_EQ(sweep_launch(a, {512, 512, 16384}, h200())->split_k, 8);   // 16 tiles x 8: one wave
  EXPECT_EQ(sweep_launch(a, {2048, 2048, 2048}, h200())->split_k, 1);  // stage 17 never splits
}
