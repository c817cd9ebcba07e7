// The promotion study of gemmlab/fp8_promotion.h: each column is accumulated once per interval,
// K step by K step, and its state read at every K asked (the prefix of length K is what a kernel
// with that K would compute: same operands, same steps).
#include "gemmlab/fp8_promotion.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <span>

#include "gemmlab/fp8_accum.h"
#include "gemmlab/fp8_quantize.h"

namespace gemmlab::fp8 {
namespace {

constexpr long long kMaxProducts = 1LL << 24;  // 32 MB of operands

// N(0, 1) by Box-Muller on mt19937_64's raw words: the standard fixes those, not normal_distribution.
struct Gaussian {
  std::mt19937_64 rng;
  explicit Gaussian(std::uint64_t seed) : rng(seed) {}
  double uniform() { return double(rng() >> 11) * 0x1p-53; }  // [0, 1)
  double next() {
    const double r = std::sqrt(-2 * std::log(1 - uniform()));
    return r * std::cos(2 * std::numbers::pi * uniform());
  }
};

// One operand of one column: n values drawn for `data`, as e4m3 codes.
std::vector<std::uint8_t> make_operand(Fp8Data data, int n, int k_block, Gaussian& g) {
  std::vector<std::uint8_t> codes(n, 0x38);  // Ones: every code 1.0
  if (data == Fp8Data::PlusMinusOne) {
    for (auto& c : codes) c = g.rng() >> 63 ? 0xB8 : 0x38;
  } else if (data == Fp8Data::Normal || data == Fp8Data::Positive) {
    std::vector<float> x(n);
    for (auto& v : x) v = float(data == Fp8Data::Positive ? std::fabs(g.next()) : g.next());
    for (int k0 = 0; k0 < n; k0 += k_block)
      quantize_block(std::span<const float>(x).subspan(k0, k_block), std::span<std::uint8_t>(codes).subspan(k0, k_block));
  }
  return codes;
}

std::optional<std::string> spec_problem(const PromotionStudySpec& s) {
  if (s.k_block <= 0 || s.k_block % kStepK != 0) return "the k-block must be a positive multiple of 32";
  if (s.ks.empty()) return "give at least one K";
  if (s.intervals.empty()) return "give at least one promotion interval (0 = never)";
  for (std::size_t i = 0; i < s.ks.size(); ++i) {
    if (s.ks[i] <= 0 || s.ks[i] % s.k_block != 0)
      return "K = " + std::to_string(s.ks[i]) + " is not a positive multiple of the k-block (" + std::to_string(s.k_block) + ")";
    if (i > 0 && s.ks[i] <= s.ks[i - 1]) return "the K values must ascend";
  }
  for (int every : s.intervals)
    if (every < 0) return "a promotion interval is a number of k-blocks >= 1, or 0 for never";
  if (s.columns < 1 || s.columns > 4096) return "columns must be 1..4096";
  if (1LL * s.columns * s.ks.back() > kMaxProducts)
    return "columns x largest K is past 2^24 products; take fewer columns or a smaller K";
  return std::nullopt;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

Expected<Fp8Data> parse_fp8_data(const std::string& name) {
  for (Fp8Data d : {Fp8Data::Normal, Fp8Data::Positive, Fp8Data::PlusMinusOne, Fp8Data::Ones})
    if (name == fp8_data_name(d)) return d;
  return Error{"unknown data \"" + name + "\"; choose normal, positive, pm1 or ones"};
}

Expected<Fp8ErrorOf> parse_fp8_error_of(const std::string& name) {
  if (name == "exact") return Fp8ErrorOf::Exact;
  if (name == "magnitude") return Fp8ErrorOf::Magnitude;
  return Error{"unknown error measure \"" + name + "\"; choose exact (|exact sum|) or magnitude (sum of |a b|)"};
}

const char* fp8_data_name(Fp8Data d) {
  switch (d) {
    case Fp8Data::Normal: return "normal";
    case Fp8Data::Positive: return "positive";
    case Fp8Data::PlusMinusOne: return "pm1";
    case Fp8Data::Ones: return "ones";
  }
  return "?";
}

const PromotionPoint* PromotionStudy::at(int k, int promote_every) const {
  for (const PromotionPoint& p : points)
    if (p.k == k && p.promote_every == promote_every) return &p;
  return nullptr;
}

Expected<PromotionStudy> promotion_study(const PromotionStudySpec& spec) {
  if (auto why = spec_problem(spec)) return Error{*why};
  const int k_max = spec.ks.back(), n_k = int(spec.ks.size()), n_i = int(spec.intervals.size());
  // errors[interval][k index][column]
  std::vector<std::vector<std::vector<double>>> errors(n_i, std::vector<std::vector<double>>(n_k));
  const StudyOperands ops = study_operands(spec);
  for (int col = 0; col < spec.columns; ++col) {
    const std::vector<std::uint8_t>& a = ops.a[col];
    const std::vector<std::uint8_t>& b = ops.b[col];
    for (int i = 0; i < n_i; ++i) {
      const long long interval = spec.intervals[i] == 0 ? k_max : 1LL * spec.k_block * spec.intervals[i];
      float promoted = 0, partial = 0;
      // In double: exact while the sum's bits span 2^-18 (the smallest product) to 2^35, i.e. for
      // K <= 2^17 of any codes; rounding past that is below 2^-53 of the sum, far under the model's.
      double exact = 0, magnitude = 0;
      for (int k = 0, next = 0; k < k_max; k += kStepK) {
        const bool fresh = k % interval == 0;
        if (fresh && k != 0) promoted += partial;
        const std::span<const std::uint8_t> as(a.data() + k, kStepK), bs(b.data() + k, kStepK);
        partial = wgmma_step(as, bs, partial, !fresh);
        for (int j = 0; j < kStepK; ++j) {
          const double p = decode_e4m3(as[j]) * decode_e4m3(bs[j]);
          exact += p, magnitude += std::fabs(p);
        }
        if (next < n_k && k + kStepK == spec.ks[next]) {
          const double err = std::fabs(double(promoted + partial) - exact);
          const double of = spec.error_of == Fp8ErrorOf::Exact ? std::fabs(exact) : magnitude;
          errors[i][next].push_back(of > 0 ? err / of : err);
          ++next;
        }
      }
    }
  }
  PromotionStudy out{spec, {}};
  for (int i = 0; i < n_i; ++i)
    for (int j = 0; j < n_k; ++j) {
      const auto& e = errors[i][j];
      out.points.push_back({spec.ks[j], spec.intervals[i], median_of(e), *std::max_element(e.begin(), e.end()),
                            int(std::count(e.begin(), e.end(), 0.0))});
    }
  return out;
}

StudyOperands study_operands(const PromotionStudySpec& spec) {
  StudyOperands out;
  if (spec.ks.empty() || spec.k_block <= 0 || spec.ks.back() % spec.k_block != 0) return out;
  Gaussian g(spec.seed);
  for (int col = 0; col < spec.columns; ++col) {
    out.a.push_back(make_operand(spec.data, spec.ks.back(), spec.k_block, g));
    out.b.push_back(make_operand(spec.data, spec.ks.back(), spec.k_block, g));
  }
  return out;
}

std::vector<int> doubling_ks(int k_min, int k_max) {
  std::vector<int> ks;
  if (k_min <= 0) return ks;
  for (long long k = k_min; k <= k_max; k *= 2) ks.push_back(int(k));
  if (!ks.empty() && ks.back() != k_max && k_max > k_min) ks.push_back(k_max);
  return ks;
}

}  // namespace gemmlab::fp8
