// The promotion study (gemmlab/fp8_promotion.h) and e4m3 quantization (gemmlab/fp8_quantize.h):
// cases with known answers (+-1 data is exact, all-ones stalls at 2^14), a bound from the 14-bit
// accumulator, and the study's medians recomputed here from the operands it drew.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gemmlab/fp8_accum.h"
#include "gemmlab/fp8_promotion.h"
#include "gemmlab/fp8_quantize.h"

using namespace gemmlab;
using fp8::Fp8Data;

namespace {

// e4m3 by its definition (1 sign, 4 exponent bits biased by 7, 3 mantissa bits), apart from the model.
double e4m3_value(std::uint8_t v) {
  const int e = (v >> 3) & 15, m = v & 7;
  const double mag = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
  return v & 0x80 ? -mag : mag;
}

fp8::PromotionStudy study(Fp8Data data, std::vector<int> ks, std::vector<int> intervals, int columns, std::uint64_t seed = 1,
                          fp8::Fp8ErrorOf error_of = fp8::Fp8ErrorOf::Exact) {
  fp8::PromotionStudySpec s;
  s.error_of = error_of;
  s.ks = std::move(ks);
  s.intervals = std::move(intervals);
  s.columns = columns;
  s.data = data;
  s.seed = seed;
  auto r = fp8::promotion_study(s);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? *r : fp8::PromotionStudy{};
}

}  // namespace

TEST(Fp8Quantize, EncodesToTheNearestCode) {
  // Every finite code comes back from its own value (0x80 is -0).
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x7F) == 0x7F) continue;
    EXPECT_EQ(fp8::encode_e4m3(e4m3_value(std::uint8_t(c))), c) << c;
  }
  EXPECT_EQ(fp8::encode_e4m3(1.0625), 0x38);   // halfway between 1 and 1.125: to the even 1
  EXPECT_EQ(fp8::encode_e4m3(1.1875), 0x3A);   // halfway between 1.125 and 1.25: to the even 1.25
  EXPECT_EQ(fp8::encode_e4m3(1.07), 0x39);
  EXPECT_EQ(fp8::encode_e4m3(-3.3), 0xC5);     // nearest of 3.25 / 3.5
  EXPECT_EQ(fp8::encode_e4m3(500), 0x7E);      // saturates at 448
  EXPECT_EQ(fp8::encode_e4m3(-1e9), 0xFE);
  EXPECT_EQ(fp8::encode_e4m3(std::ldexp(1.0, -10)), 0x00);       // tie between 0 and 2^-9: to 0
  EXPECT_EQ(fp8::encode_e4m3(std::ldexp(1.5, -10)), 0x01);       // 2^-9 nearer than 0
  EXPECT_EQ(fp8::encode_e4m3(std::ldexp(15.0, -10)), 0x08);      // 7.5 x 2^-9: up to the smallest normal
  EXPECT_EQ(fp8::encode_e4m3(std::nan("")), 0x7F);
}

TEST(Fp8Quantize, BlockScaleMapsTheLargestElementTo448) {
  std::vector<float> x(128);
  for (int i = 0; i < 128; ++i) x[i] = 0.01f * float(i - 40);  // amax 0.87 at i = 127
  std::vector<std::uint8_t> codes(128);
  const float scale = fp8::quantize_block(x, codes);
  EXPECT_FLOAT_EQ(scale, 0.87f / 448);
  EXPECT_EQ(codes[127], 0x7E);
  EXPECT_EQ(codes[40], 0x00);
  for (int i = 0; i < 128; ++i)  // every code within half a step (1/16 relative) of x / scale
    EXPECT_NEAR(e4m3_value(codes[i]) * scale, x[i], std::max(std::fabs(x[i]) / 16, 1e-6f)) << i;
  std::vector<float> zeros(128, 0.0f);
  EXPECT_EQ(fp8::quantize_block(zeros, codes), 1.0f);
  EXPECT_EQ(codes[0], 0x00);
}

// +-1 products are integers; the partial sums of a random-sign column stay far below 2^13, where
// the tensor core's cut begins to drop the units: every interval is exact, never promoting too.
TEST(Fp8Promotion, PlusMinusOneIsExact) {
  const auto s = study(Fp8Data::PlusMinusOne, {128, 1024, 16384}, {1, 4, 0}, 32);
  ASSERT_EQ(s.points.size(), 9u);
  for (const auto& p : s.points) {
    EXPECT_EQ(p.max, 0.0) << p.k << " every " << p.promote_every;
    EXPECT_EQ(p.exact_columns, 32);
  }
}

// All ones: the sum K stalls at 2^14 without promotion (then E = 14 and a product of 1 falls
// below the cut at 2^(14-13)); promoting every k-block keeps it exact at any K.
TEST(Fp8Promotion, OnesStallAt16384WithoutPromotion) {
  const auto s = study(Fp8Data::Ones, fp8::doubling_ks(4096, 65536), {1, 8, 0}, 1);
  EXPECT_EQ(s.at(16384, 0)->max, 0.0);
  EXPECT_EQ(s.at(32768, 0)->max, 0.5);    // 16384 of 32768
  EXPECT_EQ(s.at(65536, 0)->max, 0.75);   // 16384 of 65536
  EXPECT_EQ(s.at(65536, 1)->max, 0.0);
  EXPECT_EQ(s.at(65536, 8)->max, 0.0);    // 1024 per promotion, far from 2^14
}

// The bound of the 14-bit accumulator. One k32 step cuts each of its (at most 33) terms by less
// than 2^(E-13) <= 2^-13 x the largest term, and the sum by less than 2^-13 of itself; cutting
// toward zero never grows a magnitude, so every term and the sum are at most T, the sum of |a b|
// since the last promotion. Promoting every k-block (4 steps): error <= 4 x 34 x 2^-13 x sum |a b|,
// plus FP32's rounding of K/128 promotions: the error measured against sum |a b| (magnitude).
TEST(Fp8Promotion, EveryKBlockStaysUnderTheAccumulatorBound) {
  const double bound = 4 * 34 * std::ldexp(1.0, -13) + 128 * std::ldexp(1.0, -24);
  for (Fp8Data data : {Fp8Data::Normal, Fp8Data::Positive}) {
    const auto s = study(data, {128, 1024, 16384}, {1}, 64, 3, fp8::Fp8ErrorOf::Magnitude);
    for (const auto& p : s.points) EXPECT_LT(p.max, bound) << fp8::fp8_data_name(data) << " K " << p.k;
    // The model's values sit far below the bound (median ~4e-4 at K = 16384 for positive data): the
    // bound counts every cut as a whole unit.
    EXPECT_LT(s.at(16384, 1)->median, bound / 10);
  }
}

// Positive data (every product >= 0): the sum grows like K and the tensor core's window slides up
// with it. Never promoting loses more as K grows, past bf16's own rounding (2^-9) at long K, while
// promoting every k-block stays under it; longer intervals lie in between.
TEST(Fp8Promotion, WithoutPromotionTheErrorGrowsWithK) {
  const std::vector<int> ks = fp8::doubling_ks(128, 16384);
  ASSERT_EQ(ks, (std::vector<int>{128, 256, 512, 1024, 2048, 4096, 8192, 16384}));
  const auto s = study(Fp8Data::Positive, ks, {1, 2, 4, 8, 0}, 64, 5);
  ASSERT_EQ(s.points.size(), 40u);
  EXPECT_EQ(s.points[0].k, 128);
  EXPECT_EQ(s.points[8].promote_every, 2);  // by interval, then K
  for (std::size_t i = 1; i < ks.size(); ++i) EXPECT_GT(s.at(ks[i], 0)->median, s.at(ks[i - 1], 0)->median) << ks[i];
  EXPECT_GT(s.at(16384, 0)->median, fp8::kBf16HalfUlp);
  EXPECT_LT(s.at(16384, 1)->max, fp8::kBf16HalfUlp);
  EXPECT_LT(s.at(16384, 1)->median, s.at(16384, 2)->median);
  EXPECT_LT(s.at(16384, 2)->median, s.at(16384, 4)->median);
  EXPECT_LT(s.at(16384, 4)->median, s.at(16384, 8)->median);
  EXPECT_LT(s.at(16384, 8)->median, s.at(16384, 0)->median);
  EXPECT_EQ(s.at(128, 1)->median, s.at(128, 0)->median);  // one k-block: nothing promoted yet
}

// The study's numbers recomputed from the operands it drew: the model's prefix dot product
// (dot_with_promotion, checked bit for bit against the H200) against the exact sum of the
// decoded codes, the median and max over columns taken here, for both measures.
TEST(Fp8Promotion, MatchesADirectComputation) {
  for (fp8::Fp8ErrorOf of : {fp8::Fp8ErrorOf::Magnitude, fp8::Fp8ErrorOf::Exact}) {
    fp8::PromotionStudySpec spec;
    spec.error_of = of;
    spec.ks = {256, 1024, 4096};
    spec.intervals = {2, 0};
    spec.columns = 5;
    spec.data = Fp8Data::Normal;
    spec.seed = 11;
    const auto s = fp8::promotion_study(spec);
    ASSERT_TRUE(s.ok()) << s.error();
    const auto ops = fp8::study_operands(spec);
    ASSERT_EQ(ops.a.size(), 5u);
    ASSERT_EQ(ops.a[0].size(), 4096u);
    // Normal data is quantized per 128-block: each block's largest magnitude is 448.
    for (int k0 = 0; k0 < 4096; k0 += 128) {
      int amax = 0;
      for (int k = k0; k < k0 + 128; ++k) amax = std::max(amax, ops.b[3][k] & 0x7F);
      EXPECT_EQ(amax, 0x7E) << k0;
    }
    for (int every : spec.intervals)
      for (int k : spec.ks) {
        std::vector<double> err;
        for (int c = 0; c < 5; ++c) {
          const std::span<const std::uint8_t> a(ops.a[c].data(), k), b(ops.b[c].data(), k);
          double exact = 0, mag = 0;
          for (int i = 0; i < k; ++i) {
            const double p = e4m3_value(a[i]) * e4m3_value(b[i]);
            exact += p, mag += std::fabs(p);
          }
          const double of_what = of == fp8::Fp8ErrorOf::Magnitude ? mag : std::fabs(exact);
          err.push_back(std::fabs(double(fp8::dot_with_promotion(a, b, 128, every)) - exact) / of_what);
        }
        std::sort(err.begin(), err.end());
        const auto* p = s->at(k, every);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->median, err[2]) << k << " every " << every;
        EXPECT_EQ(p->max, err[4]) << k << " every " << every;
        EXPECT_GT(p->max, 0.0);  // normal data loses bits: the comparison is of real errors
      }
    // The same seed draws the same operands; another draws others.
    EXPECT_EQ(fp8::study_operands(spec).a[2], ops.a[2]);
    spec.seed = 12;
    EXPECT_NE(fp8::study_operands(spec).a[2], ops.a[2]);
  }
}

TEST(Fp8Promotion, RefusesWhatItCannotStudy) {
  fp8::PromotionStudySpec s;
  s.ks = {100};
  s.intervals = {1};
  EXPECT_NE(fp8::promotion_study(s).error().find("multiple of the k-block"), std::string::npos);
  s.ks = {256, 128};
  EXPECT_NE(fp8::promotion_study(s).error().find("ascend"), std::string::npos);
  s.ks = {128};
  s.intervals = {-1};
  EXPECT_NE(fp8::promotion_study(s).error().find("0 for never"), std::string::npos);
  s.intervals = {};
  EXPECT_FALSE(fp8::promotion_study(s).ok());
  s.intervals = {1};
  s.columns = 4096;
  s.ks = {8192};
  EXPECT_NE(fp8::promotion_study(s).error().find("2^24"), std::string::npos);
  s.columns = 1;
  EXPECT_TRUE(fp8::promotion_study(s).ok());
  s.k_block = 48;
  EXPECT_FALSE(fp8::promotion_study(s).ok());
  EXPECT_EQ(fp8::parse_fp8_data("pm1").ok(), true);
  EXPECT_FALSE(fp8::parse_fp8_data("gauss").ok());
  EXPECT_TRUE(fp8::parse_fp8_error_of("magnitude").ok());
  EXPECT_FALSE(fp8::parse_fp8_error_of("relative").ok());
  EXPECT_EQ(fp8::doubling_ks(128, 1000), (std::vector<int>{128, 256, 512, 1000}));
}
