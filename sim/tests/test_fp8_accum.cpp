// The FP8 accumulation model (gemmlab/fp8_accum.h) against the H200's own outputs
// (sim/tests/data/fp8_accum_probe_h200.json, written by kernels/stages/fp8/fp8_accum_probe.cu:
// wgmma m64n8k32 e4m3 on random and adversarial inputs, every k step of every case), and the
// promotion error against K on a generated case, checked against a double reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gemmlab/fp8_accum.h"

using namespace gemmlab;
using nlohmann::json;

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& hex) {
  std::vector<std::uint8_t> v(hex.size() / 2);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint8_t(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return v;
}
std::vector<std::uint32_t> words_of(const std::string& hex) {
  std::vector<std::uint32_t> v(hex.size() / 8);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(std::stoul(hex.substr(8 * i, 8), nullptr, 16));
  return v;
}

// The reference of the promotion test, written apart from the model: e4m3 by its definition.
double e4m3_value(std::uint8_t v) {
  const int e = (v >> 3) & 15, m = v & 7;
  const double mag = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
  return v & 0x80 ? -mag : mag;
}

}  // namespace

TEST(Fp8Accum, DecodesE4m3) {
  EXPECT_EQ(fp8::decode_e4m3(0x38), 1.0);
  EXPECT_EQ(fp8::decode_e4m3(0x7E), 448.0);
  EXPECT_EQ(fp8::decode_e4m3(0xFE), -448.0);
  EXPECT_EQ(fp8::decode_e4m3(0x01), std::ldexp(1.0, -9));  // smallest subnormal
  EXPECT_EQ(fp8::decode_e4m3(0x08), std::ldexp(1.0, -6));  // smallest normal
  EXPECT_EQ(fp8::decode_e4m3(0x3D), 1.625);
  EXPECT_TRUE(std::isnan(fp8::decode_e4m3(0x7F)));
  EXPECT_TRUE(fp8::is_nan_e4m3(0xFF));
  EXPECT_FALSE(fp8::is_nan_e4m3(0x7E));
}

// Worked by hand from the rule: 256 + 31 x 2^-6 -> E = 8, terms cut at 2^-5, the small ones vanish.
TEST(Fp8Accum, SmallProductsBelowTheWindowVanish) {
  std::vector<std::uint8_t> a(32, 0x08), ones(32, 0x38);
  a[5] = 0x78;  // 256
  EXPECT_EQ(fp8::wgmma_step(a, ones, 0.0f, false), 256.0f);   // exact would be 256.484375
  a[5] = 0x08;
  EXPECT_EQ(fp8::wgmma_step(a, ones, 0.0f, false), 0.5f);     // 32 x 2^-6, exact
  // C alone passes through the 14-bit cut: 2^20 + 1 -> 2^20; 2^20 + 2^7 keeps its bit.
  const std::vector<std::uint8_t> zeros(32, 0x00);
  EXPECT_EQ(fp8::wgmma_step(zeros, zeros, 1048577.0f), 1048576.0f);
  EXPECT_EQ(fp8::wgmma_step(zeros, zeros, 1048704.0f), 1048704.0f);
  EXPECT_EQ(fp8::wgmma_step(zeros, zeros, 1048577.0f, false), 0.0f);  // scale-d 0 ignores C
  // The sum keeps 14 significant bits, cut toward zero: 32 x 448 x 1.875 = 26880 is exact.
  std::vector<std::uint8_t> big(32, 0x7E), b2(32, 0x3F);  // 448, 1.875
  EXPECT_EQ(fp8::wgmma_step(big, b2, 0.0f, false), 26880.0f);
  // 16383 + 32 x 1.75: E = 13, each 1.75 cut to 1, 16415 has 15 bits -> 16414.
  EXPECT_EQ(fp8::wgmma_step(std::vector<std::uint8_t>(32, 0x3E), ones, 16383.0f), 16414.0f);
}

TEST(Fp8Accum, ReproducesTheH200ProbeBitForBit) {
  std::ifstream in(std::string(GEMMLAB_TEST_DATA) + "/fp8_accum_probe_h200.json");
  ASSERT_TRUE(in.good()) << "missing sim/tests/data/fp8_accum_probe_h200.json";
  const json j = json::parse(in);
  EXPECT_EQ(j.at("device"), "NVIDIA H200");
  int outputs = 0, mismatches = 0;
  for (const json& c : j.at("cases")) {
    const int steps = c.at("k_steps"), K = fp8::kStepK * steps;
    const auto a = bytes_of(c.at("a")), b = bytes_of(c.at("b"));
    auto prev = words_of(c.at("c"));
    ASSERT_EQ(a.size(), std::size_t(64 * K));
    ASSERT_EQ(b.size(), std::size_t(8 * K));
    ASSERT_EQ(c.at("d").size(), std::size_t(steps));
    for (int s = 0; s < steps; ++s) {
      const auto d = words_of(c.at("d")[s]);
      ASSERT_EQ(d.size(), 512u);
      const bool accumulate = s > 0 || c.at("accumulate") == 1;
      for (int r = 0; r < 64; ++r)
        for (int n = 0; n < 8; ++n) {
          const std::span<const std::uint8_t> ar(a.data() + r * K + s * 32, 32), bn(b.data() + n * K + s * 32, 32);
          const float model = fp8::wgmma_step(ar, bn, std::bit_cast<float>(prev[r * 8 + n]), accumulate);
          ++outputs;
          if (std::bit_cast<std::uint32_t>(model) != d[r * 8 + n]) {
            ++mismatches;
            ADD_FAILURE() << c.at("kind") << " step " << s << " (" << r << "," << n << "): model " << model
                          << " device " << std::bit_cast<float>(d[r * 8 + n]);
            if (mismatches > 20) return;
          }
        }
      prev = d;
    }
  }
  EXPECT_EQ(outputs, 31744);  // 36 cases: 30 of one k step, 4 of 4, 2 of 8; 512 outputs a step
  EXPECT_EQ(mismatches, 0);
}

// All-ones inputs: the tensor core's sum stalls at 2^14 (a product of 1 falls below 2^(14-13));
// promoting every k-block of 128 into FP32 keeps it exact.
TEST(Fp8Accum, OnesStallWithoutPromotion) {
  const std::vector<std::uint8_t> ones(65536, 0x38);
  EXPECT_EQ(fp8::dot_with_promotion(ones, ones, 128, 0), 16384.0f);
  EXPECT_EQ(fp8::dot_with_promotion(ones, ones, 128, 1), 65536.0f);
  EXPECT_EQ(fp8::dot_with_promotion(ones, ones, 128, 64), 65536.0f);   // 8192 per promotion
  EXPECT_EQ(fp8::dot_with_promotion(ones, ones, 128, 256), 32768.0f);  // 2 x 16384
  EXPECT_THROW(fp8::dot_with_promotion(std::vector<std::uint8_t>(33, 0x38), std::vector<std::uint8_t>(33, 0x38), 128, 1),
               std::invalid_argument);
}

TEST(Fp8Accum, PromotionErrorAgainstK) {
  std::mt19937 rng(7);
  const int K = 16384;
  std::vector<std::uint8_t> a(K), b(K);
  for (int k = 0; k < K; ++k) {  // positive, exponent fields 5-9 (0.25 .. 3.75): a sum that grows
    a[k] = std::uint8_t((5 + rng() % 5) << 3 | rng() % 8);
    b[k] = std::uint8_t((5 + rng() % 5) << 3 | rng() % 8);
  }
  const std::vector<int> intervals = {1, 2, 4, 8, 0};
  const auto rows = fp8::promotion_error_vs_k(a, b, 128, intervals);
  ASSERT_EQ(rows.size(), std::size_t(K / 128 * 5));
  double ref = 0;
  std::size_t row = 0;
  for (int k = 128; k <= K; k += 128) {
    for (int kk = k - 128; kk < k; ++kk) ref += e4m3_value(a[kk]) * e4m3_value(b[kk]);
    for (int every : intervals) {
      const auto& r = rows[row++];
      ASSERT_EQ(r.k, k);
      ASSERT_EQ(r.promote_every, every);
      EXPECT_EQ(r.exact, ref);
      EXPECT_DOUBLE_EQ(r.rel_error, std::abs(r.value - ref) / ref);
      // Truncation only loses: every result lies below the exact sum.
      EXPECT_LE(r.value, ref);
    }
  }
  const auto at = [&](int k, int every) {
    for (const auto& r : rows) if (r.k == k && r.promote_every == every) return r.rel_error;
    return -1.0;
  };
  // Promoting every k-block of 128 keeps the error near the cut inside one block (0.07% here);
  // every longer interval loses more, and never promoting loses a fifth at K = 16384
  // (model values: 0.068%, 0.24%, 0.66%, 1.6%, 21%).
  EXPECT_LT(at(K, 1), 1e-3);
  EXPECT_LT(at(K, 1), at(K, 2));
  EXPECT_LT(at(K, 2), at(K, 4));
  EXPECT_LT(at(K, 4), at(K, 8));
  EXPECT_LT(at(K, 8), at(K, 0));
  EXPECT_GT(at(K, 0), 0.2);
  EXPECT_GT(at(K, 0), at(4096, 0));  // grows with K
  EXPECT_EQ(at(128, 1), at(128, 0));  // one block: nothing to promote yet
}
