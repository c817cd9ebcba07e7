// Turning real numbers into e4m3 codes as the FP8 stages' inputs are made: round to nearest (ties
// to even) and saturate at +-448, as cvt.rn.satfinite.e4m3x2.f32 does; a 1 x 128 block of an
// activation row shares one FP32 scale, amax / 448, so its largest element lands on 448 (DeepGEMM's
// fine-grained scaling). decode_e4m3 (gemmlab/fp8_accum.h) is the way back.
#pragma once
#include <cstdint>
#include <span>

namespace gemmlab::fp8 {

constexpr double kE4m3Max = 448;  // 0x7E: 1.75 x 2^8 (0x7F is NaN)

// The nearest e4m3 code (ties to even); |x| past 448 saturates to +-448, NaN gives 0x7F.
// encode_e4m3(1.0) = 0x38, 1.0625 -> 0x38 (tie, to even), 1.1875 -> 0x3A (tie, to even), 500 -> 0x7E,
// 2^-10 -> 0x00 (tie between 0 and the smallest subnormal 2^-9, to even).
std::uint8_t encode_e4m3(double x);

// One block sharing one scale: codes[i] = encode_e4m3(x[i] / scale) with scale = amax / 448, and the
// scale returned (1 for an all-zero block). x and codes have the same length.
float quantize_block(std::span<const float> x, std::span<std::uint8_t> codes);

}  // namespace gemmlab::fp8
