// FP8 on the GPU (ctest label `gpu`, an sm_90 GPU): stage 20a and both cuBLASLt references
// against the exact product of the dequantized operands (kernels/fp8_runner.cu), the stages'
// refusals (a K that TMA cannot stride, 20b's M limit), and the bench session's FP8 rows.
// Without a GPU: exit 77.
#include <gtest/gtest.h>

#include <string>

#include "bench/gpu_backend.h"
#include "runner.h"

namespace gemmlab::kernels {
namespace {

Runner& runner() {
  static Runner r;
  return r;
}

bool on_sm90() { return runner().device().cc_major == 9 && runner().device().cc_minor == 0; }

void expect_correct(const CheckResult& r, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(r.rejected, "");
  EXPECT_TRUE(r.per_element);
  EXPECT_EQ(r.outside, 0) << "worst |d - r| / tolerance " << r.worst;
  EXPECT_EQ(r.outside_exact, 0);
  EXPECT_EQ(r.nonfinite, 0);
  EXPECT_EQ(r.guard_hits, 0);
  EXPECT_LE(r.worst, 1.0);
  EXPECT_GT(r.worst, 0.0);  // random data: bf16's rounding leaves some error
  // bf16 output: a relative Frobenius error of a few 2^-9, never 0, far under 2^-7.
  EXPECT_GT(r.rel_err, 1e-5);
  EXPECT_LT(r.rel_err, 0.0078125);
  EXPECT_TRUE(r.ok);
}

// 4096^3 and ragged sizes: M and N not multiples of the 128 x 256 tile, K a multiple of 16 but
// not of the 128-k tile (2000, 1008), N % 8 != 0 (1500: the direct bf16 stores).
const Problem kSizes[] = {{4096, 4096, 4096}, {1000, 1500, 2048}, {4000, 3000, 2000}, {129, 257, 144}, {1000, 1000, 1008}};

TEST(Fp8Gpu, StageIsCorrect) {
  if (!on_sm90()) GTEST_SKIP() << "stage 20a needs an sm_90 GPU";
  const Fp8Target t = Fp8Target::of(*find_stage("fp8-tensor"));
  for (const Problem& p : kSizes) expect_correct(runner().check_fp8(t, p), "gpu " + std::to_string(p.m) + "x" +
                                                                         std::to_string(p.n) + "x" + std::to_string(p.k));
  // The host reference (double, on the CPU) agrees on a small ragged problem.
  expect_correct(runner().check_fp8_host(t, {129, 257, 144}), "host 129x257x144");
}

// cuBLASLt is a reference only where it is right: its check is the same as the stage's. A
// problem it refuses comes back as a refusal in its words (it needs N % 8 == 0 here: 1500 %
// 8 = 4), never as a failure.
TEST(Fp8Gpu, CublasLtReferencesAreCorrectOrRefuse) {
  if (!on_sm90()) GTEST_SKIP() << "the block-scaled reference needs an sm_90 GPU";
  for (Track track : {Track::fp8, Track::fp8_block}) {
    const Fp8Target t = Fp8Target::cublaslt(track);
    for (const Problem& p : kSizes) {
      const std::string what = t.id() + " " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
      const CheckResult r = runner().check_fp8(t, p);
      if (!r.rejected.empty()) {
        std::printf("  %s refused: %s\n", what.c_str(), r.rejected.c_str());
        EXPECT_NE(r.rejected.find("cuBLASLt"), std::string::npos) << what << ": " << r.rejected;
        EXPECT_NE(p.n % 8, 0) << what << ": refused a problem with N % 8 == 0: " << r.rejected;
        continue;
      }
      expect_correct(r, what);
    }
  }
}

// K = 1000 = 62 x 16 + 8: rows of 1000 bytes, not the 16-byte multiple TMA strides by (K = 1008
// is: kSizes above).
TEST(Fp8Gpu, AKThatTmaCannotStrideIsRefusedWithTheRule) {
  const Fp8Target t = Fp8Target::of(*find_stage("fp8-tensor"));
  const CheckResult r = runner().check_fp8(t, {1024, 1024, 1000});
  if (!on_sm90()) {
    EXPECT_NE(r.rejected, "");  // no sm_90: refused all the same, for that reason
    return;
  }
  EXPECT_NE(r.rejected.find("K must be a multiple of 16"), std::string::npos) << r.rejected;
  EXPECT_NE(r.rejected.find("pad K"), std::string::npos) << r.rejected;
  const std::vector<TimeResult> timed = runner().time_fp8({t, Fp8Target::cublaslt(Track::fp8)}, {1024, 1024, 1000}, {});
  EXPECT_NE(timed[0].rejected.find("K must be a multiple of 16"), std::string::npos) << timed[0].rejected;
}

// Stage 20b steps through scale_a's k-blocks by a 32-bit byte stride (4 M): M = 2^30 is refused by
// that rule, before anything is allocated; M = 2^30 - 1 is not refused by it.
TEST(Fp8Gpu, BlockStageRefusesAnMWhoseScaleStrideWouldOverflow) {
  const StageLaunch block = launch_fp8_block();
  const char* why = block.check_fp8(1 << 30, 256, 256);
  ASSERT_NE(why, nullptr);
  EXPECT_NE(std::string(why).find("M must be below 1073741824"), std::string::npos) << why;
  const char* below = block.check_fp8((1 << 30) - 1, 256, 256);
  if (below != nullptr) {
    EXPECT_EQ(std::string(below).find("M must be below"), std::string::npos) << below;
  }
  if (on_sm90()) {
    EXPECT_EQ(block.check_fp8(4096, 7168, 16384), nullptr);
  }
}

// Timed in turns with cuBLASLt: both run, both at a plausible rate (well under the 1979 TFLOP/s
// roof of dense e4m3, and not a launch that did nothing).
TEST(Fp8Gpu, StageAndReferenceAreTimedInTurns) {
  if (!on_sm90()) GTEST_SKIP() << "stage 20a needs an sm_90 GPU";
  TimeOptions o;
  o.reps = 6;
  const std::vector<TimeResult> t = runner().time_fp8(
      {Fp8Target::of(*find_stage("fp8-tensor")), Fp8Target::cublaslt(Track::fp8)}, {4096, 4096, 4096}, o);
  ASSERT_EQ(t.size(), 2u);
  for (const TimeResult& r : t) {
    EXPECT_EQ(r.rejected, "");
    EXPECT_EQ(r.reps, 6);
    EXPECT_GT(r.tflops, 200);
    EXPECT_LT(r.tflops, 1979);
    EXPECT_GE(r.sets, 2);
  }
}

// The bench session's FP8 rows: the reference row checked and timed, the stage's ratio against it.
TEST(Fp8Gpu, BenchSessionGivesFp8RowsWithTheirReference) {
  if (!on_sm90()) GTEST_SKIP() << "stage 20a needs an sm_90 GPU";
  bench::TimeSettings time;
  time.reps = 4;
  std::unique_ptr<bench::Backend> gpu = bench::make_gpu_backend(time);
  bench::BenchSession session(*gpu, {{"fp8-tensor"}, {{4096, 4096, 4096}, {1024, 1024, 1000}}, {}, false});
  session.run();
  const bench::BenchResults out = bench::to_results(session.rows(), gpu->device(), bench::utc_now(), "test");
  // cuBLASLt's row and the stage's at 4096^3 (and cuBLASLt's at K = 1000 where it runs it).
  ASSERT_GE(out.results.size(), 2u);
  EXPECT_EQ(out.results[0].stage, "cublaslt-fp8");
  EXPECT_TRUE(out.results[0].ok);
  EXPECT_EQ(out.results[1].stage, "fp8-tensor");
  EXPECT_EQ(out.results[1].track, "fp8");
  EXPECT_EQ(out.results[1].reference, "cublaslt-fp8");
  EXPECT_EQ(out.results[1].reference_name, "cuBLASLt FP8 (per-tensor scales)");
  EXPECT_GT(out.results[1].ratio_to_cublas, 0.5);
  EXPECT_DOUBLE_EQ(out.results[1].ratio_to_cublas, out.results[1].ratio);
  // K = 1000 is refused by the stage (cuBLASLt may refuse it too): a skipped row that names the rule.
  bool refused = false;
  for (const bench::BenchSkipped& s : out.skipped)
    refused |= s.stage == "fp8-tensor" && s.k == 1000 && s.reason.find("multiple of 16") != std::string::npos;
  EXPECT_TRUE(refused);
  EXPECT_TRUE(session.all_checks_passed());
}

}  // namespace
}  // namespace gemmlab::kernels
