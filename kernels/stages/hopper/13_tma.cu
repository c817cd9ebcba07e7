// Stage 13 - + TMA (the Hopper track's first step; sm_90a only). Stage 12's kernel, same warps
// (8 of 64x64, ldmatrix + mma.sync), same serpentine blocks and staged epilogue, with one change:
// the global -> shared copies are done by the tensor memory accelerator instead of 256 threads'
// cp.async.
//
//   - A CUtensorMap per operand (hopper_host.cu: cuTensorMapEncodeTiled through the runtime's
//     driver entry point): the tensor's sizes and row stride, a box of 64 halves (128 bytes) x
//     the tile's rows, the 128-byte swizzle, zeros outside the tensor.
//   - `cp.async.bulk.tensor.2d ... mbarrier::complete_tx::bytes` (SASS UTMALDG): one instruction
//     per operand per k-tile, issued by one thread; the box lands swizzled (gemmlab/tma_box.h),
//     exactly stage 10's Swizzle<3,3,3>, so the ldmatrix addressing is unchanged.
//   - An mbarrier per stage: the producer's arrive.expect_tx announces the bytes, the copy engine
//     counts them in, everyone waits on the phase's parity (mbarrier.try_wait.parity).
//   - k64 tiles (was k32): a TMA box row is 128 bytes, the width of the swizzle; 4 stages of
//     48 KB (192 KB shared memory).
// Ragged M and N need no predication any more: TMA writes zeros for rows past the tensor.
// K must be a multiple of 8 (TMA's 16-byte row strides); other K are refused with that rule.
// The math is still mma.sync, so the ceiling is mma.sync's (register-only mma.sync loops reach
// 634 TFLOP/s on an H200, about 88 % of cuBLAS); stage 14 replaces it.
// The kernel: 13_tma.cuh (TmaMainloop, tma_mma_sync_kernel).
// Measured, GPU time only (2026-11-26 21:2xZ, ratio to cuBLAS timed in turns): H100 486 TFLOP/s, 66.6 % at
// 4096^3, 447 TFLOP/s, 62.0 % at 8192^3; H200 487 TFLOP/s, 66.4 % and 443 TFLOP/s, 62.4 %.
// Runs and method: HOPPER_NOTES.md.
//
// Run: gemmlab bench --stages epilogue,tma --sizes 4096,8192 --check
#include "13_tma.cuh"
#include "hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

// 128x256x64, 4 stages (192 KB + 1 KB alignment), 256 threads, serpentine slab 8 (hopper_shapes.h).
using Stage = hopper::TmaStage;
using Shape = Stage::Shape;
const void* kKernel = reinterpret_cast<const void*>(hopper::tma_mma_sync_kernel<Shape>);

const char* check_tma(int m, int n, int k) {
  return hopper::check_serpentine_tma<Shape>(kKernel, m, n, k, Stage::kMaxStride);
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t run_tma(const GemmArgs& args) {
  if (check_tma(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b;
  if (const cudaError_t e = hopper::encode_maps<Shape>(args, &map_a, &map_b); e != cudaSuccess) return e;
  const bool vector_c = args.m % 4 == 0 && reinterpret_cast<uintptr_t>(args.C) % 16 == 0;
  return hopper::launch_serpentine<Shape>(hopper::tma_mma_sync_kernel<Shape>, Stage::kMaxStride, 1,
                                          Stage::kSmemBytes, args, map_a, map_b, args.C, args.m,
                                          args.n, args.k, args.alpha, args.beta, vector_c);
}

}  // namespace

StageLaunch launch_tma() { return {check_tma, no_workspace, run_tma}; }

}  // namespace gemmlab::kernels
