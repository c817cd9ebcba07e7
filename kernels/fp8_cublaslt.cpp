// cuBLASLt's FP8 matmul for the runner (fp8_cublaslt.h says the layouts and why).
#include "fp8_cublaslt.h"

namespace gemmlab::kernels::fp8lt {

std::string status_text(cublasStatus_t s) {
  const char* name = s == CUBLAS_STATUS_SUCCESS           ? "CUBLAS_STATUS_SUCCESS"
                     : s == CUBLAS_STATUS_NOT_INITIALIZED ? "CUBLAS_STATUS_NOT_INITIALIZED"
                     : s == CUBLAS_STATUS_ALLOC_FAILED    ? "CUBLAS_STATUS_ALLOC_FAILED"
                     : s == CUBLAS_STATUS_INVALID_VALUE   ? "CUBLAS_STATUS_INVALID_VALUE"
                     : s == CUBLAS_STATUS_ARCH_MISMATCH   ? "CUBLAS_STATUS_ARCH_MISMATCH"
                     : s == CUBLAS_STATUS_EXECUTION_FAILED ? "CUBLAS_STATUS_EXECUTION_FAILED"
                     : s == CUBLAS_STATUS_INTERNAL_ERROR  ? "CUBLAS_STATUS_INTERNAL_ERROR"
                     : s == CUBLAS_STATUS_NOT_SUPPORTED   ? "CUBLAS_STATUS_NOT_SUPPORTED"
                                                          : "cuBLAS status";
  return std::string(name) + " (" + std::to_string(int(s)) + ")";
}

Matmul::Matmul(bool block_scales, int m, int n, int k) {
  auto step = [&](cublasStatus_t s) {
    if (status_ == CUBLAS_STATUS_SUCCESS) status_ = s;
  };
  step(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  if (status_ != CUBLAS_STATUS_SUCCESS) return;
  const cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  step(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
  step(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof(nt)));
  if (!block_scales) {
    // Stage 20a's arithmetic: no promotion to fp32 inside cuBLASLt's k loop. Block scales
    // promote every k-block by their nature: the attribute is left at its default with them.
    const int8_t fast = 1;
    step(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)));
  } else {
    const int32_t weights = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F, activations = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
    step(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &weights, sizeof(weights)));
    step(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &activations, sizeof(activations)));
  }
  step(cublasLtMatrixLayoutCreate(&a_, CUDA_R_8F_E4M3, uint64_t(k), uint64_t(n), int64_t(k)));
  step(cublasLtMatrixLayoutCreate(&b_, CUDA_R_8F_E4M3, uint64_t(k), uint64_t(m), int64_t(k)));
  step(cublasLtMatrixLayoutCreate(&d_, CUDA_R_16BF, uint64_t(n), uint64_t(m), int64_t(n)));
}

Matmul::~Matmul() {
  if (d_) cublasLtMatrixLayoutDestroy(d_);
  if (b_) cublasLtMatrixLayoutDestroy(b_);
  if (a_) cublasLtMatrixLayoutDestroy(a_);
  if (desc_) cublasLtMatmulDescDestroy(desc_);
}

// A' = our B, B' = our A: A' gets B's scale. The pointers are set per call: every input set of the
// timing has its own scales.
cublasStatus_t Matmul::set_scales(const Fp8GemmArgs& a) const {
  cublasStatus_t s = cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a.scale_b,
                                                    sizeof(a.scale_b));
  if (s == CUBLAS_STATUS_SUCCESS)
    s = cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &a.scale_a, sizeof(a.scale_a));
  return s;
}

cublasStatus_t Matmul::candidates(cublasLtHandle_t h, const Fp8GemmArgs& a, size_t workspace_bytes, int most,
                                  std::vector<Algo>* out) const {
  out->clear();
  if (status_ != CUBLAS_STATUS_SUCCESS) return status_;
  if (const cublasStatus_t s = set_scales(a); s != CUBLAS_STATUS_SUCCESS) return s;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasStatus_t s = cublasLtMatmulPreferenceCreate(&pref);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  s = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                           sizeof(workspace_bytes));
  std::vector<cublasLtMatmulHeuristicResult_t> found(size_t(most > 0 ? most : 1));
  int count = 0;
  if (s == CUBLAS_STATUS_SUCCESS)
    s = cublasLtMatmulAlgoGetHeuristic(h, desc_, a_, b_, d_, d_, pref, int(found.size()), found.data(), &count);
  cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  for (int i = 0; i < count; ++i)
    if (found[size_t(i)].state == CUBLAS_STATUS_SUCCESS) out->push_back({found[size_t(i)].algo});
  return out->empty() ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t Matmul::run(cublasLtHandle_t h, const Fp8GemmArgs& a, const cublasLtMatmulAlgo_t& algo,
                           void* workspace, size_t workspace_bytes) const {
  if (status_ != CUBLAS_STATUS_SUCCESS) return status_;
  if (const cublasStatus_t s = set_scales(a); s != CUBLAS_STATUS_SUCCESS) return s;
  const float alpha = 1.f, beta = 0.f;
  return cublasLtMatmul(h, desc_, &alpha, a.B, a_, a.A, b_, &beta, a.D, d_, a.D, d_, &algo, workspace,
                        workspace_bytes, a.stream);
}

}  // namespace gemmlab::kernels::fp8lt
