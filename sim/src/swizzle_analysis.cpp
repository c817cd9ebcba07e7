#include "gemmlab/swizzle_analysis.h"

namespace gemmlab {

namespace {
std::string num(long long v) { return std::to_string(v); }
std::string params(SwizzleParams p) {
  return "Swizzle<" + num(p.bits) + "," + num(p.base) + "," + num(p.shift) + ">";
}
// log2 of a power of two in 1..16 bytes, or -1.
int log2_element_bytes(int bytes) {
  for (int l = 0; l <= 4; ++l)
    if (bytes == (1 << l)) return l;
  return -1;
}
}  // namespace

std::string swizzle_rule_text(SwizzleParams p) {
  const int abs_s = p.shift < 0 ? -p.shift : p.shift;
  if (p.base < 0) return params(p) + ": MBase must be positive. (CuTe static_assert num_base >= 0)";
  if (p.bits < 0) return params(p) + ": BBits must be positive. (CuTe static_assert num_bits >= 0)";
  if (abs_s < p.bits)
    return params(p) + ": abs(SShift) must be more than BBits. (CuTe static_assert |S| >= B: the "
           "source and target bit ranges would overlap)";
  if (p.bits + p.base + abs_s > 30)
    return params(p) + ": B + M + |S| = " + num(p.bits + p.base + abs_s) +
           " bits does not fit CuTe's int masks (GEMM Lab keeps it <= 30)";
  return {};
}

Expected<std::vector<long long>> list_swizzle(SwizzleParams p, long long count, long long first) {
  if (auto rule = swizzle_rule_text(p); !rule.empty()) return Error{rule};
  if (count <= 0 || count > kMaxSwizzleCount)
    return Error{"--count " + num(count) + " must be between 1 and 2^24 (16777216)"};
  if (first < 0 || first > (1LL << 40))
    return Error{"first offset " + num(first) + " must be between 0 and 2^40"};
  std::vector<long long> v;
  v.reserve(static_cast<size_t>(count));
  for (long long i = 0; i < count; ++i) v.push_back(swizzle_apply(p, first + i));
  return v;
}

Expected<SwizzleParams> swizzle_elements_to_bytes(SwizzleParams on_elements, int element_bytes) {
  if (auto rule = swizzle_rule_text(on_elements); !rule.empty()) return Error{rule};
  const int l = log2_element_bytes(element_bytes);
  if (l < 0) return Error{"element size " + num(element_bytes) + " B must be 1, 2, 4, 8 or 16 bytes"};
  SwizzleParams b = on_elements;
  b.base += l;
  if (auto rule = swizzle_rule_text(b); !rule.empty()) return Error{rule};
  return b;
}

Expected<SwizzleParams> swizzle_bytes_to_elements(SwizzleParams on_bytes, int element_bytes) {
  if (auto rule = swizzle_rule_text(on_bytes); !rule.empty()) return Error{rule};
  const int l = log2_element_bytes(element_bytes);
  if (l < 0) return Error{"element size " + num(element_bytes) + " B must be 1, 2, 4, 8 or 16 bytes"};
  if (on_bytes.base < l)
    return Error{params(on_bytes) + " on bytes moves bits inside one " + num(element_bytes) +
                 "-byte element (M = " + num(on_bytes.base) + " < log2(" + num(element_bytes) +
                 ") = " + num(l) + "), so it has no element form"};
  SwizzleParams e = on_bytes;
  e.base -= l;
  return e;
}

}  // namespace gemmlab
