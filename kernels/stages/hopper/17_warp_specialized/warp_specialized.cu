// Stage 17 (`warp-specialized`), lesson 17-warp-specialized (sm_90a). Adds over stage 16: roles.
// A producer warpgroup only issues TMA (setmaxnreg.dec 40), two consumer warpgroups only compute
// (setmaxnreg.inc 232); a full and an empty mbarrier per stage replace the block barrier. 384
// threads on a 128x256x64 tile. The pipeline is in hopper_pipeline.cuh. K % 8 == 0.
// Run: gemmlab bench --stages wgmma,warp-specialized --sizes 4096,8192 --check
#include "stages/hopper/hopper_pipeline.cuh"
#include "stages/hopper/hopper_launch.cuh"

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
