#include "gemmlab/fp8_quantize.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gemmlab::fp8 {

std::uint8_t encode_e4m3(double x) {
  if (std::isnan(x)) return 0x7F;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(x);
  if (a >= kE4m3Max) return sign | 0x7E;
  // nearbyint rounds ties to even in the default rounding mode; the quotients are exact in double.
  if (a < std::ldexp(1.0, -6)) {  // subnormal: m x 2^-9; m = 8 is the smallest normal's code 0x08
    return sign | std::uint8_t(std::nearbyint(std::ldexp(a, 9)));
  }
  int e = 0;
  const double frac = std::frexp(a, &e);  // a = frac 2^e, frac in [0.5, 1): exponent e - 1
  int q = int(std::nearbyint((2 * frac - 1) * 8));
  int exp = e - 1;
  if (q == 8) q = 0, ++exp;
  const int code = (exp + 7) << 3 | q;
  return sign | std::uint8_t(std::min(code, 0x7E));  // 464 and up already returned; 448..464 round to 448
}

float quantize_block(std::span<const float> x, std::span<std::uint8_t> codes) {
  if (x.size() != codes.size()) throw std::invalid_argument("quantize_block: x and codes differ in length");
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  const float scale = amax > 0 ? amax / float(kE4m3Max) : 1.0f;
  for (std::size_t i = 0; i < x.size(); ++i) codes[i] = encode_e4m3(double(x[i]) / double(scale));
  return scale;
}

}  // namespace gemmlab::fp8
