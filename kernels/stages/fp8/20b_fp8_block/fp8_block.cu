// Stage 20b - FP8 with block scales (1 x 128 for A, 128 x 128 for B) and FP32 promotion (sm_90a).
// Adds over stage 20a: per-tensor scales lose the small values of a tensor with one outlier;
// scales per block keep them. A block's scale cannot sit in the tensor cores' sum, so each
// 128-wide k-block is summed on its own (wgmma from zero), then multiplied by its scales and added
// into FP32 registers on the CUDA cores. That promotion also cures the tensor cores' short
// accumulator (about 14 significant bits, kernels/lab/FP8_NOTES.md): no sum runs longer than 128.
//
//   - Tile 128 x 128 x 128 (stage 20a: 128 x 256): a consumer now holds its running FP32 total
//     beside the k-block's partial sums: 64 + 2 x 64 registers (two partial-sum arrays, so that
//     the next k-block's wgmmas run while this one is promoted).
//   - Cluster multicast, persistent units and the TMA epilogue: stage 20a's.
// K must be a multiple of 16 (TMA); any M and N. The kernel: fp8_block.cuh.
// Run: gemmlab bench --stages fp8-block --sizes 4096,4096x7168x16384 --check
#include "fp8_block.cuh"
#include "fp8_block.h"
#include "stages/fp8/fp8_launch.cuh"

namespace gemmlab::kernels::fp8 {
namespace {

using S = Fp8BlockShape;
const void* kKernel = reinterpret_cast<const void*>(fp8_block_kernel<Epilogue::Tma>);

}  // namespace

const char* check_fp8_block(int m, int n, int k) {
  // (The kernel steps through scale_a's k-blocks by a 32-bit byte stride, 4 M.)
  if (m >= (1 << 30)) return "fp8-block: M must be below 1073741824 (2^30): scale_a's k-blocks are 4 M bytes apart";
  return check_fp8_problem(m, n, k, kKernel);
}

cudaError_t launch_fp8_block(const Fp8GemmArgs& args) {
  if (check_fp8_block(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  return launch_fp8_units<S>(args, fp8_block_kernel<Epilogue::Tma>, fp8_block_kernel<Epilogue::Direct>, false,
                             S::kGroupPairs);
}

}  // namespace gemmlab::kernels::fp8

namespace gemmlab::kernels {

StageLaunch launch_fp8_block() {
  return {fp8::refuse_gemm, fp8::no_workspace, nullptr, nullptr, nullptr, fp8::check_fp8_block, fp8::launch_fp8_block};
}

}  // namespace gemmlab::kernels
