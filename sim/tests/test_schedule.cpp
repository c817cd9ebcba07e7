// Occupancy (cudaOccupancy.h arithmetic on the Programming Guide limits), waves, and the
// event-driven timeline (hardware_rules.md "Block dispatch"), checked on cases worked by hand.
#include <gtest/gtest.h>

#include "plan_support.h"

#include <fstream>

#include "gemmlab/device_presets.h"
#include "gemmlab/schedule.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

DeviceDesc preset(const char* name) {
  auto d = device_preset(name);
  EXPECT_TRUE(d.ok());
  return *d;
}

using test::plan_of;

}  // namespace

TEST(Schedule, PresetsCarryTheirSources) {
  const DeviceDesc h100 = preset("h100");
  EXPECT_EQ(h100.sms, 132);
  EXPECT_EQ(h100.l2_bytes, 52428800);
  EXPECT_EQ(h100.l2_partitions, 2);
  EXPECT_EQ(h100.smem_per_sm, 228 * 1024);
  EXPECT_EQ(preset("a100").sms, 108);
  EXPECT_EQ(preset("rtx4090").max_threads_per_sm, 1536);
  EXPECT_EQ(preset("h200").sms, 132);
  for (const auto& n : device_preset_names()) {
    EXPECT_FALSE(preset(n.c_str()).notes.empty()) << n;
    EXPECT_EQ(validate_device(preset(n.c_str())), "") << n;
  }
  EXPECT_FALSE(device_preset("b200").ok());
}

// H100, 256 threads, 128 registers, 64 KB: warps 8; threads 64/8 = 8 blocks; registers:
// 128 x 32 = 4096 per warp, 16384 per sub-partition -> 4 warps x 4 = 16 warps -> 2 blocks;
// shared memory (65536 + 1024) -> 233472 / 66560 = 3 blocks. Registers limit: 2.
TEST(Schedule, OccupancyRegisterLimited) {
  auto o = compute_occupancy(preset("h100"), {256, 128, 65536});
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->by_threads, 8);
  EXPECT_EQ(o->by_registers, 2);
  EXPECT_EQ(o->by_shared_memory, 3);
  EXPECT_EQ(o->by_blocks, 32);
  EXPECT_EQ(o->blocks_per_sm, 2);
  EXPECT_EQ(o->limiter, "registers");
  EXPECT_DOUBLE_EQ(o->warp_occupancy, 16.0 / 64.0);
}

// A100, 128 threads, 64 registers, 48 KB: threads 64/4 = 16; registers 2048 per warp ->
// 8 per sub-partition -> 32 warps -> 8 blocks; smem 49152 + 1024 = 50176 -> 167936 / 50176 = 3.
TEST(Schedule, OccupancySharedMemoryLimited) {
  auto o = compute_occupancy(preset("a100"), {128, 64, 48 * 1024});
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->by_registers, 8);
  EXPECT_EQ(o->by_shared_memory, 3);
  EXPECT_EQ(o->blocks_per_sm, 3);
  EXPECT_EQ(o->limiter, "shared memory");
}

// RTX 4090: 1536 threads per SM -> 256-thread blocks: 48 / 8 = 6; 24 blocks per SM cap for
// 32-thread blocks with few registers.
TEST(Schedule, OccupancyThreadAndBlockLimits) {
  auto o = compute_occupancy(preset("rtx4090"), {256, 32, 0});
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->blocks_per_sm, 6);
  EXPECT_EQ(o->limiter, "threads");
  o = compute_occupancy(preset("rtx4090"), {32, 16, 0});
  ASSERT_TRUE(o.ok()) << o.error();
  EXPECT_EQ(o->blocks_per_sm, 24);
  EXPECT_EQ(o->limiter, "blocks per SM");
}

// 168 configurations measured with cudaOccupancyMaxActiveBlocksPerMultiprocessor on the lab's
// H200 (sim/tests/data/occupancy_h200.json; 0 = cannot launch).
TEST(Schedule, OccupancyMatchesCudaOnH200) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/occupancy_h200.json");
  ASSERT_TRUE(in.good());
  const json ref = json::parse(in);
  ASSERT_EQ(ref["cases"].size(), 168u);
  const DeviceDesc h200 = preset("h200");
  EXPECT_EQ(h200.l2_bytes, 62914560);  // the same run's cudaGetDeviceProperties
  for (const auto& c : ref["cases"]) {
    auto o = compute_occupancy(h200, {c["threads"], c["regs"], c["smem"]});
    EXPECT_EQ(o.ok() ? o->blocks_per_sm : 0, c["blocks_per_sm"].get<int>()) << c.dump();
  }
}

TEST(Schedule, OccupancyRejectsWhatCannotLaunch) {
  const DeviceDesc h = preset("h100");
  EXPECT_FALSE(compute_occupancy(h, {0, 32, 0}).ok());
  EXPECT_FALSE(compute_occupancy(h, {2048, 32, 0}).ok());      // > 1024 threads per block
  EXPECT_FALSE(compute_occupancy(h, {256, 256, 0}).ok());      // > 255 registers
  EXPECT_FALSE(compute_occupancy(h, {256, 32, 300000}).ok());  // > 227 KB per block
  auto e = compute_occupancy(h, {1024, 255, 0});               // 1024 x 255 regs > 64K per block
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().find("registers"), std::string::npos);
}

TEST(Schedule, WavesAndTail) {
  // 32 x 32 tiles = 1024 blocks on 132 SMs x 2 = 264 slots: 3 full waves + 232 (tail 232/264).
  const BlockPlan p = plan_of({4096, 4096, 4096}, {128, 128, 32});
  const WaveSummary w = summarize_waves(p, 264);
  EXPECT_EQ(w.blocks, 1024);
  EXPECT_EQ(w.full_waves, 3);
  EXPECT_DOUBLE_EQ(w.waves, 1024.0 / 264.0);
  EXPECT_DOUBLE_EQ(w.tail_utilisation, 232.0 / 264.0);
}

// 9 tiles of 8 iterations on 4 SMs, one block each: waves start at 0, 9 and 18 (8 iterations +
// 1 epilogue), the last wave holds one block.
TEST(Schedule, DataParallelWaves) {
  const BlockPlan p = plan_of({384, 384, 256}, {128, 128, 32});
  auto tl = simulate_timeline(p, 4, 1, CostModel{});
  ASSERT_TRUE(tl.ok()) << tl.error();
  const double starts[9] = {0, 0, 0, 0, 9, 9, 9, 9, 18};
  for (int b = 0; b < 9; ++b) {
    EXPECT_DOUBLE_EQ(tl->blocks[static_cast<size_t>(b)].start, starts[b]) << b;
    EXPECT_DOUBLE_EQ(tl->blocks[static_cast<size_t>(b)].end, starts[b] + 9) << b;
  }
  EXPECT_EQ(tl->blocks[4].slot, 0);  // ties: the lower slot takes the next block
  EXPECT_DOUBLE_EQ(tl->makespan, 27);
  EXPECT_DOUBLE_EQ(tl->ideal_time(), 81.0 / 4);
}

// Two blocks per SM: the first 2 x sms blocks start together, and slot s sits on SM s % sms.
TEST(Schedule, CoResidentBlocksFormASlidingWindow) {
  const BlockPlan p = plan_of({384, 384, 256}, {128, 128, 32});
  auto tl = simulate_timeline(p, 4, 2, CostModel{});
  ASSERT_TRUE(tl.ok()) << tl.error();
  for (int b = 0; b < 8; ++b) {
    EXPECT_DOUBLE_EQ(tl->blocks[static_cast<size_t>(b)].start, 0);
    EXPECT_EQ(tl->blocks[static_cast<size_t>(b)].sm, b % 4);
  }
  EXPECT_DOUBLE_EQ(tl->blocks[8].start, 9);
}

// The stream-k plan of test_raster's 4-SM picture, timed by hand with the default costs
// (iteration 1, epilogue 1, partial store / peer read 3):
//   block 0: tile 1 [0,2) 0-2, store 2-5 (signal); tile 0 full 5-13, epilogue 13-14.
//   block 1: tile 2 [0,4) 0-4, store 4-7; tile 1 [2,8) 7-13, wait (signalled at 5), read 13-16, epi -> 17.
//   block 2: tile 3 [0,6) 0-6, store 6-9; tile 2 [4,8) 9-13, read 13-16, epi -> 17.
//   block 3: tile 4 full 0-8, epi 8-9; tile 3 [6,8) 9-11, read 11-14, epi -> 15.
//   DP blocks 4..7 (9 each) take slots as they free: 14 (slot 0), 15 (slot 3), 17, 17.
TEST(Schedule, StreamKTimelineByHand) {
  const BlockPlan p = plan_of({384, 384, 256}, {128, 128, 32}, "launch", Partition::StreamK, 1, 4, 1);
  auto tl = simulate_timeline(p, 4, 1, CostModel{});
  ASSERT_TRUE(tl.ok()) << tl.error();
  const double ends[8] = {14, 17, 17, 15, 23, 24, 26, 26};
  const int slots[8] = {0, 1, 2, 3, 0, 3, 1, 2};
  for (int b = 0; b < 8; ++b) {
    EXPECT_DOUBLE_EQ(tl->blocks[static_cast<size_t>(b)].end, ends[b]) << b;
    EXPECT_EQ(tl->blocks[static_cast<size_t>(b)].slot, slots[b]) << b;
  }
  EXPECT_DOUBLE_EQ(tl->makespan, 26);
  EXPECT_DOUBLE_EQ(tl->busy_time - tl->work_time, 0);  // peers finished before they were needed
}

// Serial split-k, one tile, 2 slices of 4 iterations on 2 slots: slice 0 ends its epilogue at 5;
// slice 1 finishes its main loop at 4, waits to 5, reads the partial C (3) and writes (1): 9.
TEST(Schedule, SerialSplitKWaitsForThePreviousSlice) {
  const BlockPlan p = plan_of({64, 64, 256}, {64, 64, 32}, "launch", Partition::SplitKSerial, 2);
  auto tl = simulate_timeline(p, 2, 1, CostModel{});
  ASSERT_TRUE(tl.ok()) << tl.error();
  EXPECT_DOUBLE_EQ(tl->blocks[0].end, 5);
  EXPECT_DOUBLE_EQ(tl->blocks[1].end, 9);
  EXPECT_DOUBLE_EQ(tl->blocks[1].wait_time, 1);
}

// A block that waits on a peer that can never get a slot: the launch would hang.
TEST(Schedule, DeadlockIsReportedNotHung) {
  BlockPlan p = plan_of({64, 64, 256}, {64, 64, 32}, "launch", Partition::SplitKSerial, 2);
  std::swap(p.blocks[0], p.blocks[1]);  // slice 1 first: on one slot it waits for slice 0 forever
  auto tl = simulate_timeline(p, 1, 1, CostModel{});
  ASSERT_FALSE(tl.ok());
  EXPECT_NE(tl.error().find("hang"), std::string::npos);
}

TEST(Schedule, CostModelIsValidated) {
  const BlockPlan p = plan_of({64, 64, 64}, {64, 64, 32});
  CostModel c;
  c.iter_cost = 0;
  EXPECT_FALSE(simulate_timeline(p, 1, 1, c).ok());
  c.iter_cost = 1;
  c.partial_cost = -1;
  EXPECT_FALSE(simulate_timeline(p, 1, 1, c).ok());
  EXPECT_FALSE(simulate_timeline(p, 0, 1, CostModel{}).ok());
}

TEST(Schedule, Cli) {
  auto r = test::run_gemmlab({"sim", "schedule", "--device", "h100", "--problem", "4096,4096,4096", "--tile",
                              "128,128,32", "--threads", "256", "--regs", "128", "--smem", "65536", "--order",
                              "identity:8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["occupancy"]["blocks_per_sm"], 2);
  EXPECT_EQ(out["occupancy"]["limiter"], "registers");
  EXPECT_EQ(out["waves"]["slots"], 264);
  EXPECT_EQ(out["timeline"].size(), 264u);
  // 1024 blocks of 128 iterations + 1 on 264 slots: 4 rounds of 129.
  EXPECT_DOUBLE_EQ(out["relative_time"].get<double>(), 516.0);

  r = test::run_gemmlab({"sim", "schedule", "--device", "h100", "--problem", "4096,4096,4096", "--tile",
                         "128,128,32", "--threads", "256", "--regs", "128", "--smem", "65536", "--stream-k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["plan"]["partition"], "stream-k");

  const std::vector<std::vector<std::string>> bad = {
      {"sim", "schedule", "--device", "h100", "--problem", "64,64,64", "--tile", "64,64,32"},
      {"sim", "schedule", "--device", "v100", "--problem", "64,64,64", "--tile", "64,64,32", "--threads", "128",
       "--regs", "32", "--smem", "0"},
      {"sim", "schedule", "--problem", "64,64,64", "--tile", "64,64,32", "--threads", "128", "--regs", "32",
       "--smem", "0", "--split-k", "2", "--stream-k"},
      {"sim", "schedule", "--problem", "64,64,64", "--tile", "64,64", "--threads", "128", "--regs", "32",
       "--smem", "0"},
      {"sim", "schedule", "--problem", "64,64,64", "--tile", "64,64,32", "--threads", "128", "--regs", "32",
       "--smem", "0", "--iter-cost", "abc"},
  };
  for (const auto& args : bad) {
    auto e = test::run_gemmlab(args);
    EXPECT_EQ(e.exit_code, 2);
    EXPECT_FALSE(e.err.empty());
  }
}
