// The FP8 accumulation rule of gemmlab/fp8_accum.h, in integers: every term is cut to a multiple of
// 2^(E - 13), so the whole step is an int64 sum in those units.
#include "gemmlab/fp8_accum.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace gemmlab::fp8 {
namespace {

// A finite nonzero term: value = mant * 2^lsb_exp, with the exponent the alignment uses.
struct Term {
  std::int64_t mant = 0;  // signed
  int lsb_exp = 0;
  int exp = 0;
};

// e4m3 as sign * mant * 2^lsb_exp: normal (8 + m) 2^(e - 10), subnormal m 2^-9; exponent e - 7 / -6.
Term e4m3_term(std::uint8_t v) {
  const int e = (v >> 3) & 15, m = v & 7, sign = v & 0x80 ? -1 : 1;
  if (e == 0) return {sign * m, -9, -6};
  return {sign * (8 + m), e - 10, e - 7};
}

Term product_term(std::uint8_t a, std::uint8_t b) {
  const Term x = e4m3_term(a), y = e4m3_term(b);
  return {x.mant * y.mant, x.lsb_exp + y.lsb_exp, x.exp + y.exp};
}

Term f32_term(float c) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(c);
  const int e = int(u >> 23 & 255);
  const std::int64_t m = u & 0x7FFFFF, sign = u >> 31 ? -1 : 1;
  if (e == 0) {  // subnormal: m 2^-149, exponent of its leading bit
    return {sign * m, -149, m ? -150 + int(std::bit_width(std::uint64_t(m))) : 0};
  }
  return {sign * (m | 0x800000), e - 150, e - 127};
}

// mant * 2^shift, toward zero.
std::int64_t shift_toward_zero(std::int64_t mant, int shift) {
  if (shift >= 0) return mant << shift;  // a product shifts left by at most 7 here
  if (shift <= -63) return 0;
  const std::int64_t mag = std::llabs(mant) >> -shift;
  return mant < 0 ? -mag : mag;
}

}  // namespace

double decode_e4m3(std::uint8_t v) {
  if (is_nan_e4m3(v)) return std::numeric_limits<double>::quiet_NaN();
  const Term t = e4m3_term(v);
  return std::ldexp(double(t.mant), t.lsb_exp);
}

bool is_nan_e4m3(std::uint8_t v) { return (v & 0x7F) == 0x7F; }

float wgmma_step(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, float c, bool accumulate) {
  if (a.size() != kStepK || b.size() != kStepK) throw std::invalid_argument("wgmma_step: a and b need 32 elements");
  Term terms[kStepK + 1];
  int n = 0;
  for (int k = 0; k < kStepK; ++k) {
    const Term t = product_term(a[k], b[k]);
    if (t.mant != 0) terms[n++] = t;
  }
  if (accumulate && c != 0) terms[n++] = f32_term(c);
  if (n == 0) return 0.0f;
  int e_max = terms[0].exp;
  for (int i = 1; i < n; ++i) e_max = std::max(e_max, terms[i].exp);
  const int unit = e_max - kAlignBits;  // the sum counts multiples of 2^unit
  std::int64_t sum = 0;
  for (int i = 0; i < n; ++i) sum += shift_toward_zero(terms[i].mant, terms[i].lsb_exp - unit);
  const int excess = std::bit_width(std::uint64_t(std::llabs(sum))) - kSumBits;
  if (excess > 0) sum = shift_toward_zero(sum, -excess) << excess;
  return std::ldexp(float(sum), unit);  // 14 significant bits: exact
}

float dot_with_promotion(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, int k_block,
                         int promote_every) {
  if (a.size() != b.size() || a.size() % kStepK != 0 || k_block <= 0 || k_block % kStepK != 0 || promote_every < 0)
    throw std::invalid_argument("dot_with_promotion: sizes must be equal multiples of 32, k_block a multiple of 32");
  const std::size_t interval = promote_every == 0 ? a.size() : std::size_t(k_block) * std::size_t(promote_every);
  float promoted = 0.0f, partial = 0.0f;
  for (std::size_t k = 0; k < a.size(); k += kStepK) {
    const bool fresh = k % interval == 0;
    if (fresh && k != 0) promoted += partial;
    partial = wgmma_step(a.subspan(k, kStepK), b.subspan(k, kStepK), partial, !fresh);
  }
  return a.empty() ? 0.0f : promoted + partial;
}

double dot_exact(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  double s = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) s += decode_e4m3(a[k]) * decode_e4m3(b[k]);
  return s;
}

std::vector<PromotionError> promotion_error_vs_k(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                                                 int k_block, std::span<const int> intervals) {
  std::vector<PromotionError> rows;
  if (k_block <= 0) return rows;
  for (std::size_t k = k_block; k <= a.size() && k <= b.size(); k += k_block) {
    const double exact = dot_exact(a.first(k), b.first(k));
    for (int every : intervals) {
      const double value = dot_with_promotion(a.first(k), b.first(k), k_block, every);
      const double err = std::abs(value - exact);
      rows.push_back({int(k), every, value, exact, exact != 0 ? err / std::abs(exact) : err});
    }
  }
  return rows;
}

}  // namespace gemmlab::fp8
