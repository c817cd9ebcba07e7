// Host side of the Hopper stages: the tensor maps the TMA copies read (one per operand), and the
// checks every Hopper stage makes before it launches.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include "gemmlab/conv_problem.h"
#include "gemmlab/tma_box.h"

namespace gemmlab::kernels::hopper {

// nullptr when the current GPU is an sm_90 (Hopper) and `kernel` was built for it (sm_90a),
// else the message the bench and the Kernels view show.
const char* check_hopper_device(const void* kernel);

// The fp16 stages' rules plus TMA's: K % 8 == 0 (16-byte global row strides); nullptr when fine.
const char* check_tma_problem(int m, int n, int k);

// The 2D map of a K-contiguous fp16 operand (A: rows = M, B: rows = N; row stride K halves),
// read as boxes of 64 halves x box_rows rows with the 128-byte swizzle (gemmlab/tma_box.h);
// elements outside the tensor read as zero. cudaErrorInvalidValue if the driver refuses it.
cudaError_t encode_operand_map(CUtensorMap* map, const void* operand, int rows, int k, int box_rows);

// The map of C (f32, column-major m x n, ldc = m) for TMA stores of 32 x 32 boxes with the
// 128-byte swizzle (gemmlab/tma_box.h, c_box_offset). Needs m % 4 == 0 and a 16-byte aligned C.
cudaError_t encode_c_map(CUtensorMap* map, float* C, int m, int n, int box_cols = tma::kCBoxCols);

// The im2col map of NHWC fp16 activations (gemmlab/conv_problem.h, im2col_box): boxes of box_pixels
// pixels x 64 channels, 128-byte swizzled, zero outside the tensor. Needs conv::im2col_tma_fits.
cudaError_t encode_im2col_map(CUtensorMap* map, const void* input, const conv::Shape& sh, int box_pixels);

}  // namespace gemmlab::kernels::hopper
