// Stage 15 (`tma`), lesson 15-tma: the Hopper track's first stage (sm_90a). Adds over stage 12:
// the tensor memory accelerator copies A and B. One cp.async.bulk.tensor (UTMALDG) per operand
// and k-tile, issued by one thread, lands a 128-byte-swizzled box (gemmlab/tma_box.h) that the
// unchanged ldmatrix addressing reads; an mbarrier per stage counts the bytes in. k64 tiles, 4
// stages. TmaMainloop and the kernel are in tma_mainloop.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages epilogue,tma --sizes 4096,8192 --check
#include "stages/hopper/tma_mainloop.cuh"
#include "stages/hopper/hopper_launch.cuh"

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
