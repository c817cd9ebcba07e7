// Stage 14e (`conv-wgmma-fused`), lesson 14-implicit-gemm (sm_90a). Stage 14d's kernel with the
// epilogue a network runs after a convolution (batch norm folded into a per-channel bias): fp16
// NPQK output = ReLU(conv + bias[k] (+ residual)), summed in fp32 and rounded once, so the layer's
// output leaves the SM as half the bytes of 14d's fp32 and no second kernel reads it back. Its
// peer is cuDNN's fused graph (conv -> add bias -> add residual -> ReLU, fp16 out, reference row
// cudnn-fused). The kernel is conv_wgmma_fused_kernel in ../14d_conv_wgmma/conv_wgmma.cuh
// (its epilogue in fused_epilogue.cuh); ConvArgs carries output_f16, bias, residual and relu.
// Run: gemmlab bench --conv resnet50 --stages conv-wgmma-fused

#include "stages/conv/14d_conv_wgmma/conv_wgmma_launch.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_wgmma_fused() {
  return {conv::refuse_gemm, conv::no_workspace, nullptr, conv_wgmma::check<true>, conv_wgmma::run<true>};
}

}  // namespace gemmlab::kernels
