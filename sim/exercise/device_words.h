// The GPU grade's sentences (kernels/exercise/grade_device_gpu.cpp) as words (words.h), so that the
// exercise panel shows them in the learner's language. They are built here, without CUDA, so that
// a host test (tests/test_device_words.cpp) holds their English to the wording the GPU tests
// (kernels/tests/exercise_gpu_grade.cpp) and `gemmlab exercise --json` read.
#pragma once
#include <string>

#include "gemmlab/conv_problem.h"
#include "words.h"

namespace gemmlab::exercise {

// What the runner's check of one problem found (kernels::CheckResult, less `ok`), and the
// stage's tolerance for its relative error.
struct WrongResult {
  std::string rejected;  // the stage cannot run this problem (the runner's words)
  long long nonfinite = 0;
  long long guard_hits = 0;
  double rel_err = 0;
  double tolerance = 0;
};

// "stage 9's kernel with your function computes a wrong C at 1024 x 1536 x 704: ..."
Words wrong_c(const std::string& stage, int m, int n, int k, const WrongResult& r);
// The convolution's: "... computes a wrong output at N 2, H 7, ...: ..." (against im2col + cuBLAS).
Words wrong_conv_output(const std::string& stage, const conv::Shape& s, const WrongResult& r);
// "N 2, H 7, W 7, C 8, K 64, 3 x 3 filters, pad 1, stride 2"
Words conv_shape_words(const conv::Shape& s);

// A correct kernel: its speed against the stage's own, timed in turns on `gpu`; or why it was
// not timed (`rejected`: the runner's words).
Words timed_against_stage(const std::string& gpu, int m, int n, int k, const std::string& stage, double ratio,
                          double yours_ms, double stage_ms);
Words timed_conv_against_stage(const std::string& gpu, const conv::Shape& s, const std::string& stage, double ratio,
                               double yours_ms, double stage_ms);
Words correct_not_timed(const std::string& gpu, const std::string& rejected);
Words correct_conv_not_timed(const std::string& gpu, const std::string& rejected);

// The waits of stage 17's harness that gave up (mbarrier_parity_harness.cuh's
// gemmlab_mbarrier_timeouts: the producer's first and the consumers'; 0: none, else
// 1 << 63 | k_tile << 32 | stage << 8 | parity), with stage 17's own waits at that k-tile in a
// ring of `stages`; empty when neither gave up.
Words mbarrier_deadlock(unsigned long long producer, unsigned long long consumer, int stages);

// Exercise 20-fp8/quantize on the GPU (grade_fp8_quantize_gpu.cpp): the first block whose scale,
// or the first element whose code, the learner's function computes otherwise on the GPU than the
// simulator's quantizer (numbers as text: fp8_quantize_cases.h); a correct one's speed against the
// lesson's solution, timed in turns; or why it was not timed.
Words fp8_quantize_wrong_scale(const std::string& gpu, int row, int block, const std::string& got,
                               const std::string& want);
Words fp8_quantize_wrong_code(const std::string& gpu, int row, int col, const std::string& x, const std::string& scale,
                              const std::string& got, const std::string& want);
Words fp8_quantize_timed(const std::string& gpu, int m, int k, double ratio, double yours_ms, double solution_ms);
Words fp8_quantize_not_timed(const std::string& gpu, const std::string& why);

}  // namespace gemmlab::exercise
