// The inputs of exercise 20-fp8/quantize, built once and shared by its host grader
// (grader_fp8_quantize.cpp) and its GPU grade (kernels/exercise/grade_fp8_quantize_gpu.cpp): the
// values to_e4m3 is asked to convert, and activation rows (1 x 128 blocks) quantize_row is asked
// to quantize. The expected answers are the simulator's quantizer (gemmlab/fp8_quantize.h); the
// helpers here say what a wrong code is (rounded toward zero, a tie away from zero, ...).
// No libm in the data: every value comes from integer hashing and exact float arithmetic, so the
// cases are the same on every machine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "words.h"

namespace gemmlab::exercise::fp8q {

constexpr int kBlock = 128;  // elements of K sharing one scale (DeepGEMM's 1 x 128)

// What a value asked of to_e4m3 tests, in the order the grader reports failures.
enum class Kind { Exact, Between, Tie, Saturate, Zero };
struct Scalar {
  double v;
  Kind kind;
};
const std::vector<Scalar>& scalar_cases();

// One activation row: k floats (a multiple of kBlock) and what it is there for.
struct Row {
  Words what;
  std::vector<float> x;
};
const std::vector<Row>& row_cases();

// The GPU grade's activation, m x k (k a multiple of kBlock), row-major: the blocks of
// row_cases() first, then rows of activations near 1 with outlier channels, a block of zeros and
// one of -0 here and there.
std::vector<float> gpu_activation(int m, int k);

// The e4m3 code nearest to v in the direction of zero (what a cast to int gives) and, for a tie,
// the code away from zero (what round() gives); both saturate at 448 and keep the sign.
std::uint8_t toward_zero_code(double v);
std::uint8_t away_code(double v);

// "0x3C (1.5)", "0x7F (NaN)"; a value that is no byte: "300 (not a byte)".
std::string code_text(long long code);
// "1.0625", "-0", "inf": the shortest text that reads back as v (as a double, as a float).
std::string value_text(double v);
std::string float_text(float v);
// x / scale: 10 digits, or all 17 where 10 would read as a tie or an e4m3 value it is not.
std::string quotient_text(double q);

// The scale quantize_row must write for kBlock floats (gemmlab/fp8_quantize.h's quantize_block).
float block_scale(const float* x);

}  // namespace gemmlab::exercise::fp8q
