// Run-time form of CuTe's Swizzle<B,M,S> for the GUI and the CLI: validate the three numbers with
// CuTe's own static_assert messages, list Swizzle(i), and convert between element and byte units.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/swizzle.h"

namespace gemmlab {

// The rule a SwizzleParams breaks, in CuTe's words (include/cute/swizzle.hpp), or "" when valid.
std::string swizzle_rule_text(SwizzleParams p);

constexpr long long kMaxSwizzleCount = 1LL << 24;

// values[i] = Swizzle<B,M,S>(first + i) for i < count.
Expected<std::vector<long long>> list_swizzle(SwizzleParams p, long long count, long long first = 0);

// The same permutation of memory counted in bytes instead of elements: a swizzle on element
// offsets of E-byte elements equals one on byte offsets with M + log2(E) (Swizzle<3,3,3> on halves
// is Swizzle<3,4,3> on bytes). Refuses element sizes that are not a power of two.
Expected<SwizzleParams> swizzle_elements_to_bytes(SwizzleParams on_elements, int element_bytes);
// The reverse; refuses when the byte swizzle moves bits inside one element (M < log2(E)).
Expected<SwizzleParams> swizzle_bytes_to_elements(SwizzleParams on_bytes, int element_bytes);

}  // namespace gemmlab
