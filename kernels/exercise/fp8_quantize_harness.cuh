// Exercise 20-fp8/quantize on the GPU: the learner's quantize_row over an activation, one thread per
// 1 x 128 block, called with k = 128 on the block's own 128 floats, 128 codes and one scale (the
// host grade covered k = 128 rows and checked that nothing past codes[k - 1] or scales[k / 128 - 1]
// is written). Row-major activation: block b of row r is the 128 floats from r * k + 128 b, and its
// scale goes to scales[r * (k / 128) + b]. NVRTC compiles the learner's file after this header
// (grade_fp8_quantize_gpu.cpp), as device code.
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
  quantize_row(x + block * 128, 128, codes + block * 128, scales + block);
}

}  // namespace gemmlab::kernels::exercise_gpu
