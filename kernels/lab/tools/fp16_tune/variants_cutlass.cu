// CUTLASS 2.x's sm80 GEMM (mma.sync, cp.async multistage) as fp16_tune variants, so that stage 12
// is timed against the peer of issue 13's target in the same process, the same rounds and the
// same rotated inputs. Built only when CMake is given a CUTLASS checkout (-DGEMMLAB_CUTLASS_DIR=
// <dir with include/cutlass>): a measurement of a peer, never a dependency of the product.
// The shapes are those hardware_rules.md's "best of 3 tiles" names (CUTLASS's default
// GemmIdentityThreadblockSwizzle<1>, LinearCombination epilogue, 128-bit accesses):
//   cutlass/256x128s3   256x128x32, warps 64x64x32, 3 stages (best on the H100 at 4096^3 and 8192^3)
//   cutlass/128x256s3   128x256x32, 3 stages (best on the H200 at 4096^3)
//   cutlass/256x128s4   256x128x32, 4 stages
#include <cutlass/gemm/device/gemm.h>

#include "fp16_tune/cutlass_peer.h"
#include "fp16_tune/variants.h"

using namespace gemmlab::kernels;

namespace {

template <int kM, int kN, int kK, int kStages>
using CutlassGemm = cutlass::gemm::device::Gemm<
    cutlass::half_t, cutlass::layout::RowMajor,     // A: m x k, lda = k
    cutlass::half_t, cutlass::layout::ColumnMajor,  // B: k x n, ldb = k
    float, cutlass::layout::ColumnMajor,            // C: m x n, ldc = m
    float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<kM, kN, kK>, cutlass::gemm::GemmShape<64, 64, kK>,
    cutlass::gemm::GemmShape<16, 8, 16>,
    cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<1>, kStages>;

template <class G>
typename G::Arguments arguments(const GemmArgs& a) {
  return typename G::Arguments(
      {a.m, a.n, a.k}, {static_cast<const cutlass::half_t*>(a.A), a.k},
      {static_cast<const cutlass::half_t*>(a.B), a.k}, {a.C, a.m}, {a.C, a.m}, {a.alpha, a.beta});
}

template <class G>
const char* check(int m, int n, int k) {
  return fp16_tune::cutlass_peer::check<G, arguments<G>>(
      m, n, k, "K must be a multiple of 8 (CUTLASS's 128-bit A and B accesses)",
      "M must be a multiple of 4 (CUTLASS's 128-bit C accesses)");
}

size_t no_workspace(int, int, int) { return 0; }

template <class G>
cudaError_t launch(const GemmArgs& args) {
  return fp16_tune::cutlass_peer::launch<G, arguments<G>>(args, nullptr);  // no workspace without split-k
}

template <class G>
StageLaunch get() {
  return {check<G>, no_workspace, launch<G>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::cutlass_variants() {
  using fp16_tune::variant;
  return {
      variant("epilogue/cutlass-256x128s3", "CUTLASS 2.x sm80 256x128x32 3 st", 256, 128, 32, 256,
              get<CutlassGemm<256, 128, 32, 3>>),
      variant("epilogue/cutlass-128x256s3", "CUTLASS 2.x sm80 128x256x32 3 st", 128, 256, 32, 256,
              get<CutlassGemm<128, 256, 32, 3>>),
      variant("epilogue/cutlass-256x128s4", "CUTLASS 2.x sm80 256x128x32 4 st", 256, 128, 32, 256,
              get<CutlassGemm<256, 128, 32, 4>>),
  };
}
