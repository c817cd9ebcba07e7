#include "fp8_quantize_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "gemmlab/fp8_accum.h"     // decode_e4m3
#include "gemmlab/fp8_quantize.h"  // encode_e4m3, quantize_block: the answers

namespace gemmlab::exercise::fp8q {
namespace {

using fp8::decode_e4m3;
using fp8::encode_e4m3;

struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 40) * 0x1p-24; }  // [0, 1), exact
  // Mean 0, deviation 1 (the sum of four uniforms, rescaled): no libm, the same bits everywhere.
  double normal() { return (uniform() + uniform() + uniform() + uniform() - 2) * 1.7320508075688772; }
};

double tie_above(int code) { return (decode_e4m3(std::uint8_t(code)) + decode_e4m3(std::uint8_t(code + 1))) / 2; }

// a (>= 0, below 448) is halfway between two neighbouring e4m3 values.
bool tie_is(double a) {
  const std::uint8_t c = encode_e4m3(a);
  const int below = decode_e4m3(c) > a ? c - 1 : c;
  return below >= 0 && below < 0x7E && tie_above(below) == a;
}

std::vector<Scalar> make_scalars() {
  std::vector<Scalar> s;
  for (int sign : {0, 0x80})  // every finite nonzero e4m3: to_e4m3 gives it back
    for (int c = 1; c <= 0x7E; ++c) s.push_back({decode_e4m3(std::uint8_t(sign | c)), Kind::Exact});
  for (double sign : {1.0, -1.0})
    for (int c = 1; c < 0x7E; ++c) {  // 70% of the way up (toward zero is wrong), and just past a tie
      const double lo = decode_e4m3(std::uint8_t(c)), hi = decode_e4m3(std::uint8_t(c + 1));
      s.push_back({sign * (lo + 0.7 * (hi - lo)), Kind::Between});
      s.push_back({sign * tie_above(c) * (1 + 0x1p-20), Kind::Between});
    }
  Random r{20};
  for (int i = 0; i < 200; ++i) {  // magnitudes 2^-9 .. 2^8 (below 448), either sign
    const double v = std::ldexp(1 + r.uniform(), int(r.next() % 17) - 9);
    s.push_back({r.next() & 1 ? -v : v, Kind::Between});
  }
  for (double sign : {1.0, -1.0})
    for (int c = 1; c < 0x7E; ++c) s.push_back({sign * tie_above(c), Kind::Tie});
  for (double v : {448.5, 463.9, 464.0, 464.1, 479.9, 480.0, 512.0, 1000.0, 65536.0, 1e10, 1e300, HUGE_VAL})
    s.push_back({v, Kind::Saturate}), s.push_back({-v, Kind::Saturate});
  // Zeros keep their sign; so do values that round to zero: 0x80 is -0.
  for (double v : {0.0, 0x1p-10, 0x1p-11, 0x1p-10 * (1 - 0x1p-20), 1e-30, 1e-300})
    s.push_back({v, Kind::Zero}), s.push_back({-v, Kind::Zero});
  return s;
}

std::vector<float> normals(Random& r, int n, double sigma) {
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = float(r.normal() * sigma);
  return x;
}

void append(std::vector<float>& to, const std::vector<float>& from) { to.insert(to.end(), from.begin(), from.end()); }

// Elements whose quotient x / scale sits next to a tie of e4m3, where one more rounding (the
// quotient in float, or x times 1 / scale) crosses it: the reference divides in double.
std::vector<float> near_ties(float amax, int want) {
  const float scale = amax / 448.0f, inv = 1.0f / scale, inv448 = 448.0f / amax;
  std::vector<float> out;
  int float_quotient = 0, reciprocal = 0;
  for (int c = 0x10; c < 0x7C && int(out.size()) < want; ++c) {
    const float guess = float(tie_above(c) * scale);
    for (int step = -2; step <= 2; ++step) {
      float x = guess;
      for (int i = 0; i < std::abs(step); ++i) x = std::nextafter(x, step < 0 ? 0.0f : amax);
      const std::uint8_t ref = encode_e4m3(double(x) / double(scale));
      const bool by_float = encode_e4m3(double(x / scale)) != ref;
      const bool by_inverse = encode_e4m3(double(x * inv)) != ref || encode_e4m3(double(x * inv448)) != ref;
      if ((by_float && float_quotient < want / 2) || (by_inverse && reciprocal < want / 2)) {
        out.push_back(c % 2 ? -x : x);
        float_quotient += by_float, reciprocal += by_inverse;
        break;
      }
    }
  }
  return out;
}

// The first amax (of a fixed list) whose scale amax / 448 rounds down in float: amax / scale is
// then a little above 448.
float amax_above_448() {
  for (int i = 1;; ++i) {
    const float amax = float(1 + i * 0.0123);
    if (double(amax) / double(amax / 448.0f) > 448) return amax;
  }
}

std::vector<Row> make_rows() {
  Random r{2048};
  std::vector<Row> rows;
  rows.push_back({words("one block of activations"), normals(r, kBlock, 1)});
  {
    Row row{words("four blocks of different sizes (0.01, 1, 50, 3000)"), {}};
    for (double sigma : {0.01, 1.0, 50.0, 3000.0}) append(row.x, normals(r, kBlock, sigma));
    rows.push_back(std::move(row));
  }
  {
    Row row{words("a block of zeros, then activations"), std::vector<float>(kBlock, 0.0f)};
    append(row.x, normals(r, kBlock, 2));
    rows.push_back(std::move(row));
  }
  {
    Row row{words("an outlier of 100000 in block 0, activations near 1 around it"), normals(r, 2 * kBlock, 1)};
    row.x[37] = 100000;
    rows.push_back(std::move(row));
  }
  {
    // amax 448: scale exactly 1, so every element is its own quotient. Ties (1.0625 between 1 and
    // 1.125, to the even 1), subnormals (multiples of 2^-9 below 2^-6), the tie between 0 and 2^-9,
    // negative values that round to -0.
    Row row{words("scale 1: ties, subnormals, values that round to zero"), normals(r, kBlock, 20)};
    const float special[] = {448,          1.0625f,      1.1875f,     -1.0625f,       0.53125f,     -3.25f + 0.125f,
                             0x1p-10f,     3 * 0x1p-10f, 0x1p-9f,     5 * 0x1p-9f,    7 * 0x1p-9f,  0x1p-6f,
                             15 * 0x1p-10f, -0x1p-11f,   -0x1p-10f,   0.004f,         -0.004f,      0.0f,
                             -0.0f,        464 / 2.0f,   -232 - 8,    240 + 8,        0x1p-7f + 0x1p-11f};
    for (size_t i = 0; i < std::size(special); ++i) row.x[i * 5] = special[i];
    for (float& v : row.x) v = std::fmin(std::fmax(v, -447.0f), 448.0f);
    rows.push_back(std::move(row));
  }
  {
    Row row{words("zeros of both signs"), std::vector<float>(kBlock, -0.0f)};
    for (int i = 0; i < kBlock; i += 3) row.x[static_cast<size_t>(i)] = 0.0f;
    rows.push_back(std::move(row));
  }
  {
    const float amax = amax_above_448();
    Row row{words("amax / scale just above 448 (the scale rounded down)"), normals(r, kBlock, amax / 4)};
    for (float& v : row.x) v = std::fmin(std::fmax(v, -amax), amax);
    row.x[0] = amax, row.x[1] = -amax, row.x[2] = std::nextafter(amax, 0.0f), row.x[64] = -std::nextafter(amax, 0.0f);
    rows.push_back(std::move(row));
  }
  {
    const float amax = 7.3f;
    Row row{words("quotients next to ties (scale 7.3 / 448)"), normals(r, kBlock, 1)};
    row.x[0] = amax;
    const std::vector<float> ties = near_ties(amax, 24);
    for (size_t i = 0; i < ties.size(); ++i) row.x[1 + i * 5] = ties[i];
    for (float& v : row.x) v = std::fmin(std::fmax(v, -amax), amax);
    rows.push_back(std::move(row));
  }
  {
    Row row{words("blocks of 1e29, 1e-20 and 1"), normals(r, kBlock, 1e29)};
    append(row.x, normals(r, kBlock, 1e-20));
    append(row.x, normals(r, kBlock, 1));
    rows.push_back(std::move(row));
  }
  {
    // An LLM activation row: a few channels always far larger than the rest.
    Row row{words("an activation row of 8 blocks with outlier channels"), normals(r, 8 * kBlock, 0.5)};
    for (int c : {17, 300, 301, 777, 1000}) row.x[static_cast<size_t>(c)] *= float(40 + c % 160);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

const std::vector<Scalar>& scalar_cases() {
  static const std::vector<Scalar> s = make_scalars();
  return s;
}

const std::vector<Row>& row_cases() {
  static const std::vector<Row> rows = make_rows();
  return rows;
}

std::vector<float> gpu_activation(int m, int k) {
  std::vector<float> x(static_cast<size_t>(m) * k);
  Random r{7168};
  for (size_t i = 0; i < x.size(); ++i) {
    const int col = static_cast<int>(i % static_cast<size_t>(k));
    const bool outlier = col % 1021 == 17;  // a few channels far larger, in every row
    x[i] = float(r.normal() * (outlier ? 60 : 0.5 + double(i / static_cast<size_t>(k) % 7)));
  }
  const size_t blocks = x.size() / kBlock;
  for (size_t b = 97; b < blocks; b += 977) std::fill_n(x.begin() + static_cast<long>(b * kBlock), kBlock, 0.0f);
  for (size_t b = 389; b < blocks; b += 977) std::fill_n(x.begin() + static_cast<long>(b * kBlock), kBlock, -0.0f);
  size_t at = 0;
  for (const Row& row : row_cases())
    for (float v : row.x)
      if (at < x.size()) x[at++] = v;
  return x;
}

std::uint8_t toward_zero_code(double v) {
  const std::uint8_t c = encode_e4m3(v);
  if ((c & 0x7F) == 0 || std::fabs(decode_e4m3(c)) <= std::fabs(v)) return c;
  return std::uint8_t(c - 1);  // the next code toward zero, same sign
}

std::uint8_t away_code(double v) {
  const std::uint8_t c = toward_zero_code(v);
  if ((c & 0x7F) == 0x7E || decode_e4m3(c) == v) return c;
  return std::uint8_t(c + 1);
}

std::string code_text(long long code) {
  char buf[64];
  if (code < 0 || code > 255) {
    std::snprintf(buf, sizeof buf, "%lld (not a byte)", code);
    return buf;
  }
  if (fp8::is_nan_e4m3(std::uint8_t(code))) std::snprintf(buf, sizeof buf, "0x%02llX (NaN)", code);
  else if (code == 0x80) std::snprintf(buf, sizeof buf, "0x80 (-0)");
  else std::snprintf(buf, sizeof buf, "0x%02llX (%s)", code, value_text(decode_e4m3(std::uint8_t(code))).c_str());
  return buf;
}

std::string value_text(double v) {
  char buf[64];
  for (int digits = 6; digits <= 17; ++digits) {  // the shortest that reads back as v
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::isnan(v) || std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string float_text(float v) {
  char buf[64];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, double(v));
    if (std::isnan(v) || std::strtof(buf, nullptr) == v) break;
  }
  return buf;
}

std::string quotient_text(double q) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", q);
  const double shown = std::strtod(buf, nullptr);
  const double a = std::fabs(shown);
  const bool looks_special = a < fp8::kE4m3Max && (decode_e4m3(encode_e4m3(a)) == a || tie_is(a));
  if (shown != q && looks_special) std::snprintf(buf, sizeof buf, "%.17g", q);
  return buf;
}

float block_scale(const float* x) {
  std::vector<std::uint8_t> codes(kBlock);
  return fp8::quantize_block(std::span<const float>(x, kBlock), codes);
}

}  // namespace gemmlab::exercise::fp8q
