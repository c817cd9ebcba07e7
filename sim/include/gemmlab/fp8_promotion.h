// How far an FP8 dot product accumulated by the tensor cores drifts from the exact sum, against K,
// for each promotion interval (DeepGEMM's fix: every few 128-wide k-blocks the tensor core's partial
// sum is added into an FP32 register and the tensor core starts again from zero). Each of
// `columns` GEMM columns gets its own random e4m3 operands (deterministic from the seed); each
// column is accumulated exactly as gemmlab/fp8_accum.h's wgmma_step does, k32 step by k32 step,
// and compared with its exact sum. What the FP8 accumulator view draws and lesson 20 quotes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::fp8 {

// The operands' values, before they become e4m3 codes.
enum class Fp8Data {
  Normal,    // N(0, 1), each 128-element block quantized with its own scale amax / 448 (1 x 128)
  Positive,  // |N(0, 1)|, quantized the same way: every product >= 0, so the sum grows like K
  PlusMinusOne,  // +-1 with random signs: small integers, which the tensor core adds exactly
  Ones,      // every element 1: the sum is K, the largest a +-1 column can reach
};

// "normal", "positive", "pm1", "ones"; an error naming them for anything else.
Expected<Fp8Data> parse_fp8_data(const std::string& name);
const char* fp8_data_name(Fp8Data d);

// What a column's error |value - exact| is divided by.
enum class Fp8ErrorOf {
  Exact,      // |exact|: the relative error of the result (the error itself where exact is 0)
  Magnitude,  // sum over k of |a_k b_k|: the scale the accumulator's cuts are relative to, bounded
              // for zero-mean data whose exact sum may be near 0. Both agree for positive data.
};
Expected<Fp8ErrorOf> parse_fp8_error_of(const std::string& name);  // "exact", "magnitude"

struct PromotionStudySpec {
  std::vector<int> ks;          // the K values, ascending, each a multiple of k_block
  std::vector<int> intervals;   // k-blocks between promotions; 0 = never (the tensor core holds the whole sum)
  int k_block = 128;            // 4 wgmma k32 steps, the block the fine-grained scales cover
  int columns = 64;             // independent dot products (GEMM columns) per K
  Fp8Data data = Fp8Data::Normal;
  Fp8ErrorOf error_of = Fp8ErrorOf::Exact;
  std::uint64_t seed = 1;
};

// A column's error is |value - exact| divided as spec.error_of says.
struct PromotionPoint {
  int k = 0;
  int promote_every = 0;  // as in intervals; 0 = never
  double median = 0;      // over the columns
  double max = 0;
  int exact_columns = 0;  // columns with no error at all
};

struct PromotionStudy {
  PromotionStudySpec spec;
  std::vector<PromotionPoint> points;  // by interval in spec order, then by k ascending
  // The point of (k, interval), or nullptr.
  const PromotionPoint* at(int k, int promote_every) const;
};

// Refuses: no K or no interval, K not ascending or not a multiple of k_block, k_block not a
// multiple of 32, a negative interval, columns outside 1..4096, more than 2^24 products per
// interval (columns x largest K: the view stays interactive).
Expected<PromotionStudy> promotion_study(const PromotionStudySpec& spec);

// The operands promotion_study draws, column by column: a[c] and b[c] hold the largest K's codes.
struct StudyOperands {
  std::vector<std::vector<std::uint8_t>> a, b;
};
StudyOperands study_operands(const PromotionStudySpec& spec);

// k_min, 2 k_min, 4 k_min ... up to k_max, and k_max itself if the doubling misses it.
std::vector<int> doubling_ks(int k_min, int k_max);

// The relative rounding error of a bf16 result (8 significant bits, round to nearest): 2^-9. An
// accumulator error below it vanishes in the kernel's bf16 output.
constexpr double kBf16HalfUlp = 1.0 / 512;

}  // namespace gemmlab::fp8
