// gemmlab sim swizzle: CuTe's Swizzle<B,M,S> applied to offsets 0..N-1 (elements or bytes alike).
//
//   gemmlab sim swizzle --bits 3 --base 3 --shift 3 --count 80
//   {"bits":3,"base":3,"shift":3,"source_mask":448,"target_mask":56,"values":[0,1,...,63,72,...]}
#include "commands.h"
#include "gemmlab/swizzle_analysis.h"

namespace gemmlab::cli {

namespace {
int small_int(const Args& a, const char* key) {
  const long long v = a.integer(key);
  if (v < -64 || v > 64) throw CliError(std::string(key) + " " + std::to_string(v) + " is out of range");
  return static_cast<int>(v);
}
}  // namespace

Json cmd_swizzle(const Args& a) {
  a.reject_unknown({"--bits", "--base", "--shift", "--count", "--json"});
  SwizzleParams p;
  p.bits = small_int(a, "--bits");
  p.base = small_int(a, "--base");
  p.shift = small_int(a, "--shift");
  const long long count = a.integer("--count");
  auto values = list_swizzle(p, count);
  if (!values) throw CliError(values.error());
  // CuTe's yyy_msk (the bits read) and zzz_msk (the bits XORed).
  const long long bit_mask = (1LL << p.bits) - 1;
  const int abs_s = p.shift < 0 ? -p.shift : p.shift;
  Json out;
  out["bits"] = p.bits;
  out["base"] = p.base;
  out["shift"] = p.shift;
  out["source_mask"] = bit_mask << (p.base + (p.shift > 0 ? p.shift : 0));
  out["target_mask"] = bit_mask << (p.base + (p.shift < 0 ? abs_s : 0));
  out["values"] = *values;
  return out;
}

}  // namespace gemmlab::cli
