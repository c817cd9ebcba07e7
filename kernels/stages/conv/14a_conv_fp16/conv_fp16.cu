// Stage 14a (`conv-fp16`), lesson 14-implicit-gemm. Stage 10's kernel on a GEMM never written down:
// M = N*P*Q output pixels, N = K channels, K = R*S*C filter taps. The only new code is the A copy
// (ImplicitGemmCopyA in conv_mainloop.cuh): each thread decodes its tap once per k-tile
// (gemmlab/conv_problem.h) and cp.async's 16 bytes or zero-fills the padding. The tile follows the
// problem (conv::choose_tile). C (channels) a multiple of 8.
// Run: gemmlab bench --conv resnet50 --stages conv-fp16 --check
#include <cuda_runtime.h>


#include "stages/conv/conv_stage.cuh"

namespace gemmlab::kernels {
namespace conv {

const char* refuse_gemm(int, int, int) {
  return "a convolution stage: run it with --conv N,H,W,C,K,R,S[,pad,stride] (gemmlab bench --conv)";
}
size_t no_workspace(int, int, int) { return 0; }

int multiprocessors() {
  constexpr int kMaxDevices = 64;
  static int cached[kMaxDevices] = {};
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) return 132;
  if (cached[device] == 0 &&
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
    cached[device] = sms;
  return cached[device] > 0 ? cached[device] : 132;
}

}  // namespace conv

StageLaunch launch_conv_fp16() { return conv::conv_stage_launch<conv::Element::F16>(); }

}  // namespace gemmlab::kernels
