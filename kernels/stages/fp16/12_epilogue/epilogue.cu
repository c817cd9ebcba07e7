// Stage 12 (`epilogue`), lesson 12-epilogue (its block order is lesson 11's). Adds over stage 10:
// a 256x128x32 tile of 8 warps of 64x64, the loop in CUTLASS 2.x's order (the barrier after a
// tile's first mma step), serpentine mma order and serpentine block swizzle (gemmlab/raster.h),
// and C through shared memory: each warp stages 16 columns at a time and stores 128-bit rows
// (StagedEpilogue in staged_epilogue.cuh). M % 4 == 0 for the 128-bit stores.
// Run: gemmlab bench --stages multistage,epilogue --sizes 4096,8192 --check
#include "stages/fp16/staged_epilogue.cuh"

namespace gemmlab::kernels {
namespace {

// 256x128x32, 4 stages (96 KB shared), 256 threads, serpentine slab width 8 (fp16_shapes.h).
using Shape = fp16::EpilogueStage::Shape;
constexpr int kMaxStride = fp16::EpilogueStage::kMaxStride;

const char* check_epilogue(int m, int n, int k) {
  return fp16::check_serpentine<Shape>(m, n, k, kMaxStride);
}
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_epilogue(const GemmArgs& args) {
  return fp16::launch_staged_epilogue<Shape>(args, kMaxStride);
}

}  // namespace

StageLaunch launch_epilogue() { return {check_epilogue, no_workspace, run_epilogue}; }

}  // namespace gemmlab::kernels
