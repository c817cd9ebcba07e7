// Exercise 20-fp8/quantize: the shipped reference and another correct implementation pass; each
// typical mistake, made in the reference by one edit, fails with the sentence that names it.
#include <gtest/gtest.h>

#include <cmath>

#include "catalog.h"
#include "fp8_quantize_cases.h"
#include "gemmlab/fp8_quantize.h"
#include "grade_host.h"

namespace gemmlab::exercise {
namespace {

std::string reference() {
  const auto ex = find_exercise(GEMMLAB_COURSE_DIR, "20-fp8/quantize");
  EXPECT_TRUE(ex) << ex.error();
  return ex ? ex->reference : std::string();
}

// The reference with `from` replaced by `to` (which must be there once).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = reference();
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(s.find(from, at + 1), std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

HostVerdict judge(const std::string& source) {
  const auto g = grade_on_host(*find_grader("fp8-quantize"), source);
  EXPECT_EQ(g.stage, HostGrade::Stage::Evaluate) << g.verdict.reason << g.compiler_output;
  return g.verdict;
}

TEST(Fp8Quantize, ReferencePassesEveryRule) {
  const HostVerdict v = judge(reference());
  EXPECT_TRUE(v.pass) << v.reason;
  ASSERT_EQ(v.passed.size(), 3u);
  EXPECT_EQ(v.passed[0], "to_e4m3: 1238 values to the nearest e4m3, ties to even, saturated at 448, zeros signed");
  EXPECT_EQ(v.passed[1], "quantize_row: each of the 24 blocks' scale is its amax / 448, 1 for a block of zeros");
  EXPECT_EQ(v.passed[2], "quantize_row: all 3072 codes are to_e4m3(x / scale)");
}

// Rounding by hand (the fraction compared with one half), the binade found by a loop: the same codes.
TEST(Fp8Quantize, AnotherCorrectImplementationPasses) {
  const HostVerdict v = judge(R"(
unsigned char to_e4m3(double v) {
  const unsigned char s = std::signbit(v) ? 0x80 : 0;
  const double a = std::fabs(v);
  if (a >= 464) return s | 0x7E;
  int p = -6;
  while (p < 8 && a >= std::ldexp(1.0, p + 1)) ++p;
  const double q = a / std::ldexp(1.0, p - 3);
  long long n = (long long)q;
  const double f = q - n;
  if (f > 0.5 || (f == 0.5 && (n & 1))) ++n;
  const long long code = (p + 6) * 8 + n;
  return s | (unsigned char)(code > 0x7E ? 0x7E : code);
}
void quantize_row(const float* x, int k, unsigned char* codes, float* scales) {
  for (int b = 0; b * 128 < k; ++b) {
    float amax = 0;
    for (int i = 0; i < 128; ++i) amax = std::fabs(x[b * 128 + i]) > amax ? std::fabs(x[b * 128 + i]) : amax;
    scales[b] = amax == 0 ? 1.0f : amax / 448;
    for (int i = 0; i < 128; ++i) codes[b * 128 + i] = to_e4m3((double)x[b * 128 + i] / (double)scales[b]);
  }
}
)");
  EXPECT_TRUE(v.pass) << v.reason;
}

TEST(Fp8Quantize, StubFailsOnTheFirstSubnormal) {
  const auto ex = find_exercise(GEMMLAB_COURSE_DIR, "20-fp8/quantize");
  ASSERT_TRUE(ex) << ex.error();
  const HostVerdict v = judge(ex->stub);
  EXPECT_FALSE(v.pass);
  // 2^-9: ilogb -9, 8 steps, so (p + 7) * 8 + 8 - 8 = -16, the byte 0xF0.
  EXPECT_EQ(v.reason, "to_e4m3(0.001953125) returned 0xF0 (-128): 0.001953125 is e4m3 0x01 (0.001953125) exactly: "
                      "below 2^-6 e4m3 is subnormal, exponent field 0 and value = mantissa 1 x 2^-9");
}

TEST(Fp8Quantize, RoundingTowardZeroIsNamed) {
  const HostVerdict v = judge(edited("std::nearbyint(std::ldexp(a, 3 - p))", "std::trunc(std::ldexp(a, 3 - p))"));
  EXPECT_FALSE(v.pass);
  // 70% of the way from 2^-9 to 2 x 2^-9: 1.7 steps, nearest 2, cut to 1.
  EXPECT_EQ(v.reason, "to_e4m3(0.0033203125) returned 0x01 (0.001953125): the nearest e4m3 to 0.0033203125 is 0x02 "
                      "(0.00390625); yours is the next one toward zero (a cast to an integer cuts the fraction off): "
                      "round to nearest");
  EXPECT_TRUE(v.passed.empty());
}

TEST(Fp8Quantize, TiesAwayFromZeroAreNamed) {
  const HostVerdict v = judge(edited("std::nearbyint(std::ldexp(a, 3 - p))", "std::round(std::ldexp(a, 3 - p))"));
  EXPECT_FALSE(v.pass);
  // 2.5 x 2^-9: halfway between codes 2 and 3; the even one is 2.
  EXPECT_EQ(v.reason, "to_e4m3(0.0048828125) returned 0x03 (0.005859375): 0.0048828125 is halfway between 0x02 "
                      "(0.00390625) and 0x03 (0.005859375): a tie goes to the even code (mantissa ending in 0), 0x02 "
                      "(0.00390625), not away from zero as round() does");
}

TEST(Fp8Quantize, NoSaturationIsNamed) {
  const HostVerdict v = judge(edited("if (a >= 448) return sign | 0x7E;", ""));
  EXPECT_FALSE(v.pass);
  // 448 .. 464 still round to 448 (14.5 steps of 32 is a tie, to the even 14); 464.1 rounds to 15: 0x7F.
  EXPECT_EQ(v.reason, "to_e4m3(464.1) returned 0x7F (NaN): e4m3 has no value past 448 and no infinity: 464.1 "
                      "saturates to 0x7E (448) (0x7F and 0xFF are NaN)");
}

TEST(Fp8Quantize, ALostSignOfZeroIsNamed) {
  const HostVerdict v = judge(edited("std::signbit(v)", "(v < 0)"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "to_e4m3(-0) returned 0x00 (0): -0 rounds to zero, and the zero keeps the sign of the value: "
                      "0x80 (-0)");
}

TEST(Fp8Quantize, Int8sScaleIsNamed) {
  const HostVerdict v = judge(edited("amax / 448.0f : 1.0f", "amax / 127.0f : 1.0f"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "quantize_row on row 0 (one block of activations, k = 128): block 0's scale 0.019782577 is amax / "
                      "127, int8's; e4m3's largest finite value is 448: amax / 448 = 0.0056080073");
  EXPECT_EQ(v.passed.size(), 1u);  // to_e4m3 held
}

// One scale for the row, as per-tensor scaling: block 0 (values near 0.01) gets the scale of block 3's 3000s.
TEST(Fp8Quantize, OneScalePerRowIsNamed) {
  const HostVerdict v = judge(edited("for (int i = b * 128; i < (b + 1) * 128; ++i) amax", "for (int i = 0; i < k; ++i) amax"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "quantize_row on row 1 (four blocks of different sizes (0.01, 1, 50, 3000), k = 512): block 0's "
                      "scale 17.227892 is the whole row's amax / 448 (7718.095 / 448): one scale for many blocks, as "
                      "per-tensor scaling has; each 1 x 128 block has its own, its amax / 448 = 0.024338229 / 448 = "
                      "5.4326403e-05");
}

TEST(Fp8Quantize, AZeroScaleForABlockOfZerosIsNamed) {
  const HostVerdict v = judge(edited("amax > 0 ? amax / 448.0f : 1.0f", "amax / 448.0f"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "quantize_row on row 2 (a block of zeros, then activations, k = 256): block 0 is all zeros, so "
                      "its scale is 1 (amax / 448 = 0 would make x / scale 0 / 0, NaN); yours is 0");
}

// The quotient in float: right everywhere but next to a tie, where the float lands on the tie.
TEST(Fp8Quantize, AQuotientRoundedToFloatIsNamed) {
  const HostVerdict v = judge(edited("double(x[i]) / scale", "x[i] / scale"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "quantize_row on row 7 (quotients next to ties (scale 7.3 / 448), k = 128): codes[1] is 0x10 "
                      "(0.03125), but x[1] / scale = 0.0005410331 / 0.016294643 = 0.03320312679; yours is the code of "
                      "x / scale divided in float, 0.033203125; that second rounding moves a quotient next to a tie "
                      "across it, and the nearest e4m3 is 0x11 (0.03515625): divide in double, double(x) / scale");
  EXPECT_EQ(v.passed.size(), 2u);  // to_e4m3 and the scales held
}

TEST(Fp8Quantize, TimesTheInverseIsNamed) {
  const HostVerdict v = judge(edited("double(x[i]) / scale", "x[i] * (1.0f / scale)"));
  EXPECT_FALSE(v.pass);
  EXPECT_NE(v.reason.find("rounded to float first (divided in float, or x times 1 / scale)"), std::string::npos)
      << v.reason;
}

TEST(Fp8Quantize, AWritePastTheCodesIsNamed) {
  const HostVerdict v = judge(edited("for (int b = 0; b < k / 128; ++b)", "for (int b = 0; b <= k / 128; ++b)"));
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "quantize_row on row 0 (one block of activations, k = 128) wrote past codes[127]: codes holds k "
                      "bytes");
}

// The cases the grader asks about, against what they claim to be.
TEST(Fp8QuantizeCases, NeighboursAndTies) {
  EXPECT_EQ(fp8::encode_e4m3(1.98), 0x40);        // between 1.875 (0x3F) and 2 (0x40), nearer 2
  EXPECT_EQ(fp8q::toward_zero_code(1.98), 0x3F);  // cut: 1.875
  EXPECT_EQ(fp8q::away_code(1.0625), 0x39);       // the tie 1 / 1.125: away is 1.125
  EXPECT_EQ(fp8::encode_e4m3(1.0625), 0x38);      // and the even code is 1
  EXPECT_EQ(fp8q::toward_zero_code(-500), 0xFE);  // saturated: -448
  EXPECT_EQ(fp8q::code_text(0x7F), "0x7F (NaN)");
  EXPECT_EQ(fp8q::code_text(0x80), "0x80 (-0)");
  EXPECT_EQ(fp8q::code_text(300), "300 (not a byte)");
  EXPECT_EQ(fp8q::quotient_text(1.0625 * (1 + 0x1p-40)), "1.0625000000009663");  // not the tie it would print as
  EXPECT_EQ(fp8q::quotient_text(17.28), "17.28");
}

TEST(Fp8QuantizeCases, RowsHoldWhatTheySay) {
  const auto& rows = fp8q::row_cases();
  ASSERT_EQ(rows.size(), 10u);
  for (const auto& r : rows) EXPECT_EQ(r.x.size() % fp8q::kBlock, 0u) << r.what.text();
  EXPECT_EQ(fp8q::block_scale(rows[2].x.data()), 1.0f);  // the block of zeros
  EXPECT_EQ(fp8q::block_scale(rows[4].x.data()), 1.0f);  // amax 448
  EXPECT_EQ(fp8q::block_scale(rows[5].x.data()), 1.0f);  // zeros of both signs
  EXPECT_TRUE(std::signbit(rows[5].x[1]));
  const float top = rows[6].x[0];
  EXPECT_GT(double(top) / double(fp8q::block_scale(rows[6].x.data())), 448.0);
  EXPECT_EQ(rows[3].x[37], 100000.0f);
  // Row 7's elements next to ties: at least 8 where the quotient in float gives another code.
  const float scale = fp8q::block_scale(rows[7].x.data());
  int moved = 0;
  for (float x : rows[7].x) moved += fp8::encode_e4m3(double(x / scale)) != fp8::encode_e4m3(double(x) / scale);
  EXPECT_GE(moved, 8);
  int kinds[5] = {};
  for (const auto& s : fp8q::scalar_cases()) ++kinds[static_cast<int>(s.kind)];
  EXPECT_EQ(kinds[static_cast<int>(fp8q::Kind::Exact)], 252);  // every finite nonzero e4m3, both signs
  EXPECT_EQ(kinds[static_cast<int>(fp8q::Kind::Tie)], 250);    // above codes 1 .. 0x7D, both signs
}

}  // namespace
}  // namespace gemmlab::exercise
