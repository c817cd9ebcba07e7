// Exercise 20-fp8/quantize on the GPU: the learner's quantize_row over an activation, one thread per
// 1 x 128 block, called with k = 128 on the block's own 128 floats (the host grade covered k = 128
// rows). Row-major activation: block b of row r is the 128 floats from r * k + 128 b; its codes go
// to the same offsets of `codes` and its scale to scales[r * (k / 128) + b]. The learner writes into
// arrays of the thread's own (with the host driver's 64 spare entries each, poisoned as it poisons
// them), which the harness copies out: whatever the function does, it changes no global memory but
// its block's codes and scale. NVRTC compiles the learner's file after this header, as device code.
#pragma once
// As the host grade's driver has them before the learner's file (here libcu++'s: exercise_nvrtc.cpp).
#include <cmath>
#include <cstring>

unsigned char to_e4m3(double v);
void quantize_row(const float* x, int k, unsigned char* codes, float* scales);

namespace gemmlab::kernels::exercise_gpu {

__global__ void fp8_quantize_kernel(const float* x, int m, int k, unsigned char* codes, float* scales) {
  const long long block = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (block >= static_cast<long long>(m) * (k / 128)) return;
  constexpr int kSpare = 64;
  alignas(16) unsigned char own_codes[128 + kSpare];
  float own_scales[1 + kSpare];
  for (int i = 0; i < 128 + kSpare; ++i) own_codes[i] = 0xA5;
  for (int i = 0; i < 1 + kSpare; ++i) own_scales[i] = __int_as_float(0x7FA5A5A5);
  quantize_row(x + block * 128, 128, own_codes, own_scales);
  const uint4* from = reinterpret_cast<const uint4*>(own_codes);
  uint4* to = reinterpret_cast<uint4*>(codes + block * 128);  // 128-byte aligned: cudaMalloc's base
  for (int i = 0; i < 8; ++i) to[i] = from[i];
  scales[block] = own_scales[0];
}

}  // namespace gemmlab::kernels::exercise_gpu
