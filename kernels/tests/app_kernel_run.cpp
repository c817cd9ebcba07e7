// GPU test (ctest label `gpu`) of the kernels view's "Run" worker, app/src/model/kernel_run.cpp:
// what the button produces on a real GPU. Exit 77 with "skipped: no GPU" when there is none.
//
// Expected values come from outside the code under test: the fp32 tolerance 1e-5 (runner.h,
// tolerance(Track::fp32)), fp32/02_naive/naive.cu's grid limit message, and `gemmlab bench`'s rule that a cuBLAS
// row is its own reference (ratio 1, kernels/bench/bench_session.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "model/kernel_run.h"
#include "runner.h"

namespace gemmlab::app {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Polls like the view does each frame; returns the last snapshot (finished or not).
KernelRunSnapshot wait_until(const KernelRun& run, double limit_s,
                             bool (*reached)(const KernelRunSnapshot&)) {
  const auto t0 = Clock::now();
  KernelRunSnapshot s = run.snapshot();
  while (!reached(s) && seconds_since(t0) < limit_s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    s = run.snapshot();
  }
  return s;
}

bool finished(const KernelRunSnapshot& s) { return s.finished; }
bool first_entry_done(const KernelRunSnapshot& s) { return s.finished || s.done >= 1; }

const BenchResult* result_of(const BenchResults& r, const std::string& stage) {
  for (const auto& x : r.results)
    if (x.stage == stage) return &x;
  return nullptr;
}

TEST(KernelRun, StagesAndCublasAt512AreCorrectAndTimed) {
  auto run = start_kernel_run({"naive", "double-buffer", "cublas-fp32"}, {512, 512, 512});
  const KernelRunSnapshot s = wait_until(*run, 120, finished);
  ASSERT_TRUE(s.finished) << "still running after 120 s: " << s.current;
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.total, 3);
  EXPECT_EQ(s.done, 3);
  EXPECT_FALSE(s.cancelling);
  EXPECT_TRUE(s.results.skipped.empty()) << s.results.skipped.front().reason;
  ASSERT_EQ(s.results.results.size(), 3u);
  EXPECT_EQ(s.results.source, "this run");
  EXPECT_FALSE(s.results.device.name.empty());
  EXPECT_GT(s.results.device.sms, 0);
  EXPECT_EQ(s.results.date.size(), 20u) << s.results.date;  // 2025-01-31T12:00:00Z

  const BenchResult* cublas = result_of(s.results, "cublas-fp32");
  ASSERT_NE(cublas, nullptr);
  for (const BenchResult& r : s.results.results) {
    SCOPED_TRACE(r.stage);
    EXPECT_EQ(r.track, "fp32");
    EXPECT_EQ(r.m, 512);
    EXPECT_EQ(r.n, 512);
    EXPECT_EQ(r.k, 512);
    EXPECT_TRUE(r.ok);
    EXPECT_LT(r.rel_err, 1e-5);  // tolerance(Track::fp32), runner.h
    EXPECT_GT(r.tflops, 0);
    EXPECT_GT(r.ms, 0);
    EXPECT_GE(r.reps, 3);  // TimeOptions::min_reps
    // TFLOP/s is 2*M*N*K over the median time.
    EXPECT_NEAR(r.tflops, 2.0 * 512 * 512 * 512 / (r.ms * 1e-3) / 1e12, 1e-9 * r.tflops);
    // Every ratio divides the cuBLAS median timed in turns with the stage, which the result
    // carries; it is the same kernel as the cuBLAS row's, timed at another moment.
    // (Not compared with the cuBLAS row's own time: that one ran first, on a GPU still ramping up
    // from its idle clock, and measured 3x slower on an H100 at this size; timing is not a test.)
    EXPECT_NEAR(r.ratio_to_cublas * r.ms, r.cublas_ms, 1e-9 * r.cublas_ms);
    EXPECT_GT(r.cublas_ms, 0);
    std::printf("  %-14s %8.4f ms %7.2f TFLOP/s %6.1f%% of cuBLAS  rel_err %.2e  reps %d\n",
                r.stage.c_str(), r.ms, r.tflops, 100 * r.ratio_to_cublas, r.rel_err, r.reps);
  }
  EXPECT_NEAR(cublas->ratio_to_cublas, 1.0, 1e-9);
}

// A stage whose ladder predecessor ran earlier in the same run is timed in turns with it too
// (gemmlab::ladder_previous: naive follows naive-uncoalesced); the first stage has none.
TEST(KernelRun, AStageIsTimedWithTheStageBeforeIt) {
  auto run = start_kernel_run({"naive-uncoalesced", "naive", "double-buffer"}, {256, 256, 256});
  const KernelRunSnapshot s = wait_until(*run, 120, finished);
  ASSERT_TRUE(s.finished) << "still running after 120 s: " << s.current;
  EXPECT_EQ(s.error, "");
  const BenchResult* first = result_of(s.results, "naive-uncoalesced");
  const BenchResult* naive = result_of(s.results, "naive");
  const BenchResult* db = result_of(s.results, "double-buffer");
  ASSERT_TRUE(first && naive && db);
  EXPECT_EQ(first->previous_stage, "");
  EXPECT_EQ(naive->previous_stage, "naive-uncoalesced");
  EXPECT_GT(naive->previous_ms, 0);
  EXPECT_NEAR(naive->speedup_over_previous() * naive->ms, naive->previous_ms, 1e-9 * naive->previous_ms);
  // double-buffer follows simt-tile, which this run did not select: no stage before it is timed.
  EXPECT_EQ(db->previous_stage, "");
  EXPECT_EQ(db->previous_ms, 0);
}

TEST(KernelRun, UnknownIdAndRefusedSizeAreSkippedWithTheirReasons) {
  // 1 x 600000 x 1: naive's grid.y holds N/8 <= 65535 blocks, so N <= 524280 (fp32/02_naive/naive.cu); cuBLAS
  // runs it.
  auto run = start_kernel_run({"no-such-stage", "naive", "cublas-fp32"}, {1, 600000, 1});
  const KernelRunSnapshot s = wait_until(*run, 120, finished);
  ASSERT_TRUE(s.finished) << "still running after 120 s: " << s.current;
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.done, 3);
  EXPECT_EQ(s.total, 3);
  ASSERT_EQ(s.results.skipped.size(), 2u);
  EXPECT_EQ(s.results.skipped[0].stage, "no-such-stage");
  EXPECT_NE(s.results.skipped[0].reason.find("unknown stage id 'no-such-stage'"), std::string::npos)
      << s.results.skipped[0].reason;
  EXPECT_EQ(s.results.skipped[1].stage, "naive");
  EXPECT_EQ(s.results.skipped[1].reason, "naive: N must be at most 524280 (grid.y limit)");
  EXPECT_EQ(s.results.skipped[1].n, 600000);
  ASSERT_EQ(s.results.results.size(), 1u);
  const BenchResult& c = s.results.results[0];
  EXPECT_EQ(c.stage, "cublas-fp32");
  EXPECT_TRUE(c.ok);
  EXPECT_LT(c.rel_err, 1e-5);
  EXPECT_GT(c.tflops, 0);
  EXPECT_NEAR(c.ratio_to_cublas, 1.0, 1e-9);
  for (const auto& k : s.results.skipped)
    std::printf("  skipped %-14s %s\n", k.stage.c_str(), k.reason.c_str());
}

// A lesson step's stage list may name convolutions (lesson 14): Run, which times GEMM sizes, skips
// them with the command that times them (it once indexed the cuBLAS reference by their track).
TEST(KernelRun, ConvolutionsAreSkippedWithTheBenchCommand) {
  auto run = start_kernel_run({"conv-fp16", "im2col-cublas"}, {256, 256, 256});
  const KernelRunSnapshot s = wait_until(*run, 60, finished);
  ASSERT_TRUE(s.finished);
  EXPECT_EQ(s.error, "");
  ASSERT_EQ(s.results.skipped.size(), 2u);
  EXPECT_NE(s.results.skipped[0].reason.find("gemmlab bench --conv"), std::string::npos) << s.results.skipped[0].reason;
  EXPECT_NE(s.results.skipped[1].reason.find("convolution reference"), std::string::npos) << s.results.skipped[1].reason;
  EXPECT_TRUE(s.results.results.empty());
}

TEST(KernelRun, CancelStopsAfterTheEntryInProgress) {
  const std::vector<std::string> all = built_stage_ids();
  ASSERT_GE(all.size(), 3u) << "fewer than 3 stages built";
  auto run = start_kernel_run(all, {2048, 2048, 2048});
  const KernelRunSnapshot first = wait_until(*run, 180, first_entry_done);
  ASSERT_GE(first.done, 1) << "no entry finished in 180 s: " << first.current << first.error;
  ASSERT_EQ(first.error, "");
  const auto t_cancel = Clock::now();
  run->cancel();
  // Entries may have finished between `first` and cancel(); from here on at most the one in
  // progress can finish.
  const KernelRunSnapshot at_cancel = run->snapshot();
  const KernelRunSnapshot s = wait_until(*run, 30, finished);
  const double stop_s = seconds_since(t_cancel);
  ASSERT_TRUE(s.finished) << "still running 30 s after cancel: " << s.current;
  EXPECT_TRUE(s.cancelling);
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.total, static_cast<int>(all.size()) + 2);  // and the references of fp32 and fp16
  EXPECT_TRUE(at_cancel.cancelling);
  EXPECT_GE(s.done, at_cancel.done);
  EXPECT_LE(s.done, at_cancel.done + 1);
  EXPECT_LT(s.done, s.total);
  EXPECT_EQ(static_cast<int>(s.results.results.size() + s.results.skipped.size()), s.done);
  for (const BenchResult& r : s.results.results) {
    SCOPED_TRACE(r.stage);
    EXPECT_TRUE(r.ok);
    EXPECT_LT(r.rel_err, kernels::tolerance(r.track == "fp16" ? kernels::Track::fp16
                                                               : kernels::Track::fp32));
  }
  std::printf("  cancel after %d of %d entries; stopped at %d, %.2f s after cancel\n",
              at_cancel.done, s.total, s.done, stop_s);
}

TEST(KernelRun, DestroyingARunningRunReturnsPromptly) {
  // What closing the app mid-run does: the destructor cancels and waits for the entry in progress.
  auto run = start_kernel_run(built_stage_ids(), {2048, 2048, 2048});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = Clock::now();
  run.reset();
  const double s = seconds_since(t0);
  EXPECT_LT(s, 30.0);
  std::printf("  destroyed 0.2 s into a run; returned after %.2f s\n", s);
}

}  // namespace
}  // namespace gemmlab::app
