// Exercise 20-fp8/quantize: unsigned char to_e4m3(double v), the e4m3 code nearest to v (ties to
// even, saturating at +-448, zeros signed), and void quantize_row(const float* x, int k,
// unsigned char* codes, float* scales), an activation row cut into 1 x 128 blocks, each with the
// scale amax / 448 (1 for a block of zeros) and its codes to_e4m3(x / scale): the quantization of
// DeepGEMM's activations and cuBLASLt's VEC128 scale mode that stage 20b reads. Graded bit for bit
// against the simulator's quantizer (gemmlab/fp8_quantize.h) on the cases of fp8_quantize_cases.h.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "fp8_quantize_cases.h"
#include "gemmlab/fp8_accum.h"
#include "gemmlab/fp8_quantize.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

using namespace fp8q;
using fp8::decode_e4m3;
using fp8::encode_e4m3;

constexpr std::uint32_t kUnsetScale = 0x7FA5A5A5;  // a NaN the driver leaves in scales[] before the call
constexpr int kGuard = 64;                          // bytes after codes[k - 1], floats after the last scale: untouched

long long scalar_points() { return static_cast<long long>(scalar_cases().size()); }
long long row_points() {
  long long n = 0;
  for (const Row& r : row_cases()) n += static_cast<long long>(r.x.size());
  return n;
}

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(long long bits) {
  const std::uint32_t u = static_cast<std::uint32_t>(bits);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// ---------------------------------------------------------------- one conversion
// What is wrong with `got` as the code of v, in the terms of the rule it breaks.
Words why_code(double v, long long got) {
  const std::uint8_t want = encode_e4m3(v);
  const double a = std::fabs(v);
  if (a > fp8::kE4m3Max)
    return words("e4m3 has no value past 448 and no infinity: %s saturates to %s (0x7F and 0xFF are NaN)",
                 value_text(v), code_text(want));
  if ((want & 0x7F) == 0)
    return words("%s rounds to zero, and the zero keeps the sign of the value: %s", value_text(v), code_text(want));
  if (decode_e4m3(want) == v) {
    const int e = (want >> 3) & 15;
    char m[4] = {char('0' + (want >> 2 & 1)), char('0' + (want >> 1 & 1)), char('0' + (want & 1)), 0};
    if (e == 0)
      return words("%s is e4m3 %s exactly: below 2^-6 e4m3 is subnormal, exponent field 0 and value = mantissa %s x 2^-9",
                   value_text(v), code_text(want), want & 7);
    char eb[5] = {char('0' + (e >> 3 & 1)), char('0' + (e >> 2 & 1)), char('0' + (e >> 1 & 1)), char('0' + (e & 1)), 0};
    return words("%s is e4m3 %s exactly: sign %s, exponent field %s (2^%s, bias 7), mantissa %s", value_text(v),
                 code_text(want), want >> 7, std::string(eb), e - 7, std::string(m));
  }
  const std::uint8_t lo = toward_zero_code(v), hi = away_code(v);
  if ((decode_e4m3(lo) + decode_e4m3(hi)) / 2 == v) {
    if (got == hi)
      return words("%s is halfway between %s and %s: a tie goes to the even code (mantissa ending in 0), %s, not "
                   "away from zero as round() does",
                   value_text(v), code_text(lo), code_text(hi), code_text(want));
    return words("%s is halfway between %s and %s: a tie goes to the even code (mantissa ending in 0), %s",
                 value_text(v), code_text(lo), code_text(hi), code_text(want));
  }
  if (got == lo)
    return words("the nearest e4m3 to %s is %s; yours is the next one toward zero (a cast to an integer cuts the "
                 "fraction off): round to nearest",
                 value_text(v), code_text(want));
  return words("the nearest e4m3 to %s is %s", value_text(v), code_text(want));
}

std::optional<Words> first_scalar_failure(const ValueTable& t) {
  const std::vector<Scalar>& s = scalar_cases();
  for (Kind kind : {Kind::Exact, Kind::Between, Kind::Tie, Kind::Saturate, Kind::Zero})
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i].kind != kind) continue;
      const long long got = t.at(static_cast<long long>(i), 0);
      if (got == encode_e4m3(s[i].v)) continue;
      return words("to_e4m3(%s) returned %s: %s", value_text(s[i].v), code_text(got), why_code(s[i].v, got));
    }
  return std::nullopt;
}

// ---------------------------------------------------------------- rows
struct RowView {
  int index;
  const Row& row;
  long long first_point;
  int k() const { return static_cast<int>(row.x.size()); }
  float amax(int b) const {
    float m = 0;
    for (int i = b * kBlock; i < (b + 1) * kBlock; ++i) m = std::fmax(m, std::fabs(row.x[static_cast<size_t>(i)]));
    return m;
  }
  float row_amax() const {
    float m = 0;
    for (float v : row.x) m = std::fmax(m, std::fabs(v));
    return m;
  }
};

Words where_row(const RowView& r) { return words("quantize_row on row %s (%s, k = %s)", r.index, r.row.what, r.k()); }

std::optional<Words> scale_failure(const RowView& r, int b, long long got_bits) {
  const float want = block_scale(r.row.x.data() + b * kBlock), amax = r.amax(b), got = float_of(got_bits);
  if (static_cast<std::uint32_t>(got_bits) == bits_of(want)) return std::nullopt;
  if (static_cast<std::uint32_t>(got_bits) == kUnsetScale)
    return words("%s left scales[%s] unwritten: one scale per block of 128 elements, k / 128 = %s in all", where_row(r),
                 b, r.k() / kBlock);
  if (amax == 0)
    return words("%s: block %s is all zeros, so its scale is 1 (amax / 448 = 0 would make x / scale 0 / 0, NaN); yours "
                 "is %s",
                 where_row(r), b, float_text(got));
  if (got == amax / 127.0f)
    return words("%s: block %s's scale %s is amax / 127, int8's; e4m3's largest finite value is 448: amax / 448 = %s",
                 where_row(r), b, float_text(got), float_text(want));
  const float whole_row = r.row_amax() / 448.0f;
  if (got == whole_row && whole_row != want)
    return words("%s: block %s's scale %s is the whole row's amax / 448 (%s / 448): one scale for many blocks, as "
                 "per-tensor scaling has; each 1 x 128 block has its own, its amax / 448 = %s / 448 = %s",
                 where_row(r), b, float_text(got), float_text(r.row_amax()), float_text(amax), float_text(want));
  if (got == amax * (1.0f / 448.0f))
    return words("%s: block %s's scale %s is amax x (1 / 448), rounded twice; amax / 448 = %s: divide", where_row(r), b,
                 float_text(got), float_text(want));
  if (got == 448.0f / amax)
    return words("%s: block %s's scale %s is 448 / amax; the scale is amax / 448 = %s, so that x / scale puts the "
                 "largest element at 448",
                 where_row(r), b, float_text(got), float_text(want));
  return words("%s: block %s's scale is %s; its amax is %s, and amax / 448 = %s", where_row(r), b, float_text(got),
               float_text(amax), float_text(want));
}

// The codes one more rounding gives: x / scale divided in float, x times 1 / scale (or 448 / amax).
std::uint8_t float_quotient_code(float x, float scale) { return encode_e4m3(double(x / scale)); }
bool inverse_code(long long got, float x, float scale, float amax) {
  return got == encode_e4m3(double(x * (1.0f / scale))) || got == encode_e4m3(double(x * (448.0f / amax)));
}

// The first wrong code of a row, explained by the one rounding too many that gives every wrong
// code of the row where one does, else by the conversion rule it breaks.
std::optional<Words> row_code_failure(const ValueTable& t, const RowView& r) {
  int first = -1;
  bool all_float = true, all_inverse = true;
  for (int i = 0; i < r.k(); ++i) {
    const float x = r.row.x[static_cast<size_t>(i)], scale = block_scale(r.row.x.data() + i / kBlock * kBlock);
    const long long got = t.at(r.first_point + i, 0);
    if (got == encode_e4m3(double(x) / double(scale))) continue;
    if (first < 0) first = i;
    all_float &= got == float_quotient_code(x, scale);
    all_inverse &= inverse_code(got, x, scale, r.amax(i / kBlock));
  }
  if (first < 0) return std::nullopt;
  const float x = r.row.x[static_cast<size_t>(first)], scale = block_scale(r.row.x.data() + first / kBlock * kBlock);
  const double q = double(x) / double(scale);
  const long long got = t.at(r.first_point + first, 0);
  Words why;
  if (all_float && all_inverse)
    why = words("yours is the code of x / scale rounded to float first (divided in float, or x times 1 / scale): %s; "
                "that second rounding moves a quotient next to a tie across it, and the nearest e4m3 is %s: divide "
                "in double, double(x) / scale",
                value_text(double(x / scale)), code_text(encode_e4m3(q)));
  else if (all_float)
    why = words("yours is the code of x / scale divided in float, %s; that second rounding moves a quotient next to "
                "a tie across it, and the nearest e4m3 is %s: divide in double, double(x) / scale",
                value_text(double(x / scale)), code_text(encode_e4m3(q)));
  else if (all_inverse)
    why = words("yours is the code of x times 1 / scale, which rounds once more than x / scale; the nearest e4m3 is "
                "%s: divide in double, double(x) / scale",
                code_text(encode_e4m3(q)));
  else
    why = why_code(q, got);
  return words("%s: codes[%s] is %s, but x[%s] / scale = %s / %s = %s; %s", where_row(r), first, code_text(got), first,
               float_text(x), float_text(scale), quotient_text(q), why);
}

std::vector<RowView> row_views() {
  std::vector<RowView> rows;
  long long p = scalar_points();
  for (const Row& row : row_cases()) {
    rows.push_back({static_cast<int>(rows.size()), row, p});
    p += static_cast<long long>(row.x.size());
  }
  return rows;
}

// A write past the arrays, then every block's scale.
std::optional<Words> first_scale_failure(const ValueTable& t) {
  const std::vector<RowView> rows = row_views();
  for (const RowView& r : rows) {
    const long long flags = t.at(r.first_point, 2);
    if (flags & 1)
      return words("%s wrote past codes[%s]: codes holds k bytes", where_row(r), r.k() - 1);
    if (flags & 2)
      return words("%s wrote past scales[%s]: one scale per block of 128 elements, k / 128 in all", where_row(r),
                   r.k() / kBlock - 1);
  }
  for (const RowView& r : rows)
    for (int b = 0; b < r.k() / kBlock; ++b)
      if (auto w = scale_failure(r, b, t.at(r.first_point + b * kBlock, 1))) return w;
  return std::nullopt;
}

std::optional<Words> first_code_failure(const ValueTable& t) {
  for (const RowView& r : row_views())
    if (auto w = row_code_failure(t, r)) return w;
  return std::nullopt;
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  const long long points = scalar_points() + row_points();
  if (t.values_per_point != 3 || static_cast<long long>(t.values.size()) != 3 * points) {
    v.say(words("the grader's table has the wrong size: %s values, %s expected", static_cast<long long>(t.values.size()),
                3 * points));
    return v;
  }
  if (auto w = first_scalar_failure(t)) {
    v.say(std::move(*w));
    return v;
  }
  v.hold(words("to_e4m3: %s values to the nearest e4m3, ties to even, saturated at 448, zeros signed", scalar_points()));
  const long long blocks = row_points() / kBlock;
  if (auto w = first_scale_failure(t)) {
    v.say(std::move(*w));
    return v;
  }
  v.hold(words("quantize_row: each of the %s blocks' scale is its amax / 448, 1 for a block of zeros", blocks));
  if (auto w = first_code_failure(t)) {
    v.say(std::move(*w));
    return v;
  }
  v.hold(words("quantize_row: all %s codes are to_e4m3(x / scale)", row_points()));
  v.pass = true;
  v.say(words("%s conversions and %s blocks of %s rows match the simulator's quantizer bit for bit: the codes and "
              "scales stage 20b reads",
              scalar_points(), blocks, static_cast<long long>(row_cases().size())));
  return v;
}

// ---------------------------------------------------------------- the driver
// Literals that read back exactly: hexadecimal floats.
std::string literal_of(double v) {
  if (std::isinf(v)) return v > 0 ? "HUGE_VAL" : "-HUGE_VAL";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string driver_body() {
  std::string s = "static const double kScalars[] = {";
  for (const Scalar& c : scalar_cases()) s += literal_of(c.v) + ",";
  s += "};\nstatic const float kX[] = {";
  int k_max = 0;
  std::string ks;
  for (const Row& r : row_cases()) {
    for (float x : r.x) s += literal_of(x) + "f,";
    ks += std::to_string(r.x.size()) + ",";
    k_max = std::max(k_max, static_cast<int>(r.x.size()));
  }
  s += "};\nstatic const int kRowK[] = {" + ks + "};\n";
  s += "static unsigned char codes[" + std::to_string(k_max + kGuard) + "];\n";
  s += "static float scales[" + std::to_string(k_max / kBlock + kGuard) + "];\n";
  s += "const unsigned kUnset = " + std::to_string(kUnsetScale) + "u, kGuard = " + std::to_string(kGuard) + ";\n";
  s += R"(for (double v : kScalars) emit((long long)to_e4m3(v), 0LL, 0LL);
int at = 0;
for (int k : kRowK) {
  std::memset(codes, 0xA5, sizeof codes);
  for (float& f : scales) std::memcpy(&f, &kUnset, 4);
  quantize_row(kX + at, k, codes, scales);
  long long flags = 0;
  for (unsigned i = 0; i < kGuard; ++i) {
    unsigned bits;
    std::memcpy(&bits, &scales[k / 128 + i], 4);
    flags |= (codes[k + i] != 0xA5 ? 1 : 0) | (bits != kUnset ? 2 : 0);
  }
  for (int i = 0; i < k; ++i) {
    unsigned bits;
    std::memcpy(&bits, &scales[i / 128], 4);
    emit((long long)codes[i], (long long)bits, flags);
  }
  at += k;
})";
  return s;
}

}  // namespace

Grader make_fp8_quantize_grader() {
  Grader g;
  g.kind = "fp8-quantize";
  g.signature = "unsigned char to_e4m3(double v) and void quantize_row(const float* x, int k, unsigned char* codes, "
                "float* scales)";
  g.declarations = "#include <cmath>\n#include <cstring>\nunsigned char to_e4m3(double v);\n"
                   "void quantize_row(const float* x, int k, unsigned char* codes, float* scales);\n";
  g.driver_body = driver_body();
  g.points = scalar_points() + row_points();
  g.values_per_point = 3;
  g.describe_point = [](long long p) {
    if (p < scalar_points()) return "to_e4m3(" + value_text(scalar_cases()[static_cast<size_t>(p)].v) + ")";
    p -= scalar_points();
    int row = 0;
    for (const Row& r : row_cases()) {
      if (p < static_cast<long long>(r.x.size())) break;
      p -= static_cast<long long>(r.x.size()), ++row;
    }
    return "quantize_row on row " + std::to_string(row);
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise
