// Stage 20b's host interface: stage 20a's problem and layouts (fp8_tensor.h) with block scales:
//   D[m][n] = sum_kb scale_a[kb * M + m] * scale_b[(n / 128) * KB4 + kb] * sum_{k in kb} A[m][k] B[n][k]
// with KB = ceil(K / 128) and KB4 = KB rounded up to a multiple of 4 (fp8_shapes.h's scale_b_stride): one scale per row of A and
// 128-wide k-block (DeepSeek-V3's 1 x 128 activation blocks), one per 128 x 128 block of B (its
// weight blocks). Both are the layouts cuBLASLt 13 reads for VEC128_32F (A as its B operand) and
// BLK128x128_32F (B as its A operand) in the swapped "TN" call of fp8_tensor.h.
#pragma once
#include "stages/fp8/20a_fp8_tensor/fp8_tensor.h"

namespace gemmlab::kernels::fp8 {

// nullptr when stage 20b can run the problem on the current GPU, else what to change.
const char* check_fp8_block(int m, int n, int k);
// Launches stage 20b (args.scale_a / scale_b: the block scales above); cudaErrorInvalidValue where
// check_fp8_block refuses.
cudaError_t launch_fp8_block(const Fp8GemmArgs& args);

}  // namespace gemmlab::kernels::fp8
