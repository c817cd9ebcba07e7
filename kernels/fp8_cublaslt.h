// cuBLASLt as the FP8 tracks' reference (fp8_runner.cu): e4m3 x e4m3 -> bf16, fp32 compute,
// FAST_ACCUM (FP8 products added straight into the tensor cores' accumulators, as the stages do).
//
// cuBLASLt is column-major and takes FP8 only as "TN" (op(A) = T, op(B) = N, both K-major). Our
// row-major D (M x N) is its column-major D^T (N x M), so it runs with the operands swapped: its
// A' is our B (K x N column-major = N x K row-major, ld K), its B' our A (K x M, ld K), its D'
// our D (N x M, ld N). Its A' scale is our B's, its B' scale our A's.
//
// Block scales (the fp8-block track): A' (the weights, our B) BLK128x128_32F, B' (the
// activations, our A) VEC128_32F. The scale tensors' layout is not spelt out in cublasLt.h; what
// this code gives it, and why:
//   B' (VEC128): one float per 128 k of each of our M rows, M contiguous: [kb][m], ceil(K/128) x M
//     (our Fp8GemmArgs::scale_a as it is). PyTorch's _scaled_mm passes its 1x128 scales to
//     cuBLASLt with this shape and stride (M, K/128) : (1, M).
//   A' (BLK128x128): one float per 128 x 128 block of our B, k-blocks contiguous: [nb][kb], with the
//     kb row padded to a multiple of 4 floats (16 bytes): ceil(N/128) x scale_b_stride(K) (gemmlab/fp8_shapes.h). PyTorch
//     checks its 128x128 scales for (N/128, round_up(K/128, 4)) : (round_up(K/128, 4), 1).
// Our stages read scale_b unpadded ([nb][kb], stride ceil(K/128)); the runner gives cuBLASLt a
// padded copy (the same where ceil(K/128) % 4 == 0). A wrong guess shows as cuBLASLt failing its
// own check in the bench, not as a silent ratio.
#pragma once
#include <cublasLt.h>

#include <string>
#include <vector>

#include "stage_api.h"

namespace gemmlab::kernels::fp8lt {


// cublasLtMatmulAlgo_t is a typedef of an unnamed struct, which nvcc 13's front end fails on
// (an internal error) inside std::vector and std::map: containers in .cu files hold it through
// this name (and this wrapper is a .cpp file, built by the host compiler).
struct Algo {
  cublasLtMatmulAlgo_t algo;
};

// "CUBLAS_STATUS_NOT_SUPPORTED (15)"
std::string status_text(cublasStatus_t s);

// One problem's descriptors. cuBLASLt refusing them is a status, never a throw.
class Matmul {
 public:
  Matmul(bool block_scales, int m, int n, int k);
  ~Matmul();
  Matmul(const Matmul&) = delete;
  Matmul& operator=(const Matmul&) = delete;

  cublasStatus_t status() const { return status_; }  // of building the descriptors
  // Up to `most` of the heuristic's algorithms for this problem (workspace up to `workspace_bytes`),
  // asked with a's scale pointers set: with block scales cuBLASLt 13.1 answers INVALID_VALUE to a
  // descriptor without them.
  cublasStatus_t candidates(cublasLtHandle_t h, const Fp8GemmArgs& a, size_t workspace_bytes, int most,
                            std::vector<Algo>* out) const;
  // D = scales * A * B^T; a.scale_b is cuBLASLt's layout (fp8::scale_b_stride) with block scales.
  cublasStatus_t run(cublasLtHandle_t h, const Fp8GemmArgs& a, const cublasLtMatmulAlgo_t& algo, void* workspace,
                     size_t workspace_bytes) const;

 private:
  cublasStatus_t set_scales(const Fp8GemmArgs& a) const;
  cublasStatus_t status_ = CUBLAS_STATUS_SUCCESS;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
};

}  // namespace gemmlab::kernels::fp8lt
