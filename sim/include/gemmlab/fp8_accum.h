// How Hopper's tensor cores add FP8 products: the rule measured on an H200 by
// kernels/stages/fp8/fp8_accum_probe.cu (wgmma m64n8k32 e4m3 x e4m3 -> f32) and reproduced bit for
// bit on every probe case by sim/tests/test_fp8_accum.cpp. One wgmma k32 step computes, for each
// output, d = C + sum of 32 products a_k b_k as follows:
//   1. every term (the 32 exact products and C) has an exponent: a product's is the sum of its
//      factors' exponents (e - 7, or -6 for a subnormal; its mantissa product lies in [1, 4)), C's is
//      floor(log2 |C|); zeros take no part. E = the largest.
//   2. every term is cut to a multiple of 2^(E - 13), toward zero (bits below are dropped).
//   3. the cut terms are added exactly, and the sum is cut toward zero to 14 significant bits.
// The probe's 31744 outputs tell the alternatives apart: the 14-bit cut drops half an ulp or more
// in 4838 of them (rounding to nearest would differ), the alignment drops bits of a negative term
// in 18150 (cutting toward -infinity would differ) and of C in 5525 (adding C afterwards in FP32
// matches 29%). Of the 13312 outputs without C, 12 or 14 alignment bits match 58% / 69%, and
// groups of 16 or 8 products summed (same rule) before the groups are added match 73% / 67%. No
// order: the terms are added exactly at once, so the result does not depend on the k order.
// Not probed: e5m2, NaN, sums past FP32's range, subnormal FP32 C, other N than 8.
// So C passes through the same 14-bit truncation as the products: an accumulator that is large next
// to the products stops growing (all-ones inputs stall at 2^14). Promoting partial sums into FP32
// registers every few k-blocks (DeepGEMM) bounds the damage; promotion_error_vs_k measures it.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace gemmlab::fp8 {

constexpr int kStepK = 32;           // products per wgmma e4m3 k step
constexpr int kAlignBits = 13;       // terms cut at 2^(E - 13)
constexpr int kSumBits = 14;         // the sum keeps 14 significant bits

// The value of an e4m3 byte (1 sign, 4 exponent bits with bias 7, 3 mantissa bits; no infinity,
// 0x7F / 0xFF NaN). decode_e4m3(0x38) = 1, 0x7E = 448, 0x01 = 2^-9.
double decode_e4m3(std::uint8_t v);
bool is_nan_e4m3(std::uint8_t v);

// One wgmma k32 step for one output: c + sum a[k] b[k] for k < 32, as the tensor core computes it.
// a and b hold 32 finite e4m3 bytes each. accumulate = false is scale-d 0 (c ignored).
float wgmma_step(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, float c, bool accumulate = true);

// A dot product of length a.size() (a multiple of 32) as a kernel computes it: the tensor core
// accumulates k32 steps; every `promote_every` k-blocks of `k_block` elements (k_block a multiple of
// 32) its partial sum is added into an FP32 register (round to nearest) and the tensor core starts
// again from zero. promote_every = 0 never promotes (the tensor core holds the whole sum).
float dot_with_promotion(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, int k_block,
                         int promote_every);

// The reference: the decoded operands multiplied and added in double (exact while the products
// lie within 2^40 of each other, as in the generated cases).
double dot_exact(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

struct PromotionError {
  int k = 0;              // elements summed
  int promote_every = 0;  // k-blocks between promotions; 0 = never
  double value = 0;       // dot_with_promotion of the first k elements
  double exact = 0;       // dot_exact of the same
  double rel_error = 0;   // |value - exact| / |exact| (absolute when exact is 0)
};

// Error against K for each promotion interval: for k = k_block, 2 k_block, ... a.size() and each
// interval in `intervals` (e.g. 1, 2, 4, 8, 0), on the prefixes of a and b. Rows ordered by k, then
// by interval as given.
std::vector<PromotionError> promotion_error_vs_k(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                                                 int k_block, std::span<const int> intervals);

}  // namespace gemmlab::fp8
