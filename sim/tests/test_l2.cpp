// The L2 model: LRU sets with sector bits, the two-partition far lookup (hardware_rules.md), and
// whole-GEMM replays whose counts follow from the problem by hand (a problem that fits in L2
// misses once per sector; look-ups = tile sectors x blocks).
#include <gtest/gtest.h>

#include <bit>
#include <numeric>

#include "gemmlab/l2_model.h"
#include "plan_support.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

DeviceDesc tiny(std::int64_t bytes, int ways, int partitions) {
  DeviceDesc d = *device_preset("h100");
  d.l2_bytes = bytes;
  d.l2_ways = ways;
  d.l2_partitions = partitions;
  EXPECT_EQ(validate_device(d), "");
  return d;
}

struct Replay {
  BlockPlan plan;
  Timeline timeline;
  L2Report report;
};

Replay replay(const DeviceDesc& dev, GemmCoord problem, GemmCoord tile, const char* order, int element_bytes,
           Partition part = Partition::None, int split = 1, int blocks_per_sm = 1,
           GlobalLoad load = GlobalLoad::Ldg) {
  BlockPlan p = test::plan_of(problem, tile, order, part, split, dev.sms, blocks_per_sm);
  Timeline tl = test::timeline_of(p, dev.sms, blocks_per_sm);
  L2ReplayOptions o;
  o.element_bytes = element_bytes;
  o.global_load = load;
  auto r = replay_l2(p, tl, dev, o);
  EXPECT_TRUE(r.ok()) << r.error();
  return {std::move(p), std::move(tl), r.ok() ? *r : L2Report{}};
}

}  // namespace

// One set of two ways: lines 0, 1, 2 all land in it.
TEST(L2, LeastRecentlyUsedWayIsEvicted) {
  L2Cache c(tiny(256, 2, 1));
  ASSERT_EQ(c.sets_per_partition(), 1u);
  EXPECT_EQ(c.read(0, 0xF, 0), 0xFu);  // cold
  EXPECT_EQ(c.read(1, 0xF, 0), 0xFu);
  EXPECT_EQ(c.read(0, 0x1, 0), 0u);    // hit; 0 is now the most recent
  EXPECT_EQ(c.read(2, 0xF, 0), 0xFu);  // evicts 1, the least recent
  EXPECT_EQ(c.read(0, 0xF, 0), 0u);
  EXPECT_EQ(c.read(1, 0xF, 0), 0xFu);  // 1 was evicted; now 2 goes
  EXPECT_EQ(c.read(2, 0x2, 0), 0x2u);
  EXPECT_EQ(c.counters().read_lookups, 4u + 4 + 1 + 4 + 4 + 4 + 1);
  EXPECT_EQ(c.counters().read_hits, 1u + 4);
  EXPECT_EQ(c.counters().dram_read_sectors, 4u * 4 + 1);
}

TEST(L2, SectorsAreFetchedOnlyWhenAskedFor) {
  L2Cache c(tiny(256, 2, 1));
  EXPECT_EQ(c.read(7, 0b0011, 0), 0b0011u);
  EXPECT_EQ(c.read(7, 0b0110, 0), 0b0100u);  // sector 1 hits, sector 2 is fetched
  EXPECT_EQ(c.counters().read_hits, 1u);
  EXPECT_EQ(c.counters().dram_read_sectors, 3u);
}

TEST(L2, WritesAllocateWithoutFetchAndWriteBackWhenEvicted) {
  L2Cache c(tiny(256, 2, 1));
  c.write(5, 0xF, 0);
  EXPECT_EQ(c.read(5, 0xF, 0), 0u);
  EXPECT_EQ(c.counters().dram_read_sectors, 0u);
  EXPECT_EQ(c.dirty_sectors(), 4u);
  c.read(8, 0xF, 0);
  c.read(9, 0xF, 0);  // evicts 5
  EXPECT_EQ(c.counters().dram_write_sectors, 4u);
  EXPECT_EQ(c.dirty_sectors(), 0u);
}

// The TMA's reduce-add (stage 19's stream-k tail): the L2 fetches what it lacks, adds, keeps the
// sums dirty; no read look-up is counted, the sectors count as written.
TEST(L2, ReductionsFetchWhatTheL2LacksAndStayDirty) {
  L2Cache c(tiny(256, 2, 1));
  c.reduce(3, 0b0011, 0);                           // absent: 2 sectors from DRAM
  EXPECT_EQ(c.counters().dram_read_sectors, 2u);
  c.write(4, 0xF, 0);
  c.reduce(4, 0xF, 0);                              // just written: nothing to fetch
  EXPECT_EQ(c.counters().dram_read_sectors, 2u);
  c.reduce(3, 0b0110, 0);                           // sector 1 held, sector 2 fetched
  EXPECT_EQ(c.counters().dram_read_sectors, 3u);
  EXPECT_EQ(c.counters().read_lookups, 0u);
  EXPECT_EQ(c.counters().write_sectors, 2u + 4 + 4 + 2);
  EXPECT_EQ(c.dirty_sectors(), 3u + 4);
}

// Home partition: parity of the 4 KiB granule (line / 32). The SMs' sides are
// near_partition(sm) (l2_model.h): near0 and other0 sit next to partition 0, near1 to partition 1.
TEST(L2, FarPartitionIsLookedUpAgain) {
  L2Cache c(tiny(512, 2, 2));
  EXPECT_EQ(c.home_partition(0), 0);
  EXPECT_EQ(c.home_partition(32), 1);
  EXPECT_EQ(c.home_partition(96), 0);  // granule 3 = 0b11
  std::vector<int> side[2];
  for (int sm = 0; sm < 132; ++sm) side[c.near_partition(sm)].push_back(sm);
  ASSERT_GE(side[0].size(), 2u);
  ASSERT_GE(side[1].size(), 1u);
  const int near0 = side[0][0], other0 = side[0][1], near1 = side[1][0];
  const std::uint64_t line = 32;       // homed on partition 1
  EXPECT_EQ(c.read(line, 0xF, near0), 0xFu);  // near miss, far miss -> DRAM
  EXPECT_EQ(c.counters().far_lookups, 4u);
  EXPECT_EQ(c.counters().far_hits, 0u);
  EXPECT_EQ(c.read(line, 0xF, near1), 0u);   // next to the home copy: near hit
  EXPECT_EQ(c.read(line, 0xF, other0), 0u);  // side 0 kept a near copy
  EXPECT_EQ(c.counters().read_hits, 8u);
  c.write(line, 0x1, near1);                 // the write goes home and drops side 0's stale sector
  EXPECT_EQ(c.read(line, 0x1, near0), 0u);   // near miss, far hit: no DRAM
  EXPECT_EQ(c.counters().far_lookups, 5u);
  EXPECT_EQ(c.counters().far_hits, 1u);
  EXPECT_EQ(c.counters().dram_read_sectors, 4u);
  // A near-homed miss goes straight to DRAM without a second lookup, on either side.
  EXPECT_EQ(c.read(0, 0xF, near0), 0xFu);
  EXPECT_EQ(c.read(64, 0xF, near1), 0xFu);  // granule 2: homed on partition 1
  EXPECT_EQ(c.counters().far_lookups, 5u);
}

// Tags are 16 bits when every line the caller will touch fits (line / sets < 0xFFFF; H100:
// 12800 sets per partition, 50 MB / (2 x 16 x 128 B)), else 32 bits.
TEST(L2, TagWidthFollowsTheHighestLine) {
  const DeviceDesc h100 = *device_preset("h100");
  EXPECT_EQ(L2Cache(h100).sets_per_partition(), 12800u);
  EXPECT_TRUE(L2Cache(h100, 0xFFFFull * 12800 - 1).narrow_tags());  // highest tag 0xFFFE
  EXPECT_FALSE(L2Cache(h100, 0xFFFFull * 12800).narrow_tags());     // 0xFFFF means empty
  EXPECT_FALSE(L2Cache(h100).narrow_tags());
}

// A line never hits on another line's data: a direct-mapped cache (1 way, 4 sets) misses the
// first read of every line, including lines 0x10000 x 4 apart, which 16-bit tags of line / 4
// would confuse, and lines that share a set.
TEST(L2, EveryLineIsItsOwnTag) {
  const DeviceDesc d = tiny(4 * 128, 1, 1);
  L2Cache narrow(d, 4 * 0xFFFEull);
  L2Cache wide(d);
  ASSERT_TRUE(narrow.narrow_tags());
  ASSERT_FALSE(wide.narrow_tags());
  for (std::uint64_t line = 0; line < 4 * 0xFFFFull; line += 3) EXPECT_EQ(narrow.read(line, 0xF, 0), 0xFu) << line;
  EXPECT_EQ(narrow.counters().read_hits, 0u);
  for (std::uint64_t line : {5ull, 5 + 4 * 0x10000ull, 5 + 8 * 0x10000ull, 0xFFFFFFFEull, 0xFFFFFFFEull - 4 * 0x10000})
    EXPECT_EQ(wide.read(line, 0xF, 0), 0xFu) << line;
  EXPECT_EQ(wide.counters().read_hits, 0u);
  EXPECT_EQ(wide.read(0xFFFFFFFEull - 4 * 0x10000, 0x1, 0), 0u);  // still there: the last line read
}

// The two tag widths and the three ways of reading are one model: the same accesses give the
// same answers, counters and dirty lines (16 sets x 16 ways x 2 partitions; a hot range that
// hits and a wide one that evicts).
TEST(L2, TagWidthsAndReadPathsAgree) {
  const DeviceDesc d = tiny(64 * 1024, 16, 2);
  L2Cache narrow(d, 999'999), wide(d), rows(d, 999'999);
  ASSERT_TRUE(narrow.narrow_tags());
  ASSERT_FALSE(wide.narrow_tags());
  std::uint64_t x = 12345;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; };
  for (int i = 0; i < 200'000; ++i) {
    const std::uint64_t r = next();
    const std::uint64_t line = r % 4 ? r % 300 : r % 1'000'000;
    const unsigned mask = 1 + static_cast<unsigned>(r >> 20) % 15;
    const int sm = static_cast<int>(r >> 8) % d.sms;
    if (r % 7 == 0) {
      narrow.write(line, mask, sm);
      wide.write(line, mask, sm);
      rows.write(line, mask, sm);
    } else {
      const unsigned got = narrow.read(line, mask, sm);
      ASSERT_EQ(wide.read(line, mask, sm), got) << i;
      ASSERT_EQ(rows.read_rows(line, 1, 1, &mask, 1, sm), std::uint64_t(std::popcount(got))) << i;
    }
  }
  // A strided block of lines: read_rows and read_batch of the same lines, in the same order.
  const unsigned masks[3] = {0b1100, 0xF, 0b0001};
  std::vector<L2Cache::LineRef> refs;
  for (std::uint64_t row = 0; row < 40; ++row)
    for (std::uint64_t j = 0; j < 3; ++j) refs.push_back({500 + row * 77 + j, masks[j]});
  EXPECT_EQ(rows.read_rows(500, 77, 40, masks, 3, 5), narrow.read_batch(refs.data(), refs.size(), 5));
  wide.read_batch(refs.data(), refs.size(), 5);
  for (const L2Cache* c : {&wide, &rows}) {
    EXPECT_EQ(c->counters().read_lookups, narrow.counters().read_lookups);
    EXPECT_EQ(c->counters().read_hits, narrow.counters().read_hits);
    EXPECT_EQ(c->counters().far_lookups, narrow.counters().far_lookups);
    EXPECT_EQ(c->counters().far_hits, narrow.counters().far_hits);
    EXPECT_EQ(c->counters().dram_read_sectors, narrow.counters().dram_read_sectors);
    EXPECT_EQ(c->counters().dram_write_sectors, narrow.counters().dram_write_sectors);
    EXPECT_EQ(c->dirty_sectors(), narrow.dirty_sectors());
  }
  // Both kinds of access happened: hits, evictions of dirty lines, far-partition hits.
  EXPECT_GT(narrow.counters().read_hits, 100'000u);  // of 365 332 sectors
  EXPECT_GT(narrow.counters().dram_write_sectors, 10'000u);
  EXPECT_GT(narrow.counters().far_hits, 10'000u);
}

// 256^3 f16, 128x128x32 tiles: A and B are 128 KB each, far below 50 MB. Every sector misses
// once: DRAM reads = 2 x 256 x 256 x 2 B = 262144. Look-ups: each A tile row is read by both n
// tiles, each B tile column by both m tiles: 2 x (256 x 256 x 2 / 32) x 2 = 16384 sectors.
// C (128 KB) is written and stays dirty in L2.
TEST(L2, ProblemThatFitsMissesOncePerSector) {
  for (const char* dev : {"h100", "h200", "a100", "rtx4090"}) {
    SCOPED_TRACE(dev);
    const Replay r = replay(*device_preset(dev), {256, 256, 256}, {128, 128, 32}, "launch", 2);
    EXPECT_EQ(r.report.compulsory_read_bytes, 262144u);
    EXPECT_EQ(r.report.dram_bytes_read, 262144u);
    EXPECT_EQ(r.report.counters.read_lookups, 16384u);
    EXPECT_EQ(r.report.dram_bytes_written, 0u);
    EXPECT_EQ(r.report.dirty_bytes_at_end, 131072u);
  }
  // f32 doubles the bytes; 1000^3 with 128x128x32 tiles has partial edge tiles and K % 32 != 0.
  const Replay f = replay(*device_preset("h100"), {1000, 1000, 1000}, {128, 128, 32}, "identity:8", 4);
  EXPECT_EQ(f.report.compulsory_read_bytes, 2u * 1000 * 1000 * 4);
  EXPECT_EQ(f.report.dram_bytes_read, 2u * 1000 * 1000 * 4);
}

// Two co-resident blocks (one L2 partition) load the same A tile in the same instant: the
// second request merges and hits. 128 x 256 x 32 f16: A tile 128 rows x 64 B = 256 sectors,
// each B tile 256 sectors. Look-ups 4 x 256, hits 256, DRAM = A + B = 8 KB + 16 KB.
TEST(L2, SameTileInOneInstantMerges) {
  const Replay r = replay(*device_preset("rtx4090"), {128, 256, 32}, {128, 128, 32}, "launch", 2);
  EXPECT_EQ(r.report.counters.read_lookups, 1024u);
  EXPECT_EQ(r.report.counters.read_hits, 256u);
  EXPECT_EQ(r.report.dram_bytes_read, 24576u);
}

// ncu's tag stage counts a missed cp.async request once more, as a hit (kernels/lab/L2_VALIDATION.md).
// One block, 128 x 128 x 8192 f16 "tn": each k step reads 128 A rows and 128 B columns of 64 B,
// one 2-sector request each, all cold: 256 k steps x 256 requests = 65536 requests, 131072
// sector misses, so lookup_hit / op_read reads 65536 / 131072 = 0.5 with cp.async (the H200 read
// exactly that) and 0 with ld.global.
TEST(L2, MissedCpAsyncRequestsAreCountedAsHitsToo) {
  for (GlobalLoad load : {GlobalLoad::CpAsync, GlobalLoad::Ldg}) {
    const bool cp = load == GlobalLoad::CpAsync;
    SCOPED_TRACE(cp ? "cp.async" : "ldg");
    const Replay r = replay(*device_preset("h200"), {128, 128, 8192}, {128, 128, 32}, "launch", 2, Partition::None, 1,
                            1, load);
    EXPECT_EQ(r.report.counters.read_lookups, 131072u);
    EXPECT_EQ(r.report.counters.read_hits, 0u);
    EXPECT_EQ(r.report.counters.read_requests_missed, 65536u);
    EXPECT_EQ(r.report.extra_tag_lookups, cp ? 65536u : 0u);
    auto ratio = ncu_lookup_hit_over_op_read(r.report, 0);
    ASSERT_TRUE(ratio.ok()) << ratio.error();
    EXPECT_DOUBLE_EQ(*ratio, cp ? 0.5 : 0.0);
  }
  // The coalescer's merges leave the tag stage fewer sectors: (100 - 20 - 40 + 10) / (100 - 20).
  L2Report r;
  r.counters.read_lookups = 100;
  r.counters.read_hits = 60;
  r.extra_tag_lookups = 10;
  EXPECT_DOUBLE_EQ(*ncu_lookup_hit_over_op_read(r, 20), 50.0 / 80.0);
  for (double bad : {-1.0, 100.0, 150.0, std::nan("")}) {
    auto e = ncu_lookup_hit_over_op_read(r, bad);
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_NE(e.error().find("100 sectors requested"), std::string::npos) << e.error();
  }
}

// When the data does not fit, the heat maps and the totals still add up.
TEST(L2, HeatMapsAddUpToTheTotals) {
  // 4 SMs: the 64 blocks run in 16 waves, so A and B (2 MB each) must come back into 256 KB.
  DeviceDesc dev = tiny(256 * 1024, 16, 2);
  dev.sms = 4;
  const Replay r = replay(dev, {1024, 1024, 1024}, {128, 128, 32}, "identity:1", 2);
  const L2Report& rep = r.report;
  ASSERT_FALSE(rep.heat_maps_omitted);
  EXPECT_EQ(rep.a_tiles.rows, 8);
  EXPECT_EQ(rep.a_tiles.cols, 32);
  for (auto n : rep.a_tiles.loads) EXPECT_EQ(n, 8u);  // every A tile step is loaded by the 8 n tiles
  for (auto n : rep.b_tiles.loads) EXPECT_EQ(n, 8u);
  const std::uint64_t a = std::accumulate(rep.a_tiles.dram_sectors.begin(), rep.a_tiles.dram_sectors.end(), 0ull);
  const std::uint64_t b = std::accumulate(rep.b_tiles.dram_sectors.begin(), rep.b_tiles.dram_sectors.end(), 0ull);
  const std::uint64_t c =
      std::accumulate(rep.c_tile_dram_sectors.begin(), rep.c_tile_dram_sectors.end(), 0ull);
  EXPECT_EQ(a + b, rep.counters.dram_read_sectors);
  EXPECT_EQ(c, rep.counters.dram_read_sectors);
  EXPECT_GT(rep.dram_bytes_read, rep.compulsory_read_bytes);  // 256 KB of L2 cannot hold 4 MB
  EXPECT_LT(rep.hit_rate, 1.0);
  EXPECT_LE(rep.hit_rate_with_far, rep.hit_rate);  // far lookups only add misses and hits after misses
  for (double h : rep.hit_rate_over_time) EXPECT_TRUE(h == -1.0 || (h >= 0.0 && h <= 1.0));
  // Look-ups: A read by 8 n tiles, B by 8 m tiles: 2 x 8 x (1024 x 1024 x 2 / 32).
  EXPECT_EQ(rep.counters.read_lookups, 2u * 8 * 65536);
}

TEST(L2, SplitKAndStreamKTrafficIsReplayed) {
  const DeviceDesc dev = *device_preset("h100");
  // Parallel split-k: each of the 4 slices writes an f32 partial tile to the workspace.
  const Replay par = replay(dev, {256, 256, 1024}, {128, 128, 32}, "launch", 2, Partition::SplitKParallel, 4);
  EXPECT_EQ(par.report.counters.write_sectors, 4u * 4 * 128 * 128 * 4 / 32);
  EXPECT_EQ(par.report.dram_bytes_read, par.report.compulsory_read_bytes);
  // A ragged M: the kernels store only the rows inside the problem, into an M x N matrix per slice.
  // 16 x 256 x 1024 with 64 x 128 tiles, 2 slices: 2 slices x 16 rows x 256 columns x 4 bytes.
  const Replay thin = replay(dev, {16, 256, 1024}, {64, 128, 32}, "launch", 2, Partition::SplitKParallel, 2);
  EXPECT_EQ(thin.report.counters.write_sectors, 2u * 16 * 256 * 4 / 32);
  // Serial split-k: slices 1..3 read the C tile the previous slice wrote (it is in L2: no DRAM).
  const Replay ser = replay(dev, {256, 256, 1024}, {128, 128, 32}, "launch", 2, Partition::SplitKSerial, 4);
  EXPECT_EQ(ser.report.counters.write_sectors, 4u * 4 * 128 * 128 * 2 / 32);
  EXPECT_EQ(ser.report.dram_bytes_read, ser.report.compulsory_read_bytes);
  EXPECT_EQ(ser.report.counters.read_lookups,
            2u * 2 * (256 * 1024 * 2 / 32) + 4u * 3 * (128 * 128 * 2 / 32));
  // Stream-k on the 4-SM picture: 3 partial tiles stored and read back once each.
  DeviceDesc four = dev;
  four.sms = 4;
  const Replay sk = replay(four, {384, 384, 256}, {128, 128, 32}, "launch", 2, Partition::StreamK);
  const std::uint64_t partial = 128 * 128 * 4 / 32, c_tile = 128 * 128 * 2 / 32;
  EXPECT_EQ(sk.report.counters.write_sectors, 3 * partial + 9 * c_tile);
  EXPECT_EQ(sk.report.dram_bytes_read, sk.report.compulsory_read_bytes);
}

TEST(L2, RefusesWhatWouldNotFinish) {
  PlanRequest rq;
  rq.problem = {1 << 20, 1 << 20, 1 << 20};
  rq.tile = {1024, 1024, 1024};
  auto p = make_block_plan(rq);
  ASSERT_TRUE(p.ok()) << p.error();
  Timeline tl;  // not needed: the size check comes first
  tl.blocks.resize(p->blocks.size());
  auto r = replay_l2(*p, tl, *device_preset("h100"), L2ReplayOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("GiB"), std::string::npos);
}

// The replay splits a multicast B box between the two blocks of a pair (tma::pair_b_part_row),
// as the cluster stages do; other cluster sizes are refused, not replayed wrongly.
TEST(L2, RefusesMulticastToOtherThanTwoBlocks) {
  const DeviceDesc dev = *device_preset("h100");
  BlockPlan p = test::plan_of({256, 256, 64}, {128, 128, 32}, "identity:1", Partition::None, 1, dev.sms, 1);
  Timeline tl = test::timeline_of(p, dev.sms, 1);
  L2ReplayOptions o;
  o.element_bytes = 2;
  for (int blocks : {0, 3, 4}) {
    o.multicast_b = blocks;
    auto r = replay_l2(p, tl, dev, o);
    ASSERT_FALSE(r.ok()) << blocks;
    EXPECT_NE(r.error().find("1 or 2 blocks"), std::string::npos) << r.error();
  }
  o.multicast_b = 2;
  EXPECT_TRUE(replay_l2(p, tl, dev, o).ok());
}

TEST(L2, Cli) {
  auto r = test::run_gemmlab({"sim", "l2", "--device", "h100", "--problem", "256,256,256", "--tile", "128,128,32",
                              "--dtype", "f16", "--order", "identity:8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["dram_bytes_read"], 262144);
  EXPECT_EQ(out["dram_bytes_written"], 0);
  EXPECT_EQ(out["hit_rate_over_time"].size(), 50u);
  EXPECT_EQ(out["a_tiles"]["shape"], json::array({2, 8}));
  // Every near miss either goes to DRAM or is looked up again in the far partition.
  EXPECT_EQ(out["read_sector_lookups"].get<std::uint64_t>() - out["read_sector_hits"].get<std::uint64_t>(),
            out["far_sector_hits"].get<std::uint64_t>() + 262144u / 32);
  // One partition: 16384 look-ups of which the 8192 distinct sectors miss once.
  r = test::run_gemmlab({"sim", "l2", "--device", "rtx4090", "--problem", "256,256,256", "--tile", "128,128,32"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_DOUBLE_EQ(json::parse(r.out)["hit_rate"].get<double>(), 0.5);
  // The same with cp.async loads: 4096 missed 2-sector requests, each also counted as a hit, so
  // ncu would read (16384 - 8192 + 4096) / 16384 without merges and 4096 / 8192 with 8192 merged.
  for (const auto& [merged, want] : std::vector<std::pair<const char*, double>>{{"0", 0.75}, {"8192", 0.5}}) {
    r = test::run_gemmlab({"sim", "l2", "--device", "rtx4090", "--problem", "256,256,256", "--tile", "128,128,32",
                           "--global-load", "cp.async", "--lrc-merged", merged});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json o = json::parse(r.out);
    EXPECT_EQ(o["extra_tag_lookups"], 4096);
    EXPECT_DOUBLE_EQ(o["ncu_lookup_hit_over_op_read"].get<double>(), want) << merged;
  }
  const std::vector<std::vector<std::string>> bad = {
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--global-load", "ldgsts"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--lrc-merged", "many"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--lrc-merged", "1000000"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--dtype", "f8"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--layout", "xx"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--l2-ways", "32"},
      {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32", "--blocks-per-sm", "2", "--threads", "128"},
      {"sim", "l2", "--problem", "1048576,1048576,1048576", "--tile", "1024,1024,1024"},
  };
  for (const auto& args : bad) {
    auto e = test::run_gemmlab(args);
    EXPECT_EQ(e.exit_code, 2) << args.back();
    EXPECT_FALSE(e.err.empty());
  }
}
