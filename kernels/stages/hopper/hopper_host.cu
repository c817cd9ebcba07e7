// The tensor maps and device checks of hopper_host.h. cuTensorMapEncodeTiled and
// cuTensorMapEncodeIm2col are driver API functions, reached through the runtime's entry-point query,
// so the build links no libcuda.
#include "stages/hopper/hopper_host.h"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include "gemmlab/tma_box.h"
#include "stages/fp16/fp16_problem.cuh"

namespace gemmlab::kernels::hopper {

const char* check_hopper_device(const void* kernel) {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
    return "no CUDA device could be queried";
  if (major != 9 || minor != 0)
    return "needs an sm_90 GPU (Hopper: H100, H200, GH200): its TMA and wgmma code is built for "
           "sm_90a only";
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess || attributes.binaryVersion != 90)
    return "this build has no sm_90a code: configure with CMAKE_CUDA_ARCHITECTURES containing "
           "90a-real (the default) and rebuild";
  return nullptr;
}

const char* check_tma_problem(int m, int n, int k) {
  if (const char* why = fp16::check_extents(m, n, k)) return why;
  if (!tma::k_supported(k))
    return "K must be a multiple of 8: TMA needs 16-byte row strides (K halves per row of A and B)";
  return nullptr;
}

namespace {
// A driver API function by name (the runtime's entry-point query; nullptr when the driver lacks it).
template <class Fn>
Fn driver_entry(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    p = nullptr;
  return reinterpret_cast<Fn>(p);
}
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const auto fn = driver_entry<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled");
  return fn;
}
PFN_cuTensorMapEncodeIm2col_v12000 encode_im2col() {
  static const auto fn = driver_entry<PFN_cuTensorMapEncodeIm2col_v12000>("cuTensorMapEncodeIm2col");
  return fn;
}
}  // namespace

cudaError_t encode_operand_map(CUtensorMap* map, const void* operand, int rows, int k, int box_rows) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {cuuint64_t(k), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(k) * 2};  // bytes between rows; dim 0 is contiguous
  const cuuint32_t box[2] = {cuuint32_t(tma::kBoxK), cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<void*>(operand), dims,
                            strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t encode_c_map(CUtensorMap* map, float* C, int m, int n, int box_cols) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled();
  if (encode == nullptr) return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {cuuint64_t(m), cuuint64_t(n)};
  const cuuint64_t strides[1] = {cuuint64_t(m) * 4};
  const cuuint32_t box[2] = {cuuint32_t(tma::kCBoxRows), cuuint32_t(box_cols)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, C, dims, strides, box, element_strides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t encode_im2col_map(CUtensorMap* map, const void* input, const conv::Shape& sh, int box_pixels) {
  const PFN_cuTensorMapEncodeIm2col_v12000 encode = encode_im2col();
  if (encode == nullptr) return cudaErrorNotSupported;
  if (!conv::im2col_tma_fits(sh)) return cudaErrorInvalidValue;
  const conv::Im2colBox b = conv::im2col_box(sh);
  const cuuint64_t dims[4] = {cuuint64_t(sh.c), cuuint64_t(sh.w), cuuint64_t(sh.h), cuuint64_t(sh.n)};
  const cuuint64_t strides[3] = {cuuint64_t(sh.c) * 2, cuuint64_t(sh.c) * 2 * sh.w, cuuint64_t(sh.c) * 2 * sh.w * sh.h};
  const int lower[2] = {b.lower_w, b.lower_h}, upper[2] = {b.upper_w, b.upper_h};
  const cuuint32_t element_strides[4] = {1, cuuint32_t(sh.stride), cuuint32_t(sh.stride), 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, const_cast<void*>(input), dims, strides, lower,
                            upper, cuuint32_t(tma::kBoxK), cuuint32_t(box_pixels), element_strides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace gemmlab::kernels::hopper
