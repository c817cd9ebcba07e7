// The GPU grade's sentences (device_words.h) in English are the text grade_device_gpu.cpp wrote
// before they became words, byte for byte: the GPU tests (kernels/tests/exercise_gpu_grade.cpp)
// and `gemmlab exercise --json` read that text. The old_* functions are that code as it was (an
// ostream and snprintf), run beside the new sentences on sample values of every branch.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "device_words.h"

namespace gemmlab::exercise {
namespace {

// ---- the wording before words (grade_device_gpu.cpp, first_wrong_check, grade_conv,
// time_against_stage, mbarrier_timeouts) -------------------------------------------------------

std::string old_short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", x);
  return buf;
}

std::string old_conv_words(const conv::Shape& s) {
  return "N " + std::to_string(s.n) + ", H " + std::to_string(s.h) + ", W " + std::to_string(s.w) + ", C " +
         std::to_string(s.c) + ", K " + std::to_string(s.k) + ", " + std::to_string(s.r) + " x " + std::to_string(s.s) +
         " filters, pad " + std::to_string(s.pad) + ", stride " + std::to_string(s.stride);
}

std::string old_wrong_c(const char* number, int m, int n, int k, const WrongResult& c) {
  std::ostringstream why;
  why << "stage " << number << "'s kernel with your function computes a wrong C at " << m << " x " << n << " x " << k
      << ": ";
  if (!c.rejected.empty()) why << c.rejected;
  else if (c.nonfinite) why << c.nonfinite << " elements are NaN or infinite";
  else if (c.guard_hits) why << c.guard_hits << " words outside C were written";
  else why << "relative error " << old_short_number(c.rel_err) << " against cuBLAS (at most "
           << old_short_number(c.tolerance) << ")";
  return why.str();
}

std::string old_wrong_conv(const char* number, const conv::Shape& s, const WrongResult& c) {
  std::ostringstream why;
  why << "stage " << number << "'s kernel with your function computes a wrong output at " << old_conv_words(s) << ": ";
  if (!c.rejected.empty()) why << c.rejected;
  else if (c.nonfinite) why << c.nonfinite << " elements are NaN or infinite";
  else if (c.guard_hits) why << c.guard_hits << " words outside the output were written";
  else why << "relative error " << old_short_number(c.rel_err) << " against im2col + cuBLAS (at most "
           << old_short_number(c.tolerance) << ")";
  return why.str();
}

std::string old_timed(const std::string& where, int m, int n, int k, const char* number, double ratio, double yours,
                      double stage) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "correct against cuBLAS on %s; at %d x %d x %d your kernel runs at %.2fx stage %s's speed "
                "(%.3f ms against %.3f ms, timed in turns)",
                where.c_str(), m, n, k, ratio, number, yours, stage);
  return buf;
}

std::string old_timed_conv(const std::string& where, const conv::Shape& s, const char* number, double ratio,
                           double yours, double stage) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "correct against im2col + cuBLAS on %s; at %s your kernel runs at %.2fx stage %s's speed "
                "(%.4f ms against %.4f ms, timed in turns)",
                where.c_str(), old_conv_words(s).c_str(), ratio, number, yours, stage);
  return buf;
}

std::string old_deadlock(const unsigned long long w[2], int kS) {
  if (!w[0] && !w[1]) return {};
  auto field = [](unsigned long long word, int shift, unsigned long long mask) {
    return std::to_string((word >> shift) & mask);
  };
  auto wait = [&](unsigned long long word, const char* barrier) {
    return std::string(barrier) + "[" + field(word, 8, 0xff) + "] for parity " + field(word, 0, 1) +
           " before k-tile " + field(word, 32, 0x7fffffff);
  };
  std::string why = "your plan deadlocks on the GPU: ";
  if (w[0]) why += "the producer waited on " + wait(w[0], "empty");
  if (w[0] && w[1]) why += " and the consumer on " + wait(w[1], "full") + "; neither wait passed within 100 ms";
  else if (w[1]) why += "the consumer waited on " + wait(w[1], "full") + ", which did not pass within 100 ms";
  else why += ", which did not pass within 100 ms";
  const int at = static_cast<int>(((w[0] ? w[0] : w[1]) >> 32) & 0x7fffffff);
  return why + " (stage 17 waits on full for parity " + std::to_string(at / kS & 1) + " and on empty for " +
         (at < kS ? std::string("none (a fresh barrier)") : "parity " + std::to_string((at / kS - 1) & 1)) +
         " at k-tile " + std::to_string(at) + ")";
}

// ---- samples of every branch ------------------------------------------------------------------

const WrongResult kWrongs[] = {
    {"the stage needs K a multiple of 8", 0, 0, 0, 2e-3},  // refused: the runner's words as they are
    {"", 1572864, 0, 0, 1e-5},                             // the NaN poison left in C
    {"", 0, 12, 0, 1e-5},                                  // writes past C
    {"", 0, 0, 0.4375, 2e-3},                              // how far off
    {"", 0, 0, 1.25e-4, 1e-5},
};
constexpr conv::Shape kShapes[] = {{2, 7, 7, 8, 64, 3, 3, 1, 2, 1}, {1, 224, 224, 3, 64, 7, 7, 3, 2, 1}};
const char* const kGpus[] = {"NVIDIA H200", "NVIDIA GeForce RTX 4090"};

TEST(DeviceWords, AWrongResultReadsAsItDidBeforeItBecameWords) {
  for (const WrongResult& r : kWrongs) {
    EXPECT_EQ(wrong_c("9", 1024, 1536, 704, r).text(), old_wrong_c("9", 1024, 1536, 704, r));
    EXPECT_EQ(wrong_c("13b", 1000, 1001, 333, r).text(), old_wrong_c("13b", 1000, 1001, 333, r));
    for (const conv::Shape& s : kShapes)
      EXPECT_EQ(wrong_conv_output("14a", s, r).text(), old_wrong_conv("14a", s, r));
  }
  // The texts exercise_gpu_grade.cpp looks for.
  EXPECT_EQ(wrong_c("9", 1024, 1536, 704, kWrongs[3]).text(),
            "stage 9's kernel with your function computes a wrong C at 1024 x 1536 x 704: relative error 0.44 against "
            "cuBLAS (at most 0.002)");
  EXPECT_EQ(wrong_c("11", 32768, 1024, 256, kWrongs[1]).text(),
            "stage 11's kernel with your function computes a wrong C at 32768 x 1024 x 256: 1572864 elements are NaN "
            "or infinite");
  EXPECT_EQ(wrong_conv_output("14a", kShapes[0], kWrongs[3]).text(),
            "stage 14a's kernel with your function computes a wrong output at N 2, H 7, W 7, C 8, K 64, 3 x 3 filters, "
            "pad 1, stride 2: relative error 0.44 against im2col + cuBLAS (at most 0.002)");
}

TEST(DeviceWords, ACorrectKernelsSpeedReadsAsItDidBeforeItBecameWords) {
  for (const char* gpu : kGpus) {
    for (double ratio : {0.98, 1.0, 0.4375, 12.345, 0.004999}) {
      EXPECT_EQ(timed_against_stage(gpu, 4096, 4096, 2048, "17", ratio, 1.23456, 1.2).text(),
                old_timed(gpu, 4096, 4096, 2048, "17", ratio, 1.23456, 1.2));
      for (const conv::Shape& s : kShapes)
        EXPECT_EQ(timed_conv_against_stage(gpu, s, "14a", ratio, 0.0123456, 0.0099).text(),
                  old_timed_conv(gpu, s, "14a", ratio, 0.0123456, 0.0099));
    }
    EXPECT_EQ(correct_not_timed(gpu, "too large").text(), std::string("correct against cuBLAS on ") + gpu +
                                                              "; not timed: too large");
    EXPECT_EQ(correct_conv_not_timed(gpu, "too large").text(),
              std::string("correct against im2col + cuBLAS on ") + gpu + "; not timed: too large");
  }
  EXPECT_EQ(timed_against_stage("NVIDIA H200", 32768, 1024, 1024, "11", 0.98, 1.0, 0.98).text(),
            "correct against cuBLAS on NVIDIA H200; at 32768 x 1024 x 1024 your kernel runs at 0.98x stage 11's speed "
            "(1.000 ms against 0.980 ms, timed in turns)");
}

unsigned long long stuck(int k_tile, int stage, int parity) {
  return 1ull << 63 | static_cast<unsigned long long>(k_tile) << 32 | static_cast<unsigned long long>(stage) << 8 |
         static_cast<unsigned long long>(parity);
}

TEST(DeviceWords, ADeadlockReadsAsItDidBeforeItBecameWords) {
  const unsigned long long samples[][2] = {
      {stuck(0, 0, 0), stuck(0, 0, 0)},  // exercise_gpu_grade.cpp's producer waiting for the wrong phase
      {stuck(5, 1, 1), 0},
      {0, stuck(9, 1, 0)},
      {stuck(3, 3, 0), stuck(2, 2, 1)},
      {0, stuck(0x7fffffff, 0xff, 1)},  // every field at its widest
      {0, 0},
  };
  for (const auto& w : samples)
    for (int stages : {2, 4, 8})
      EXPECT_EQ(mbarrier_deadlock(w[0], w[1], stages).text(), old_deadlock(w, stages)) << w[0] << " " << w[1];
  EXPECT_EQ(mbarrier_deadlock(stuck(0, 0, 0), stuck(0, 0, 0), 4).text(),
            "your plan deadlocks on the GPU: the producer waited on empty[0] for parity 0 before k-tile 0 and the "
            "consumer on full[0] for parity 0 before k-tile 0; neither wait passed within 100 ms (stage 17 waits on "
            "full for parity 0 and on empty for none (a fresh barrier) at k-tile 0)");
  EXPECT_TRUE(mbarrier_deadlock(0, 0, 4).empty());
}

// Exercise 20-fp8/quantize's GPU sentences (no older wording: they are new with its harness), as
// kernels/tests/exercise_gpu_grade.cpp reads them.
TEST(DeviceWords, TheQuantizersSentences) {
  EXPECT_EQ(fp8_quantize_wrong_scale("NVIDIA H200", 0, 3, "0.25", "0.5").text(),
            "on NVIDIA H200 your quantize_row gives block 3 of activation row 0 the scale 0.25; the simulator's "
            "quantizer gives 0.5 (your file passed on the CPU; NVRTC fuses a * b + c into one rounding and takes "
            "<cmath> from libcu++, so look for arithmetic that rounds differently there)");
  EXPECT_EQ(fp8_quantize_wrong_code("NVIDIA H200", 7, 130, "1.0625", "1", "0x39 (1.125)", "0x38 (1)").text(),
            "on NVIDIA H200 your quantize_row gives x = 1.0625 (activation row 7, element 130, scale 1) the code "
            "0x39 (1.125); the simulator's quantizer gives 0x38 (1) (your file passed on the CPU; NVRTC fuses a * b "
            "+ c into one rounding and takes <cmath> from libcu++, so look for arithmetic that rounds differently "
            "there)");
  EXPECT_EQ(fp8_quantize_timed("NVIDIA H200", 2048, 7168, 0.987, 0.04561, 0.04502).text(),
            "the same codes and scales as the simulator's quantizer on NVIDIA H200 for a 2048 x 7168 activation; "
            "your quantization runs at 0.99x the lesson's solution's speed (0.0456 ms against 0.0450 ms, timed in "
            "turns)");
  EXPECT_EQ(fp8_quantize_not_timed("NVIDIA H200", "no time measured").text(),
            "the same codes and scales as the simulator's quantizer on NVIDIA H200; not timed: no time measured");
}

}  // namespace
}  // namespace gemmlab::exercise
