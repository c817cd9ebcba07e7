// Stage 20a - FP8 (e4m3) operands with per-tensor scales, on stage 19's machinery (sm_90a only).
// The fp16 ladder ends at stage 19; what people train and serve with on Hopper is FP8: half the
// bytes per element and twice the tensor-core rate (wgmma k32 e4m3 takes as long as k16 f16).
//
//   - The same 128-byte swizzled boxes, descriptors and pipeline: a row of the k-tile is now 128
//     e4m3 instead of 64 halves, so a k-tile holds twice the k and feeds twice the MMA work for the
//     same 48 KB. The TMA map reads bytes (UINT8), the wgmma is m64n256k32.f32.e4m3.e4m3.
//   - Both operands K-major (FP8 wgmma has no transposed forms): A row-major M x K, B as N x K.
//     That is the only layout cuBLASLt's FP8 accepts too ("TN").
//   - Per-tensor scales: the accumulators are fp32 sums of exact e4m3 products; the epilogue
//     multiplies by scale_a * scale_b once and rounds to bf16 (D row-major, ldd = N).
//   - Persistent clusters of 2 sharing B through TMA multicast, as stage 19; units in groups of 8
//     m pairs for L2 reuse (groups of 4 or 16 measured the same).
//   - D through the TMA where N % 8 == 0: each consumer writes 64-column chunks of bf16 into two
//     swizzled 8 KB buffers and the copy engine stores them under the next unit's main loop
//     (direct bf16x2 stores, kept for N % 8 != 0, leave the tensor cores idle at every unit's end).
// K must be a multiple of 16 (TMA's 16-byte row strides: K bytes per row); any M and N.
// Measurements and the ncu comparison with cuBLASLt: kernels/lab/FP8_NOTES.md.
// The kernel: fp8_tensor.cuh. Checked and timed against cuBLASLt FP8 (per-tensor scales, fast
// accumulation) in turns by the bench (kernels/fp8_runner.cu).
// Run: gemmlab bench --stages fp8-tensor --sizes 4096,8192,4096x7168x16384 [--check]
#include <cstdlib>
#include <cstring>

#include "fp8_tensor.cuh"
#include "fp8_tensor.h"
#include "stages/fp8/fp8_launch.cuh"

namespace gemmlab::kernels::fp8 {
namespace {

using S = Fp8TensorShape;
static_assert(S::kTileK == 128 && S::kChunkCols == 64, "the boxes of fp8_maps.h");

const void* kKernel = reinterpret_cast<const void*>(fp8_tensor_kernel<Epilogue::Tma>);

}  // namespace

const char* check_fp8_tensor(int m, int n, int k) { return check_fp8_problem(m, n, k, kKernel); }

cudaError_t launch_fp8_tensor(const Fp8GemmArgs& args) {
  if (check_fp8_tensor(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  // Measurement only: GEMMLAB_FP8_EPILOGUE=direct forces the register stores.
  static const bool forced_direct = [] {
    const char* v = std::getenv("GEMMLAB_FP8_EPILOGUE");
    return v != nullptr && std::strcmp(v, "direct") == 0;
  }();
  // Measurement only: GEMMLAB_FP8_GROUP=g orders units in groups of g m pairs instead of 8.
  static const int group = [] {
    const char* v = std::getenv("GEMMLAB_FP8_GROUP");
    return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : S::kGroupPairs;
  }();
  return launch_fp8_units<S>(args, fp8_tensor_kernel<Epilogue::Tma>, fp8_tensor_kernel<Epilogue::Direct>,
                             forced_direct, group);
}

}  // namespace gemmlab::kernels::fp8

namespace gemmlab::kernels {

StageLaunch launch_fp8_tensor() {
  return {fp8::refuse_gemm, fp8::no_workspace, nullptr, nullptr, nullptr, fp8::check_fp8_tensor, fp8::launch_fp8_tensor};
}

}  // namespace gemmlab::kernels
