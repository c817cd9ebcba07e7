// The FP8 stages' TMA maps (host): K-contiguous e4m3 operands read as 128-byte swizzled boxes, and
// bf16 D written as 64 x 64 boxes. Shared by stages 20a and 20b, whose tiles differ only in rows.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>

namespace gemmlab::kernels::fp8 {

inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const auto fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      p = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A K-contiguous e4m3 operand of `rows` rows, read as boxes of 128 bytes (one 128-byte swizzle row:
// 128 e4m3 of k) x box_rows rows; elements outside the tensor read as zero.
inline cudaError_t encode_fp8_map(CUtensorMap* map, const void* operand, int rows, int k, int box_rows) {
  const auto encode = encode_tiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {cuuint64_t(k), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(k)};  // bytes between rows
  const cuuint32_t box[2] = {128, cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(operand), dims, strides, box,
                            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// D (bf16, M x N row-major) for TMA stores of 64 x 64 boxes, 128-byte swizzle. Needs N % 8 == 0.
inline cudaError_t encode_d_map(CUtensorMap* map, void* D, int m, int n) {
  const auto encode = encode_tiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {cuuint64_t(n), cuuint64_t(m)};
  const cuuint64_t strides[1] = {cuuint64_t(n) * 2};
  const cuuint32_t box[2] = {64, 64};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, D, dims, strides, box, element_strides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace gemmlab::kernels::fp8
