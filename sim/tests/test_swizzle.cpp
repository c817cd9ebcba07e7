// CuTe's Swizzle<B,M,S> against CUTLASS 4.7's own values (cutlass_layouts.json, cute_swizzle
// cases), through the library, the compile-time template and `gemmlab sim swizzle`; CuTe's
// static_assert rules; element <-> byte units.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "gemmlab/swizzle_analysis.h"
#include "support.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

std::vector<json> swizzle_cases() { return test::cutlass_cases("cute_swizzle"); }

test::CliResult swizzle_cli(std::vector<std::string> args) {
  args.insert(args.begin(), {"sim", "swizzle"});
  return test::run_gemmlab(args);
}

template <int B, int M, int S>
std::vector<long long> template_values(size_t n) {
  std::vector<long long> v;
  for (size_t i = 0; i < n; ++i) v.push_back(Swizzle<B, M, S>{}(static_cast<long long>(i)));
  return v;
}

}  // namespace

TEST(Swizzle, ReferenceHasCases) { EXPECT_EQ(swizzle_cases().size(), 3u); }

TEST(Swizzle, MatchesCuteThroughLibrary) {
  for (const auto& c : swizzle_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 80));
    const SwizzleParams p{c["B"], c["M"], c["S"]};
    const std::vector<long long> want = c["values"];
    auto v = list_swizzle(p, static_cast<long long>(want.size()));
    ASSERT_TRUE(v.ok()) << v.error();
    EXPECT_EQ(*v, want);
  }
}

TEST(Swizzle, CompileTimeTemplateMatchesCute) {
  for (const auto& c : swizzle_cases()) {
    const std::vector<long long> want = c["values"];
    const int B = c["B"], M = c["M"], S = c["S"];
    if (B == 3 && M == 3 && S == 3) EXPECT_EQ((template_values<3, 3, 3>(want.size())), want);
    else if (B == 2 && M == 3 && S == 3) EXPECT_EQ((template_values<2, 3, 3>(want.size())), want);
    else if (B == 3 && M == 2 && S == 3) EXPECT_EQ((template_values<3, 2, 3>(want.size())), want);
    else ADD_FAILURE() << "reference case without a template instance";
  }
}

TEST(Swizzle, MatchesCuteThroughCli) {
  for (const auto& c : swizzle_cases()) {
    SCOPED_TRACE(c.dump().substr(0, 80));
    const size_t n = c["values"].size();
    auto r = swizzle_cli({"--bits", std::to_string(int(c["B"])), "--base", std::to_string(int(c["M"])),
                          "--shift", std::to_string(int(c["S"])), "--count", std::to_string(n), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_EQ(out["values"], c["values"]);
  }
  // CuTe's masks for Swizzle<3,3,3>: yyy_msk = 0b111 << 6 = 448, zzz_msk = 0b111 << 3 = 56.
  auto r = swizzle_cli({"--bits", "3", "--base", "3", "--shift", "3", "--count", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["source_mask"], 448);
  EXPECT_EQ(json::parse(r.out)["target_mask"], 56);
}

// Negative S shifts YYY left (CuTe: yyy_msk = bit_msk << M, zzz_msk = bit_msk << (M - S)).
// Swizzle<2,0,-3>: bits 0..1 are XORed into bits 3..4. Worked by hand: 1 -> 1 ^ 8 = 9,
// 3 -> 3 ^ 24 = 27, 8 -> 8 (no source bits set).
TEST(Swizzle, NegativeShiftMovesLowBitsUp) {
  auto v = list_swizzle({2, 0, -3}, 9);
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ((*v)[1], 9);
  EXPECT_EQ((*v)[3], 27);
  EXPECT_EQ((*v)[8], 8);
  auto r = swizzle_cli({"--bits", "2", "--base", "0", "--shift", "-3", "--count", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["values"], json({0, 9, 18, 27}));
  EXPECT_EQ(json::parse(r.out)["target_mask"], 24);
}

// A swizzle only permutes: on a range of 2^(B+M+|S|) offsets every value appears once.
TEST(Swizzle, IsAPermutationOfEachBlock) {
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s : {-4, -3, 3, 4, 5}) {
        if ((s < 0 ? -s : s) < b) continue;
        const long long n = 1LL << (b + m + (s < 0 ? -s : s));
        auto v = list_swizzle({b, m, s}, n);
        ASSERT_TRUE(v.ok()) << v.error();
        std::vector<long long> sorted = *v;
        std::sort(sorted.begin(), sorted.end());
        std::vector<long long> iota(n);
        std::iota(iota.begin(), iota.end(), 0);
        EXPECT_EQ(sorted, iota) << "Swizzle<" << b << "," << m << "," << s << ">";
      }
}

// The same shared-memory permutation counted in bytes: Swizzle<3,3,3> on half (2-byte) element
// offsets moves byte b of element e to byte b of element Swizzle(e), which is Swizzle<3,4,3> on
// byte offsets.
TEST(Swizzle, ElementAndByteUnits) {
  auto bytes = swizzle_elements_to_bytes({3, 3, 3}, 2);
  ASSERT_TRUE(bytes.ok()) << bytes.error();
  EXPECT_EQ(bytes->base, 4);
  EXPECT_EQ(bytes->bits, 3);
  EXPECT_EQ(bytes->shift, 3);
  for (long long byte = 0; byte < 4096; ++byte) {
    const long long element = byte / 2;
    ASSERT_EQ(swizzle_apply(*bytes, byte), 2 * swizzle_apply({3, 3, 3}, element) + byte % 2);
  }
  auto back = swizzle_bytes_to_elements({3, 4, 3}, 2);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->base, 3);
  // 128-byte swizzle on 4-byte floats: Swizzle<3,4,3> on bytes is Swizzle<3,2,3> on floats.
  EXPECT_EQ(swizzle_bytes_to_elements({3, 4, 3}, 4)->base, 2);
  auto inside = swizzle_bytes_to_elements({3, 1, 3}, 4);
  ASSERT_FALSE(inside.ok());
  EXPECT_NE(inside.error().find("inside one 4-byte element"), std::string::npos) << inside.error();
  EXPECT_FALSE(swizzle_elements_to_bytes({3, 3, 3}, 3).ok());
}

TEST(Swizzle, InvalidParametersGiveCuteMessages) {
  struct Case {
    SwizzleParams p;
    long long count;
    const char* needle;
  };
  const Case cases[] = {
      {{3, -1, 3}, 8, "MBase must be positive."},
      {{-1, 3, 3}, 8, "BBits must be positive."},
      {{3, 3, 2}, 8, "abs(SShift) must be more than BBits."},
      {{3, 3, -2}, 8, "abs(SShift) must be more than BBits."},
      {{10, 10, 12}, 8, "does not fit"},
      {{3, 3, 3}, 0, "--count 0"},
      {{3, 3, 3}, (1LL << 24) + 1, "2^24"},
  };
  for (const auto& c : cases) {
    auto v = list_swizzle(c.p, c.count);
    ASSERT_FALSE(v.ok()) << c.needle;
    EXPECT_NE(v.error().find(c.needle), std::string::npos) << v.error();
  }
}

TEST(Swizzle, CliRejectsMalformedInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"--bits", "3", "--base", "3", "--shift", "2", "--count", "8"},
      {"--bits", "-1", "--base", "3", "--shift", "3", "--count", "8"},
      {"--bits", "3", "--base", "-1", "--shift", "3", "--count", "8"},
      {"--bits", "3", "--base", "3", "--shift", "3", "--count", "0"},
      {"--bits", "3", "--base", "3", "--shift", "3", "--count", "16777217"},
      {"--bits", "3", "--base", "3", "--shift", "3", "--count", "99999999999999999999"},
      {"--bits", "3", "--base", "3", "--shift", "3"},
      {"--bits", "x", "--base", "3", "--shift", "3", "--count", "8"},
      {"--bits", "3000000000", "--base", "3", "--shift", "3", "--count", "8"},
      {"--bits", "3", "--base", "3", "--shift", "3", "--count", "8", "--bogus", "1"},
  };
  for (const auto& args : bad) {
    auto r = swizzle_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[3] << " " << args[5];
    EXPECT_FALSE(r.err.empty());
    EXPECT_TRUE(r.out.empty());
  }
}
