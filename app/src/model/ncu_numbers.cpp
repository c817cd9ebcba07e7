#include "model/ncu_numbers.h"

#include <cctype>
#include <limits>
#include <regex>

namespace gemmlab::app {
namespace {

// Decimal digits as a value clamped to `hi` (any number of digits, no overflow).
long long clamped_digits(const std::string& digits, long long hi) {
  long long v = 0;
  for (char c : digits) {
    v = v * 10 + (c - '0');
    if (v > hi) return hi + 1;  // past the limit: the caller decides
  }
  return v;
}

}  // namespace

std::optional<Dim3> parse_ncu_dim3(const std::string& text) {
  static const std::regex re(R"(\(\s*(\d{1,20})\s*,\s*(\d{1,20})\s*,\s*(\d{1,20})\s*\))");
  std::smatch m;
  if (text.size() > 100 || !std::regex_match(text, m, re)) return std::nullopt;
  constexpr long long kMax = std::numeric_limits<int>::max();
  int v[3];
  for (int i = 0; i < 3; ++i) {
    const long long x = clamped_digits(m[i + 1], kMax);
    if (x < 1 || x > kMax) return std::nullopt;
    v[i] = static_cast<int>(x);
  }
  return Dim3{v[0], v[1], v[2]};
}

std::optional<int> ncu_block_threads(const std::string& text) {
  const auto d = parse_ncu_dim3(text);
  if (!d) return std::nullopt;
  // Each part < 2^31: x * y fits a long long; past 1024 the third factor is never multiplied.
  const long long xy = static_cast<long long>(d->x) * d->y;
  if (xy > 1024 || xy * d->z > 1024) return std::nullopt;
  return static_cast<int>(xy * d->z);
}

std::optional<GemmCoord> problem_in_line(const std::string& line, int max_extent) {
  static const std::regex re(R"((\d{1,30})x(\d{1,30})x(\d{1,30}))");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return std::nullopt;
  int v[3];
  for (int i = 0; i < 3; ++i) {
    const long long x = clamped_digits(m[i + 1], max_extent);
    v[i] = static_cast<int>(x < 1 ? 1 : x > max_extent ? max_extent : x);
  }
  return GemmCoord{v[0], v[1], v[2]};
}

}  // namespace gemmlab::app
