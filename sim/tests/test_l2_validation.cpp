// The L2 model against Nsight Compute on the lab's H200 (kernels/lab/L2_VALIDATION.md): four stages of
// the kernel ladder x 4096^3 and 8192^3, measured by kernels/lab/tools/l2_session.sh (ncu 2025.3,
// --cache-control all --clock-control none, one launch each) into data/l2_ncu_h200.csv.
// Every configuration must come within 3 points of the measured hit rate per requested sector and
// within 10% of the measured DRAM bytes read.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>

#include "gemmlab/l2_model.h"
#include "gemmlab/launch_plan.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

// One ncu CSV line: quoted fields separated by commas (values keep their thousands commas).
using Sections = std::map<std::string, std::map<std::string, double>>;
Sections read_ncu_sections(const std::string& name, const std::string& prefix) {
  Sections out;
  for (auto& [key, section] : test::read_ncu_csv_sections(name, prefix)) out[key] = section.metrics;
  return out;
}

// Metrics per (stage, size); `kernels`, if given, gets the kernel each row measured: its name says
// the shape it was built with (gemmlab::stage_as_measured).
using Measured = std::map<std::pair<std::string, int>, std::map<std::string, double>>;
using Kernels = std::map<std::pair<std::string, int>, std::string>;
Measured read_ncu_csv(const std::string& name, Kernels* kernels = nullptr) {
  Measured out;
  for (auto& [key, section] : test::read_ncu_csv_sections(name, "# stage=")) {
    std::istringstream s(key);
    std::string stage, size;
    s >> stage >> size;  // "double-buffer size=4096 [pass=...]"
    const std::pair<std::string, int> at{stage, std::stoi(size.substr(5))};
    for (auto& [metric, value] : section.metrics) out[at][metric] = value;
    if (kernels) (*kernels)[at] = section.kernel;
  }
  return out;
}

struct Modelled {
  LaunchPlan launch;
  L2Report report;
};

// The stage's launch as every other caller builds it (stages.def -> plan_launch), on the H200
// (or `device`), with the co-residency the stage declares unless `even_coresident` asks for the
// other one; given the measured `kernel`, the stage as that kernel was built.
Modelled replay_stage(const std::string& stage, GemmCoord problem, bool even_coresident, const char* device = "h200",
                      const std::string& kernel = "") {
  const StageDesc* s = find_stage_desc(stage);
  EXPECT_NE(s, nullptr) << stage;
  const StageDesc built = stage_as_measured(*s, kernel).desc;
  auto spec = stage_launch_spec(built, problem);
  EXPECT_TRUE(spec.ok()) << spec.error();
  LaunchSpec o = *spec;
  o.l2.buckets = 1;
  o.l2.coresident.enabled = !even_coresident;
  auto launch = plan_launch(o, *device_preset(device));
  EXPECT_TRUE(launch.ok()) << launch.error();
  auto r = replay_launch_l2(*launch);
  EXPECT_TRUE(r.ok()) << r.error();
  return {*launch, *r};
}

// Each replay once per test binary: several tests compare the same replay with different counters.
const Modelled& model(const std::string& stage, GemmCoord problem, bool even_coresident, const std::string& kernel = "") {
  static std::map<std::tuple<std::string, int, int, int, bool, std::string>, Modelled> done;
  const auto key = std::make_tuple(stage, problem.m, problem.n, problem.k, even_coresident, kernel);
  auto it = done.find(key);
  if (it == done.end()) it = done.emplace(key, replay_stage(stage, problem, even_coresident, "h200", kernel)).first;
  return it->second;
}
const Modelled& model(const std::string& stage, int n, const std::string& kernel) {
  return model(stage, {n, n, n}, find_stage_desc(stage)->coresident == Coresidency::Even, kernel);
}

// "4096" -> 4096^3, "128x256x8192" -> (128, 256, 8192)
GemmCoord problem_of(const std::string& size) {
  int m = 0, n = 0, k = 0;
  if (std::sscanf(size.c_str(), "%dx%dx%d", &m, &n, &k) == 3) return {m, n, k};
  m = std::stoi(size);
  return {m, m, m};
}

double lookup_hit_over_op_read(const std::map<std::string, double>& m) {
  return m.at("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") / m.at("lts__t_sectors_srcunit_tex_op_read.sum");
}
// Sectors the L2 request coalescer merged: requested - looked up by the tag stage (one pass).
double lrc_merged(const std::map<std::string, double>& m) {
  return std::max(0.0, m.at("l1tex__m_xbar2l1tex_read_sectors.sum") - m.at("lts__t_sectors_srcunit_tex_op_read.sum"));
}
double extra_lookups(const std::map<std::string, double>& m) {
  return m.at("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") +
         m.at("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum") - m.at("lts__t_sectors_srcunit_tex_op_read.sum");
}

}  // namespace

TEST(L2Validation, EveryMeasuredConfigurationIsWithinTolerance) {
  Kernels kernels;
  const Measured measured = read_ncu_csv("l2_ncu_h200.csv", &kernels);
  ASSERT_EQ(measured.size(), 8u);
  for (const auto& [key, m] : measured) {
    const auto& [stage, n] = key;
    SCOPED_TRACE(stage + " " + std::to_string(n));
    ASSERT_NE(find_stage_desc(stage), nullptr);
    const Modelled& got = model(stage, n, kernels.at(key));

    // Same launch: blocks (swizzle no-ops included) and blocks per SM (the tightest ncu limit).
    EXPECT_EQ(m.at("launch__grid_size"), double(got.launch.plan.blocks.size()));
    const double limit = std::min({m.at("launch__occupancy_limit_registers"), m.at("launch__occupancy_limit_shared_mem"),
                                   m.at("launch__occupancy_limit_warps"), m.at("launch__occupancy_limit_blocks")});
    EXPECT_EQ(limit, double(got.launch.blocks_per_sm));
    // Same loads: the sectors the SMs read from L2 (the model counts them exactly; the counter
    // also sees a handful of other sectors).
    const double requested = m.at("l1tex__m_xbar2l1tex_read_sectors.sum");
    EXPECT_NEAR(double(got.report.counters.read_lookups), requested, 1e-3 * requested);

    // The hit rate per requested sector (see l2_model.h for why not lookup_hit / op_read).
    const double measured_hit = 1.0 - m.at("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum") / requested;
    EXPECT_NEAR(100 * got.report.hit_rate, 100 * measured_hit, 3.0);
    const double dram = m.at("dram__bytes_read.sum");
    EXPECT_NEAR(double(got.report.dram_bytes_read) / dram, 1.0, 0.10);
  }
}

// A Hopper stage's replay against ncu: L2 requests (the coalescer's) exactly, hit rate per
// requested sector within `hit_points`, DRAM bytes within `dram_fraction`. Returns ncu's hit rate.
static double expect_hopper_l2(const Modelled& got, const std::map<std::string, double>& m, double hit_points,
                               double dram_fraction) {
  const double requested = m.at("lrc__request_sectors_op_read_coalescable.sum");
  EXPECT_NEAR(double(got.report.counters.read_lookups), requested, 1e-3 * requested);
  const double measured_hit = 1.0 - m.at("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum") / requested;
  EXPECT_NEAR(100 * got.report.hit_rate, 100 * measured_hit, hit_points);
  EXPECT_NEAR(double(got.report.dram_bytes_read) / m.at("dram__bytes_read.sum"), 1.0, dram_fraction);
  return measured_hit;
}

// The Hopper stages on the H100 and the H200 (kernels/lab/L2_VALIDATION.md, "The Hopper stages"): TMA
// loads, the cluster stage's B multicast (one request per cluster), the persistent stage's tile
// scheduler. ncu's L2 requests are the coalescer's (lrc__request_sectors_op_read_coalescable):
// with multicast the SMs receive more sectors (l1tex__m_xbar2l1tex_read_sectors) than L2 is asked
// for. Hit rate per requested sector within 2 points, DRAM bytes within 2%: persistent 4096^3
// runs narrowed rows (tile rows 16-31 in 240- and 248-column tiles, whose two B halves overlap:
// the overlap is asked for twice; captured 2026-11-27 07:04Z / 07:11Z), persistent 8192^3
// runs a stream-k tail, replayed piece by piece with its reduce-adds into C (-1.1% on the H100,
// -1.9% on the H200; -3.8% / -3.9% with its last round run whole). The cluster stage's blocks
// start cluster by cluster (launch_plan.cpp); in grid order its DRAM bytes were 3.5% / 2.9% off
// on the H100.
static void check_hopper_stages(const char* csv, const char* device) {
  Kernels kernels;
  const Measured measured = read_ncu_csv(csv, &kernels);
  ASSERT_EQ(measured.size(), 8u);
  for (const auto& [key, m] : measured) {
    const auto& [stage, n] = key;
    SCOPED_TRACE(stage + " " + std::to_string(n) + " " + device);
#if defined(__SANITIZE_ADDRESS__)
    // Under ASan an 8192^3 replay takes a minute; the default build checks these rows, and the
    // 4096^3 ones run the same code here.
    if (n > 4096) continue;
#endif
    const Modelled got =
        replay_stage(stage, {n, n, n}, find_stage_desc(stage)->coresident == Coresidency::Even, device, kernels.at(key));
    // The launch: persistent runs one block per SM of the clusters its plan launches (all 66: at
    // 4096^3 with narrowed rows, at 8192^3 with its tail); the others one block per tile.
    const double blocks = stage == "persistent" ? double(got.launch.timeline.slots)
                                                : double(got.launch.plan.blocks.size());
    if (stage == "persistent") {
      EXPECT_EQ(blocks, 132);
      EXPECT_EQ(got.launch.narrowed.rows, n == 4096 ? 16 : 0);
    }
    EXPECT_EQ(m.at("launch__grid_size"), blocks);
    const double measured_hit = expect_hopper_l2(got, m, 2.0, 0.02);
    const double dram = m.at("dram__bytes_read.sum");
    std::printf("  %s %-16s %5d  hit %.2f%% (ncu %.2f%%)  DRAM %.1f MB (ncu %.1f MB)\n", device, stage.c_str(), n,
                100 * got.report.hit_rate, 100 * measured_hit, got.report.dram_bytes_read / 1e6, dram / 1e6);
  }
  // Multicast: the cluster stages ask L2 for two thirds of what the SMs receive (A 128 rows, B
  // 256 rows shared by 2 blocks: 1/3 + 2/3 / 2).
  const auto& c = measured.at({"cluster", 4096});
  EXPECT_NEAR(c.at("lrc__request_sectors_op_read_coalescable.sum") / c.at("l1tex__m_xbar2l1tex_read_sectors.sum"),
              2.0 / 3.0, 1e-3);
}
TEST(L2Validation, HopperStagesOnTheH100) { check_hopper_stages("l2_ncu_h100_hopper.csv", "h100"); }
TEST(L2Validation, HopperStagesOnTheH200) { check_hopper_stages("l2_ncu_h200_hopper.csv", "h200"); }

// Lesson 18's problem, 256x32768x8192: 2 x 128 tiles stream B's 512 MB from DRAM, each column of
// two tiles needing the same B strip (l2_runs_h100_streaming.csv, l2_runs_h200_streaming.csv:
// `RUNS=... l2_session.sh runs`, H100 2026-11-27 14:03Z, H200 14:04Z; 4096^3 for comparison).
// Stage 18's pairs read B once: DRAM within 1% of the compulsory A + B bytes, and 3% (H200) to 5%
// (H100) less than stage 17, whose blocks of a column do not always run together. The model
// replays that (562.0 MB against 545.3) and stage 18 exactly; its hit rate for stage 17 on this
// problem is 3.2 / 3.5 points under ncu's, stages 18 and 19 within 0.1 (kernels/lab/L2_VALIDATION.md,
// "A streamed operand").
static void check_streamed_operand(const char* csv, const char* device) {
  const auto runs = test::read_ncu_csv_sections(csv, "# stage=");
  ASSERT_EQ(runs.size(), 5u);
  std::map<std::string, double> dram, model_dram, time;
  for (const auto& [key, section] : runs) {
    std::istringstream in(key);
    std::string stage, size;
    in >> stage >> size;  // "cluster size=256x32768x8192"
    size = size.substr(5);
    SCOPED_TRACE(stage + " " + size + " " + device);
    const auto& m = section.metrics;
    const Modelled got = replay_stage(stage, problem_of(size),
                                      find_stage_desc(stage)->coresident == Coresidency::Even, device, section.kernel);
    const bool streamed_ws = stage == "warp-specialized" && size != "4096";
    expect_hopper_l2(got, m, streamed_ws ? 4.0 : 2.0, streamed_ws ? 0.025 : 0.02);
    if (size == "4096") continue;
    const double requested = m.at("lrc__request_sectors_op_read_coalescable.sum");
    dram[stage] = m.at("dram__bytes_read.sum");
    model_dram[stage] = double(got.report.dram_bytes_read);
    time[stage] = m.at("gpu__time_duration.sum");
    // Multicast: L2 is asked for two thirds of the sectors the SMs receive, as at 4096^3.
    if (stage != "warp-specialized") {
      EXPECT_NEAR(requested / m.at("l1tex__m_xbar2l1tex_read_sectors.sum"), 2.0 / 3.0, 1e-3);
    }
  }
  const double compulsory = 2.0 * (256.0 * 8192 + 8192.0 * 32768);  // A and B, fp16
  EXPECT_NEAR(dram.at("cluster") / compulsory, 1.0, 0.01);
  EXPECT_NEAR(model_dram.at("cluster") / compulsory, 1.0, 0.01);
  EXPECT_GT(dram.at("warp-specialized") / dram.at("cluster"), 1.03);
  EXPECT_GT(model_dram.at("warp-specialized") / model_dram.at("cluster"), 1.03);
  // The one launch ncu timed: stage 18 takes 7.4% (H100) / 3.7% (H200) less time than stage 17.
  EXPECT_LT(time.at("cluster"), 0.97 * time.at("warp-specialized"));
  std::printf("  %s 256x32768x8192: DRAM %.1f / %.1f MB (model %.1f / %.1f), %.1f / %.1f us\n", device,
              dram.at("warp-specialized") / 1e6, dram.at("cluster") / 1e6, model_dram.at("warp-specialized") / 1e6,
              model_dram.at("cluster") / 1e6, time.at("warp-specialized") / 1e3, time.at("cluster") / 1e3);
}
TEST(L2Validation, ClusterReadsAStreamedOperandOnceOnTheH100) {
  check_streamed_operand("l2_runs_h100_streaming.csv", "h100");
}
TEST(L2Validation, ClusterReadsAStreamedOperandOnceOnTheH200) {
  check_streamed_operand("l2_runs_h200_streaming.csv", "h200");
}

// Each block of a multicast pair loads its own half of the B box (cluster_multicast.cuh, issue_pair_boxes),
// so each of a column's two tiles fetches its half of the streamed B strip from DRAM: 256 columns
// x 8192 k x 2 bytes / 2 = 65,536 sectors (plus A's, for the blocks that ask for it first).
// Charged to one rank only, one tile of each pair would show the whole strip and the other
// almost nothing (lesson 18's reuse colouring).
TEST(L2Validation, EachRankOfAClusterFetchesItsHalfOfB) {
  for (const char* stage : {"cluster", "persistent"}) {
    SCOPED_TRACE(stage);
    const Modelled& got = model(stage, {256, 32768, 8192}, find_stage_desc(stage)->coresident == Coresidency::Even);
    const auto& dram = got.report.c_tile_dram_sectors;
    const int tiles_n = got.launch.plan.tiled_shape.n;
    ASSERT_EQ(got.launch.plan.tiled_shape.m, 2);
    ASSERT_EQ(dram.size(), 2u * tiles_n);
    const std::uint64_t half_b = 256ull * 8192 * 2 / 2 / 32;
    for (int n = 0; n < tiles_n; ++n)
      for (int m = 0; m < 2; ++m)
        EXPECT_GE(dram[static_cast<size_t>(m) * tiles_n + n], half_b * 99 / 100) << "tile (" << m << ", " << n << ")";
    EXPECT_EQ(std::accumulate(dram.begin(), dram.end(), 0ull), got.report.counters.dram_read_sectors);
  }
}

// The numbers l2_model.h quotes to explain why lookup_hit / op_read is not hits per request:
// the L2 request coalescer merges part of the requested sectors before the tag stage, and the
// tag stage's hits + misses exceed the sectors it counts (all three counters in one ncu pass).
TEST(L2Validation, CoalescerNumbersQuotedInTheHeader) {
  const Measured all = read_ncu_csv("l2_ncu_h200.csv");
  double min_merged = 1, max_merged = 0;
  for (const auto& [key, m] : all) {
    const double merged = lrc_merged(m) / m.at("l1tex__m_xbar2l1tex_read_sectors.sum");
    min_merged = std::min(min_merged, merged);
    max_merged = std::max(max_merged, merged);
  }
  EXPECT_NEAR(100 * min_merged, 4, 0.5);   // "merges 4-28%"
  EXPECT_NEAR(100 * max_merged, 28, 0.5);
  double min_extra = 1, max_extra = 0;  // "hits + misses exceed ..._op_read by 1-18%"
  for (const auto& [key, m] : all) {
    const double extra = extra_lookups(m) / m.at("lts__t_sectors_srcunit_tex_op_read.sum");
    min_extra = std::min(min_extra, extra);
    max_extra = std::max(max_extra, extra);
  }
  EXPECT_NEAR(100 * min_extra, 1, 0.5);
  EXPECT_NEAR(100 * max_extra, 18, 0.5);
  // The coalescer's own counters agree (lrc__request_sectors_op_read_coalescing_achieved).
  const Measured lrc = read_ncu_csv("l2_lrc_h200.csv");
  const auto& ms = lrc.at({"multistage", 4096});
  EXPECT_NEAR(ms.at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum") /
                  ms.at("lrc__request_sectors_op_read_coalescable.sum"),
              1 - all.at({"multistage", 4096}).at("lts__t_sectors_srcunit_tex_op_read.sum") /
                      all.at({"multistage", 4096}).at("l1tex__m_xbar2l1tex_read_sectors.sum"),
              0.02);
}

// Which SMs sit next to which partition is not published: half of them on each side, and blocks
// d apart in a wave (d = any grid width up to 132) on the same side about half the time, so no
// grid shape lines its A or B row bands up with one partition (l2_model.h says why that matters).
TEST(L2Validation, PartitionSidesAreBalancedAndFollowNoStride) {
  for (const char* name : {"h100", "h200", "a100"}) {
    SCOPED_TRACE(name);
    const DeviceDesc dev = *device_preset(name);
    L2Cache cache(dev);
    int on_one = 0;
    for (int sm = 0; sm < dev.sms; ++sm) on_one += cache.near_partition(sm);
    EXPECT_EQ(on_one, dev.sms / 2 + dev.sms % 2);
    for (int d = 1; d < dev.sms; ++d) {
      int differ = 0;
      for (int sm = 0; sm < dev.sms; ++sm) differ += cache.near_partition(sm) != cache.near_partition((sm + d) % dev.sms);
      EXPECT_GT(differ, dev.sms / 4) << "stride " << d;
      EXPECT_LT(differ, 3 * dev.sms / 4) << "stride " << d;
    }
  }
  DeviceDesc one = *device_preset("rtx4090");
  L2Cache single(one);
  for (int sm = 0; sm < one.sms; ++sm) EXPECT_EQ(single.near_partition(sm), 0);
}

TEST(L2Validation, CliOptionsForTheLabKernels) {
  auto r = test::run_gemmlab({"sim", "l2", "--device", "h200", "--problem", "1024,1024,1024", "--tile", "128,128,8",
                              "--dtype", "f32", "--layout", "nn", "--blocks-per-sm", "2", "--c-dtype", "f32",
                              "--c-layout", "col", "--heat", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json out = json::parse(r.out);
  EXPECT_EQ(out["clock"].get<std::string>().rfind("older-first", 0), 0u);
  // 1024^2 f32 C = 4 MiB, all written: 131072 sectors.
  EXPECT_EQ(out["write_sectors"], 131072);
  r = test::run_gemmlab({"sim", "l2", "--device", "h200", "--problem", "1024,1024,1024", "--tile", "128,128,8",
                         "--blocks-per-sm", "2", "--coresident", "even", "--heat", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  out = json::parse(r.out);
  EXPECT_EQ(out["clock"], "timeline");
  // C as every kernel of the lab writes it by default: f32, column-major (4 MiB, 131072 sectors).
  EXPECT_EQ(out["write_sectors"], 131072);
  EXPECT_EQ(out["c_layout"], "col");
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--c-dtype", "f64"}, {"--c-layout", "diag"},
                                                               {"--coresident", "fair"}}) {
    std::vector<std::string> args = {"sim", "l2", "--problem", "64,64,64", "--tile", "64,64,32"};
    args.insert(args.end(), bad.begin(), bad.end());
    auto e = test::run_gemmlab(args);
    EXPECT_EQ(e.exit_code, 2) << bad[0];
    EXPECT_NE(e.err.find(bad[0]), std::string::npos) << e.err;
  }
}

// The probe of kernels/lab/tools/l2_probe/lrc_probe.cu (kernels/lab/L2_VALIDATION.md, "The coalescer and the
// extra look-ups, probed"): what the two counters behind lookup_hit / op_read do when SMs read
// the same sectors. Each assertion is a sentence of that section.
TEST(L2Validation, CoalescerProbeFindingsQuotedInTheNotes) {
  // "share delay bytes chunk [warm] run=N" -> metric -> value
  const Sections probe = read_ncu_sections("l2_lrc_probe_h200.csv", "# probe=");
  ASSERT_EQ(probe.size(), 39u);
  auto get = [&](const std::string& k, const char* metric) {
    EXPECT_TRUE(probe.count(k) && probe.at(k).count(metric)) << k << " " << metric;
    return probe.count(k) && probe.at(k).count(metric) ? probe.at(k).at(metric) : 0.0;
  };
  auto requested = [&](const std::string& k) { return get(k, "l1tex__m_xbar2l1tex_read_sectors.sum"); };
  auto merged = [&](const std::string& k) {
    return get(k, "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum");
  };
  auto tag_sectors = [&](const std::string& k) { return get(k, "lts__t_sectors_srcunit_tex_op_read.sum"); };
  auto hits = [&](const std::string& k) { return get(k, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"); };
  auto misses = [&](const std::string& k) { return get(k, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"); };

  // Every block reads its own 2 MiB once: nothing merges, every sector is one look-up, a miss.
  const std::string cold = "1 0 2097152 128 run=1";
  EXPECT_NEAR(requested(cold) / (132.0 * 2097152 / 32), 1.0, 1e-3);  // + a few hundred of the start flag
  EXPECT_EQ(merged(cold), 0);
  EXPECT_NEAR(tag_sectors(cold) / requested(cold), 1.0, 1e-3);
  EXPECT_NEAR(misses(cold) / requested(cold), 1.0, 1e-3);
  EXPECT_LT(hits(cold), 1e-3 * requested(cold));

  // Two blocks on the same data at once: the coalescer merges exactly one request of every pair.
  EXPECT_NEAR(merged("2 0 2097152 128 run=1") / requested("2 0 2097152 128 run=1"), 0.5, 0.001);
  // ... and still 97% / 73% of the second reader's sectors when it starts 3 / 30 us later (a
  // reader that hits catches up with one that misses).
  EXPECT_NEAR(merged("2 3000 2097152 128 run=1") / (requested("2 3000 2097152 128 run=1") / 2), 0.97, 0.01);
  EXPECT_NEAR(merged("2 30000 2097152 128 run=1") / (requested("2 30000 2097152 128 run=1") / 2), 0.73, 0.01);
  // At most about 4 requests per look-up: 4 readers -> 1.03 look-ups per distinct sector,
  // 33 -> 9.3, 132 -> 34.8.
  const double distinct = 2097152 / 32;
  EXPECT_NEAR(tag_sectors("4 0 2097152 128 run=1") / (33 * distinct), 1.03, 0.01);
  EXPECT_NEAR(tag_sectors("33 0 2097152 128 run=1") / (4 * distinct), 9.3, 0.1);
  EXPECT_NEAR(tag_sectors("132 0 2097152 128 run=1") / distinct, 34.8, 0.1);

  // Extra look-ups (hits + misses above the tag stage's sectors): none when the second half of a
  // line (sectors 2-3) comes after the first (sectors 0-1), 10 us later or back to back; one per
  // sector when sector 1 comes after sector 0 (the miss on it also counts as a hit).
  for (const char* k : {"1 0 262144 64 2 run=2", "1 0 262144 64 2 run=3", "1 0 262144 64 3 run=3"}) {
    SCOPED_TRACE(k);
    EXPECT_LT(hits(k), 1e-3 * requested(k));
    EXPECT_NEAR(misses(k) / tag_sectors(k), 1.0, 1e-3);
  }
  for (const char* k : {"1 0 262144 32 2 run=2", "1 0 262144 32 2 run=3", "1 0 262144 32 3 run=3"}) {
    SCOPED_TRACE(k);
    EXPECT_NEAR(misses(k) / tag_sectors(k), 1.0, 1e-3);
    EXPECT_NEAR(hits(k) / tag_sectors(k), 0.5, 0.002);
  }
  // cp.async (LDGSTS.E.BYPASS.128, the fp16 stages' loads) reading cold lines once: the SM sends
  // every sector twice, the coalescer merges part of that, and the tag stage counts 0.25 (whole
  // lines, half lines) to 0.5 (one sector per line) extra look-ups per miss; ld.global.cg of the
  // same half lines: none. (The fp16 GEMM rows: 0.38-0.50 per near miss; fp32, LDG: 0.04-0.16.)
  auto extra = [&](const std::string& k) { return hits(k) + misses(k) - tag_sectors(k); };
  const std::string ldg = "1 0 262144 64 run=4";
  EXPECT_LT(std::abs(extra(ldg)), 1e-3 * misses(ldg));
  for (const char* k : {"1 0 262144 128 4 run=4", "1 0 262144 64 4 run=4", "1 0 262144 128 5 run=5",
                        "1 0 262144 64 5 run=5", "1 0 2097152 64 5 run=5"}) {
    SCOPED_TRACE(k);
    EXPECT_NEAR(requested(k) / misses(k), 2.0, 0.01);
    EXPECT_NEAR(extra(k) / misses(k), 0.25, 0.01);
  }
  const std::string one = "1 0 262144 32 4 run=4";
  EXPECT_NEAR(requested(one) / misses(one), 1.0, 0.01);  // 2 x the 0.27 M sectors: each missed twice
  EXPECT_NEAR(merged(one) / tag_sectors(one), 1.0, 0.01);
  EXPECT_NEAR(extra(one) / misses(one), 0.5, 0.01);
}

// The ratio, lookup_hit / op_read, from the model plus the one number it cannot know: how
// many requested sectors the coalescer merged (it depends on when, within a k step, 132 SMs send
// their requests). Given that count from the same ncu run, the model's misses and its cp.async
// double count give the ratio within 3 points on all eight rows (largest: multistage 8192^3,
// +2.2; block-swizzle 8192^3, -2.2). Without it (0 merged) the fp16 rows would be 0.0-5.5 high.
TEST(L2Validation, LookupHitOverOpReadGivenTheCoalescersMerges) {
  Kernels kernels;
  const Measured measured = read_ncu_csv("l2_ncu_h200.csv", &kernels);
  ASSERT_EQ(measured.size(), 8u);
  double worst = 0, worst_without = 0;
  for (const auto& [key, m] : measured) {
    const auto& [stage, n] = key;
    SCOPED_TRACE(stage + " " + std::to_string(n));
    const Modelled& got = model(stage, n, kernels.at(key));
    const double want = 100 * lookup_hit_over_op_read(m);
    const auto ratio = ncu_lookup_hit_over_op_read(got.report, lrc_merged(m));
    ASSERT_TRUE(ratio.ok()) << ratio.error();
    EXPECT_NEAR(100 * *ratio, want, 3.0);
    worst = std::max(worst, std::abs(100 * *ratio - want));
    worst_without = std::max(worst_without, std::abs(100 * *ncu_lookup_hit_over_op_read(got.report, 0) - want));
    // The double count itself: cp.async rows within 40% of the measured extra look-ups (model /
    // measured 0.96, 1.02, 1.06, 0.99); LDG rows have none modelled and 0.3-2.6% of op_read measured.
    if (find_stage_desc(stage)->loads == GlobalLoad::CpAsync)
      EXPECT_NEAR(double(got.report.extra_tag_lookups) / extra_lookups(m), 1.0, 0.4);
    else
      EXPECT_LT(extra_lookups(m), 0.03 * m.at("lts__t_sectors_srcunit_tex_op_read.sum"));
  }
  EXPECT_NEAR(worst, 2.2, 0.1);
  EXPECT_NEAR(worst_without, 5.5, 0.1);
}

// Single launches run to find the cp.async rule (l2_runs_h200.csv, kernels/lab/L2_VALIDATION.md, "What
// cp.async does to the look-up counters"). One block alone, every sector cold and read once:
// each 2-sector cp.async request is counted as 2 misses and 1 hit, exactly; LDG requests as 2
// misses. The model's replay of those launches gives the same counts.
TEST(L2Validation, CpAsyncCountsEachMissedRequestAsAHitToo) {
  // "stage size=N|MxNxK" -> the kernel and its metrics
  const auto runs = test::read_ncu_csv_sections("l2_runs_h200.csv", "# stage=");
  ASSERT_EQ(runs.size(), 9u);
  auto run = [&](const std::string& stage_and_size) -> const test::NcuSection& {
    const size_t space = stage_and_size.find(' ');
    return runs.at(stage_and_size.substr(0, space) + " size=" + stage_and_size.substr(space + 1));
  };
  auto at = [&](const std::string& stage_and_size) -> const std::map<std::string, double>& {
    return run(stage_and_size).metrics;
  };
  const char* kHit = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
  const char* kMiss = "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum";
  const char* kRequests = "lts__t_requests_srcunit_tex_op_read.sum";
  for (const char* k : {"multistage 128x128x8192", "epilogue 128x256x8192", "smem-swizzle 128x128x8192"}) {
    SCOPED_TRACE(k);
    const auto& m = at(k);
    const bool cp = std::string(k).rfind("smem-swizzle", 0) != 0;
    const double sectors = m.at("l1tex__m_xbar2l1tex_read_sectors.sum");
    EXPECT_EQ(m.at(kMiss), sectors);
    EXPECT_EQ(m.at(kRequests), sectors / 2);
    EXPECT_EQ(m.at(kHit), cp ? sectors / 2 : 0.0);
    std::istringstream s(k);
    std::string stage, size;
    s >> stage >> size;
    const Modelled& got = model(stage, problem_of(size), false, run(k).kernel);
    EXPECT_EQ(double(got.report.counters.read_lookups), sectors);
    EXPECT_EQ(double(got.report.counters.read_requests_missed), m.at(kRequests));
    EXPECT_EQ(double(got.report.extra_tag_lookups), m.at(kHit));
  }
  // Shared tiles: the coalescer merges about a third of the requests for a sector that another
  // running block reads too, with 2 readers (A of 128x256: 34%, B of 256x128: 31%) as with 32
  // (B of 4096x128x4096: 35%), far from the 75% of readers in lockstep (the probe).
  const double a_sectors = 128.0 * 8192 * 2 / 32;
  EXPECT_NEAR(at("multistage 128x256x8192").at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum") /
                  (2 * a_sectors), 0.34, 0.01);
  EXPECT_NEAR(at("multistage 256x128x8192").at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum") /
                  (2 * a_sectors), 0.31, 0.01);
  const double b_requests = 32.0 * 128 * 4096 * 2 / 32;
  EXPECT_NEAR(at("multistage 4096x128x4096").at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum") /
                  b_requests, 0.35, 0.01);

  // smem-swizzle (LDG through L1, 2 blocks per SM) at 4096^3 and 8192^3: DRAM bytes as measured
  // within 0.1% when the two co-resident blocks share the SM evenly, 1.3x / 1.9x too many with
  // the fp32 kernels' older-first rates; the hit rate per requested sector +1.5 and +3.9 points
  // (the SMs' L1 served 2.0% / 7.3% of the sectors, which the model sends to L2).
  const std::vector<std::tuple<const char*, int, double, double>> swz = {{"smem-swizzle 4096", 4096, 1.5, 2.0},
                                                                         {"smem-swizzle 8192", 8192, 3.9, 7.3}};
  for (const auto& [k, n, hit_diff, l1_pct] : swz) {
    SCOPED_TRACE(k);
    const auto& m = at(k);
    const Modelled& even = model("smem-swizzle", {n, n, n}, true);
    const Modelled& older = model("smem-swizzle", {n, n, n}, false);
    const double dram = m.at("dram__bytes_read.sum");
    EXPECT_NEAR(double(even.report.dram_bytes_read) / dram, 1.0, 0.001);
    EXPECT_GT(double(older.report.dram_bytes_read) / dram, 1.3);
    const double requested = m.at("l1tex__m_xbar2l1tex_read_sectors.sum");
    EXPECT_NEAR(100 * (1 - requested / double(even.report.counters.read_lookups)), l1_pct, 0.1);
    EXPECT_NEAR(100 * even.report.hit_rate - 100 * (1 - m.at(kMiss) / requested), hit_diff, 0.1);
  }
}
