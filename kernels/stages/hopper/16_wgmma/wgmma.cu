// Stage 16 (`wgmma`), lesson 16-wgmma (sm_90a). Adds over stage 15: the math leaves mma.sync for
// the warpgroup MMA. wgmma.mma_async m64n128k16 reads A and B straight from the TMA's boxes
// through matrix descriptors (gemmlab/gmma_desc.h); a k-tile's MMAs are one commit group and
// wait_group 1 keeps one in flight. 2 warpgroups on a 128x128x64 tile. The kernel is in
// wgmma_mainloop.cuh, its PTX in wgmma_ptx.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages tma,wgmma --sizes 4096,8192 --check
#include "stages/hopper/wgmma_mainloop.cuh"
#include "stages/hopper/hopper_launch.cuh"

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
