// Stage 14 - + wgmma (sm_90a only). Stage 13's TMA pipeline, but the math leaves mma.sync for
// Hopper's warpgroup MMA:
//
//   - wgmma.mma_async m64n128k16 (SASS HGMMA.64x128x16.F32): four warps (a warpgroup, 128
//     threads) issue one instruction that multiplies 64 x 16 of A by 16 x 128 of B. The tensor
//     core reads both straight from the TMA's swizzled boxes through 64-bit matrix descriptors
//     (gemmlab/gmma_desc.h); no ldmatrix, no fragments in registers, only the 64 accumulators
//     a thread holds (gmma::accumulator says which).
//   - Asynchronous: the instruction returns at once; wgmma.commit_group closes a k-tile's four
//     MMAs into a group and wgmma.wait_group 1 lets one group keep running while the warpgroup
//     waits for the stage to free. Stage 13's warps spent their issue slots on 128 ldmatrix and
//     512 mma.sync per k64-tile; here a warpgroup issues 4 instructions.
//   - 2 warpgroups (256 threads) on a 128x128x64 tile, 64 rows each, 4 stages of 32 KB (129 KB),
//     serpentine slabs of 4 tiles (hopper_shapes.h says why 4).
// Kept from stage 13: thread 0 issues the TMA between the compute; one block barrier per k-tile
// tells it a stage is free (stage 15 replaces both with a producer warpgroup and empty barriers).
// The accumulators go straight to C, 32-bit stores of 8 rows x 4 columns per instruction.
// What holds it back: at the tensor peak each k-tile's 32 KB of A and B feed 512 cycles, 64 bytes
// a cycle through the TMA and the L2; stage 15's 128x256 tile needs 48 (the same kernel on
// 128x256 ran level with stage 15: HOPPER_NOTES.md).
// K must be a multiple of 8 (TMA's 16-byte row strides); any M and N (zero boxes, predicated stores).
// The kernel: 14_wgmma.cuh (wgmma_kernel); its PTX: wgmma_ptx.cuh.
// Measured, GPU time only (2026-11-27, ratio to cuBLAS timed in turns, 6-8 runs a GPU): H100
// 82-84 % at 4096^3, 88-99 % at 8192^3; H200 86-87 % and 90-99 % (stage 13: 64-67 % / 61-65 %;
// stage 15: 95-96 % / 98-107 %; at 8192^3 both cards run at their power limit and the ratio swings).
// Runs and method: HOPPER_NOTES.md.
//
// Run: gemmlab bench --stages tma,wgmma --sizes 4096,8192 --check
#include "14_wgmma.cuh"
#include "hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::WgmmaStage;  // 128x128x64, 2 warpgroups, 4 stages (hopper_shapes.h)
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
