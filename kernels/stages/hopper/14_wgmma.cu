// Stage 14 - + wgmma (sm_90a only). Stage 13's TMA pipeline, but the math leaves mma.sync for
// Hopper's warpgroup MMA:
//
//   - wgmma.mma_async m64n256k16 (SASS HGMMA.64x256x16.F32): four warps (a warpgroup, 128
//     threads) issue one instruction that multiplies 64 x 16 of A by 16 x 256 of B. The tensor
//     core reads both straight from the TMA's swizzled boxes through 64-bit matrix descriptors
//     (gemmlab/gmma_desc.h); no ldmatrix, no fragments in registers, only the 128 accumulators
//     a thread holds (gmma::accumulator says which).
//   - Asynchronous: the instruction returns at once; wgmma.commit_group closes a k-tile's four
//     MMAs into a group and wgmma.wait_group 1 lets one group keep running while the warpgroup
//     waits for the stage to free. Stage 13's warps spent their issue slots on 128 ldmatrix and
//     512 mma.sync per k64-tile; here a warpgroup issues 4 instructions.
//   - 2 consumer warpgroups (256 threads) on a 128x256x64 tile, 4 stages (192 KB).
// Kept from stage 13: thread 0 issues the TMA between the compute; one block barrier per k-tile
// tells it a stage is free (stage 15 replaces both with a producer warpgroup and empty barriers).
// The accumulators go straight to C, 32-bit stores of 8 rows x 4 columns per instruction.
// K must be a multiple of 8 (TMA's 16-byte row strides); any M and N (zero boxes, predicated stores).
// The kernel: 14_wgmma.cuh (wgmma_kernel); its PTX: wgmma_ptx.cuh.
// Measured, GPU time only (2026-11-26 21:2xZ, ratio to cuBLAS timed in turns): H100 701 TFLOP/s, 96.1 % at
// 4096^3, 660 TFLOP/s, 102.8 % at 8192^3; H200 699 TFLOP/s, 95.5 % and 711 TFLOP/s, 99.0 %.
// Runs and method: HOPPER_NOTES.md.
//
// Run: gemmlab bench --stages tma,wgmma --sizes 4096,8192 --check
#include "14_wgmma.cuh"
#include "hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::WgmmaStage;  // 128x256x64, 2 consumer warpgroups, 4 stages (hopper_shapes.h)
using Shape = Stage::Shape;
const void* kKernel = reinterpret_cast<const void*>(hopper::wgmma_kernel<Shape>);

const char* check_wgmma(int m, int n, int k) {
  return hopper::check_serpentine_tma<Shape>(kKernel, m, n, k, Stage::kMaxStride);
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t run_wgmma(const GemmArgs& args) {
  if (check_wgmma(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b;
  if (const cudaError_t e = hopper::encode_maps<Shape>(args, &map_a, &map_b); e != cudaSuccess) return e;
  return hopper::launch_serpentine<Shape>(hopper::wgmma_kernel<Shape>, Stage::kMaxStride, 1, Shape::kSmemBytes,
                                          args, map_a, map_b, args.C, args.m, args.n, args.k,
                                          args.alpha, args.beta);
}

}  // namespace

StageLaunch launch_wgmma() { return {check_wgmma, no_workspace, run_wgmma}; }

}  // namespace gemmlab::kernels
