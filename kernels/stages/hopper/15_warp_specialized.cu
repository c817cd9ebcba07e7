// Stage 15 - + warp specialization (sm_90a only). Stage 14 made every warpgroup both compute and
// wait: thread 0 issued the TMA between its MMAs, and one block barrier per k-tile told it a stage
// was free, so the slowest warp of the block set the pace of all. Here the roles split, and the
// tile doubles:
//
//   - A producer warpgroup (128 threads, one of them working) only issues TMA. It gives its
//     registers away with `setmaxnreg.dec 40`; the two consumer warpgroups take them with
//     `setmaxnreg.inc 232` (SASS USETMAXREG), room for 128 accumulators and the pipeline.
//   - A full and an empty mbarrier per stage replace the block barrier: consumers wait on full
//     (the copy engine completes it), and each consumer warp arrives on empty once its MMAs of
//     that stage are done; the producer waits on empty before it refills the stage. No warp waits
//     for another warp, only for the data it needs.
//   - 384 threads on a 128x256x64 tile (wgmma m64n256k16, 64 rows per consumer), 4 stages of 48 KB
//     (192 KB), serpentine slabs of 8 as stage 12: each 48 KB feeds 1024 tensor cycles, 48 bytes a
//     cycle against stage 14's 64.
// Which of the two pays: the tile. Stage 14's kernel on this 128x256 tile (its thread-0 copies and
// block barrier, two warpgroups) ran level with this one, 96-97 % / 98-100 % of cuBLAS
// (HOPPER_NOTES.md): at the tensor peak nobody waits at the barrier. The producer pays once a
// block runs several tiles and loads the next during an epilogue (stage 17).
// K must be a multiple of 8 (TMA's 16-byte row strides); any M and N.
// The kernel: 15_warp_specialized.cuh (warp_specialized_kernel).
// Measured, GPU time only (2026-11-27, ratio to cuBLAS timed in turns, 6-7 runs a GPU): H100
// 95-96 % at 4096^3, 98-102 % at 8192^3; H200 95-96 % and 99-107 % (stage 14: 82-87 % / 88-99 %).
// Runs and method: HOPPER_NOTES.md.
//
// Run: gemmlab bench --stages wgmma,warp-specialized --sizes 4096,8192 --check
#include "15_warp_specialized.cuh"
#include "hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::WarpSpecializedStage;  // 128x256x64, 1 producer + 2 consumer warpgroups
using Shape = Stage::Shape;
const void* kKernel = reinterpret_cast<const void*>(hopper::warp_specialized_kernel<Shape>);

const char* check_warp_specialized(int m, int n, int k) {
  return hopper::check_serpentine_tma<Shape>(kKernel, m, n, k, Stage::kMaxStride);
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t run_warp_specialized(const GemmArgs& args) {
  if (check_warp_specialized(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b;
  if (const cudaError_t e = hopper::encode_maps<Shape>(args, &map_a, &map_b); e != cudaSuccess) return e;
  return hopper::launch_serpentine<Shape>(hopper::warp_specialized_kernel<Shape>, Stage::kMaxStride, 1,
                                          Shape::kSmemBytes, args, map_a, map_b, args.C, args.m,
                                          args.n, args.k, args.alpha, args.beta);
}

}  // namespace

StageLaunch launch_warp_specialized() { return {check_warp_specialized, no_workspace, run_warp_specialized}; }

}  // namespace gemmlab::kernels
