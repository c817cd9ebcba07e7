// The replay's clock with two blocks per SM (l2_progress.h): a hand-timed case, where it does not
// apply, and the measured H200 run it was built from (data/l2_block_timing_h200.csv: the fp32
// double-buffer kernel at 4096^3, %globaltimer per block after every eighth of K, written by
// kernels/lab/tools/l2_probe/block_timing.cu).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "gemmlab/l2_progress.h"
#include "plan_support.h"

using namespace gemmlab;

namespace {

struct Launch {
  BlockPlan plan;
  Timeline timeline;
};

Launch launch(GemmCoord problem, GemmCoord tile, const char* order, int sms, int blocks_per_sm,
              Partition part = Partition::None, int split = 1) {
  BlockPlan p = test::plan_of(problem, tile, order, part, split, sms, blocks_per_sm);
  Timeline tl = test::timeline_of(p, sms, blocks_per_sm);
  return {std::move(p), std::move(tl)};
}

double end_of(const CoresidentClock& p, int b) {
  const BlockProgress& bp = p.blocks[static_cast<size_t>(b)];
  return p.pieces[static_cast<size_t>(bp.first_piece + bp.piece_count - 1)].time;
}

}  // namespace

// One SM, two slots, three blocks of 10 iterations + 1 epilogue = 11 units of work each, with
// older 1.2, younger 0.8, alone 1.6:
//   A (older)  ends at 11 / 1.2 = 9.1667; B has done 0.8 x 9.1667 = 7.3333 by then.
//   B (now older) ends 9.1667 + 3.6667 / 1.2 = 12.2222; C (younger from 9.1667) has done 2.4444.
//   C (alone) ends 12.2222 + 8.5556 / 1.6 = 17.5694.
TEST(L2Progress, OlderBlockFirstByHand) {
  const Launch l = launch({384, 128, 80}, {128, 128, 8}, "launch", 1, 2);
  ASSERT_EQ(l.plan.blocks.size(), 3u);
  CoresidentRates rates;
  rates.older = 1.2, rates.younger = 0.8, rates.alone = 1.6;
  CoresidentClock p;
  ASSERT_TRUE(coresident_progress(l.plan, l.timeline, rates, p));
  EXPECT_NEAR(end_of(p, 0), 11 / 1.2, 1e-9);
  EXPECT_NEAR(end_of(p, 1), 11 / 1.2 + (11 - 0.8 * 11 / 1.2) / 1.2, 1e-9);
  EXPECT_NEAR(end_of(p, 2), 17.569444444, 1e-6);
  EXPECT_NEAR(p.time_at(2, 0.0), 11 / 1.2, 1e-9);     // C starts when A ends
  EXPECT_NEAR(p.time_at(1, 0.8 * 11 / 1.2), 11 / 1.2, 1e-9);  // B's promotion
  EXPECT_NEAR(p.time_at(0, 5.5), 5.5 / 1.2, 1e-9);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(p.blocks[static_cast<size_t>(b)].sm, 0);
}

TEST(L2Progress, AppliesOnlyWhereMeasured) {
  CoresidentClock p;
  // One block per SM: the timeline's clock.
  const Launch one = launch({512, 512, 64}, {128, 128, 8}, "launch", 4, 1);
  EXPECT_FALSE(coresident_progress(one.plan, one.timeline, {}, p));
  // Serial split-k waits for the previous slice: the timeline's clock.
  const Launch ser = launch({256, 256, 1024}, {128, 128, 32}, "launch", 4, 2, Partition::SplitKSerial, 4);
  EXPECT_FALSE(coresident_progress(ser.plan, ser.timeline, {}, p));
  EXPECT_TRUE(p.blocks.empty());
  // Switched off.
  CoresidentRates off;
  off.enabled = false;
  const Launch two = launch({512, 512, 64}, {128, 128, 8}, "launch", 4, 2);
  EXPECT_FALSE(coresident_progress(two.plan, two.timeline, off, p));
  // Swizzle padding (identity:8 over 3 n tiles: 5 of every 8 blocks are no-ops) takes no time.
  const Launch pad = launch({256, 384, 64}, {128, 128, 8}, "identity:8", 2, 2);
  ASSERT_TRUE(coresident_progress(pad.plan, pad.timeline, {}, p));
  for (size_t b = 0; b < pad.plan.blocks.size(); ++b)
    if (pad.plan.blocks[b].kind == BlockKind::NoOp) {
      EXPECT_EQ(p.blocks[b].piece_count, 1);
    }
}

// The rates are the H200's, and the clock replays the measured run: every block's end time, in
// order, within 1% of the 3.2 ms kernel.
TEST(L2Progress, ReproducesTheMeasuredH200Run) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/l2_block_timing_h200.csv");
  ASSERT_TRUE(in);
  struct Row {
    int sm;
    long long t[9];
  };
  std::map<int, Row> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream s(line);
    for (std::string x; std::getline(s, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 15u);
    Row r{std::stoi(f[5]), {}};
    for (int i = 0; i < 9; ++i) r.t[i] = std::stoll(f[6 + static_cast<size_t>(i)]);
    rows[std::stoi(f[2])] = r;
  }
  ASSERT_EQ(rows.size(), 1024u);

  // Per-iteration times (64 iterations per eighth of K) by what shares the SM during the eighth.
  std::vector<double> older, younger, alone;
  std::map<int, std::vector<const Row*>> by_sm;
  for (const auto& [b, r] : rows) by_sm[r.sm].push_back(&r);
  for (const auto& [sm, list] : by_sm)
    for (const Row* r : list)
      for (int i = 0; i < 8; ++i) {
        const long long a = r->t[i], e = r->t[i + 1];
        const Row* other = nullptr;
        bool overlap = false;
        for (const Row* o : list) {
          if (o == r) continue;
          if (o->t[0] < e && o->t[8] > a) overlap = true;
          if (o->t[0] <= a && o->t[8] >= e) other = o;
        }
        const double per_iter = double(e - a) / 64 / 1000;  // us
        if (!overlap) alone.push_back(per_iter);
        else if (other) (other->t[0] < r->t[0] ? younger : older).push_back(per_iter);
      }
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double t_old = median(older), t_young = median(younger), t_alone = median(alone);
  EXPECT_NEAR(t_old, 1.31, 0.01);  // the numbers l2_progress.h quotes
  EXPECT_NEAR(t_young, 1.90, 0.01);
  EXPECT_NEAR(t_alone, 0.92, 0.01);
  const CoresidentRates h200;
  const double unit = 2 / (1 / t_old + 1 / t_young);  // us per timeline unit (even share)
  EXPECT_NEAR(h200.older, unit / t_old, 0.005);
  EXPECT_NEAR(h200.younger, unit / t_young, 0.005);
  EXPECT_NEAR(h200.alone, unit / t_alone, 0.01);

  const Launch l = launch({4096, 4096, 4096}, {128, 128, 8}, "launch", 132, 2);
  CoresidentClock p;
  ASSERT_TRUE(coresident_progress(l.plan, l.timeline, h200, p));
  std::vector<double> model_end, measured_end;
  for (const auto& [b, r] : rows) {
    measured_end.push_back(double(r.t[8]) / 1000);
    model_end.push_back(end_of(p, b) * unit);
  }
  std::sort(model_end.begin(), model_end.end());
  std::sort(measured_end.begin(), measured_end.end());
  const double kernel = measured_end.back();
  EXPECT_NEAR(kernel, 3223, 1);
  for (size_t i = 0; i < model_end.size(); ++i)
    ASSERT_NEAR(model_end[i], measured_end[i], 0.01 * kernel) << "the " << i << "th block to finish";
  // The first wave ends in two steps, as measured (671 and 877 us): older blocks at 513 / 1.185
  // = 433 units, younger ones later; the even-share timeline ends all 264 together.
  EXPECT_NEAR(model_end[0], 671.3, 5);
  EXPECT_NEAR(model_end[263], 877.6, 5);
  EXPECT_EQ(l.timeline.blocks[0].end, l.timeline.blocks[263].end);
}
