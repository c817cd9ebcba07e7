// Which load and store widths an FP32 SIMT stage's launch picks for its arguments: host code,
// apart from the kernels (fp32_simt.cuh) so that a launch built elsewhere (an exercise's GPU
// grade, kernels/exercise/) picks the same.
#pragma once
#include <cstdint>

#include "stage_api.h"

namespace gemmlab::kernels::simt {

// float4 stores need M % 4 == 0 and a 16-byte aligned C.
inline bool c_vector_ok(const GemmArgs& a) {
  return a.m % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.C) % 16 == 0;
}

// 128-bit global loads need M and K multiples of 4 and 16-byte aligned A and B.
inline bool ab_vector_ok(const GemmArgs& a) {
  return a.m % 4 == 0 && a.k % 4 == 0 && reinterpret_cast<std::uintptr_t>(a.A) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(a.B) % 16 == 0;
}

}  // namespace gemmlab::kernels::simt
