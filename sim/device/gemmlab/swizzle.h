// CuTe's Swizzle<B,M,S>: XOR the B bits at [M+S, M+S+B) of an offset into the B bits at [M, M+B).
// Works on element or byte offsets alike; the unit is whatever the caller counts in.
//
//   Swizzle<3,3,3> on half offsets of a 64-half (128 B) row: the 8-half chunk index (bits 3..5)
//   is XORed with the row index mod 8 (bits 6..8), so the 8 rows an ldmatrix reads land in
//   8 different 16-byte bank groups.
#pragma once
#include "gemmlab/hd.h"

namespace gemmlab {

struct SwizzleParams {
  int bits = 0;   // B: how many bits are XORed (2^B rows/chunks permuted)
  int base = 0;   // M: how many low bits stay untouched (2^M units form one chunk)
  int shift = 0;  // S: distance from the source bits (the "row") down to the target bits
};

// CuTe requires B >= 0, M >= 0 and |S| >= B (so source and target bit ranges do not overlap).
GL_HD constexpr bool swizzle_valid(SwizzleParams p) {
  const int abs_s = p.shift < 0 ? -p.shift : p.shift;
  return p.bits >= 0 && p.base >= 0 && abs_s >= p.bits && p.bits + p.base + abs_s <= 30;
}

GL_HD constexpr long long swizzle_apply(SwizzleParams p, long long offset) {
  const long long bit_mask = (1LL << p.bits) - 1;
  if (p.shift >= 0) {
    const long long yyy_mask = bit_mask << (p.base + p.shift);
    return offset ^ ((offset & yyy_mask) >> p.shift);
  }
  const long long yyy_mask = bit_mask << p.base;
  return offset ^ ((offset & yyy_mask) << -p.shift);
}

template <int B, int M, int S>
struct Swizzle {
  static_assert(swizzle_valid(SwizzleParams{B, M, S}), "Swizzle<B,M,S> needs |S| >= B >= 0, M >= 0");
  GL_HD constexpr long long operator()(long long offset) const {
    return swizzle_apply(SwizzleParams{B, M, S}, offset);
  }
};

static_assert(Swizzle<3, 3, 3>{}(64) == 72);  // row 1, chunk 0 -> chunk 1
static_assert(Swizzle<3, 3, 3>{}(7) == 7);    // row 0 untouched

}  // namespace gemmlab
