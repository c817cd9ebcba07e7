// Stage 14d (`conv-wgmma`), lesson 14-implicit-gemm (sm_90a). Stage 14a's implicit GEMM on the
// Hopper ladder: wgmma consumers with full / empty mbarriers (stages 16-17), filters by TMA, and
// activations by the TMA's im2col mode where C is a multiple of 64 (a 2D box of the input's rows
// where a 1x1 filter at stride 1 makes the input A itself; else gathered with cp.async by
// a producer warpgroup, or element by element where C % 8 != 0, the stem's C = 3); tiles and
// split-k clusters by problem (conv::wgmma_tile, wgmma_work). The kernel is conv_wgmma.cuh, its
// launch conv_wgmma_launch.cuh. Output fp32 NPQK.
// Run: gemmlab bench --conv resnet50 --stages conv-fp16,conv-wgmma

#include "stages/conv/14d_conv_wgmma/conv_wgmma_launch.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_wgmma() {
  return {conv::refuse_gemm, conv::no_workspace, nullptr, conv_wgmma::check<false>, conv_wgmma::run<false>};
}

}  // namespace gemmlab::kernels
