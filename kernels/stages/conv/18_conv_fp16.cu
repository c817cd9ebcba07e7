// Stage 18 - conv-fp16: implicit-GEMM convolution (lesson 14-implicit-gemm, seed 003). Stage 11's
// kernel (cp.async multistage, Swizzle<3,3,3> shared memory, ldmatrix.x4, mma.sync m16n8k16, fp32
// accumulate) on a GEMM that is never written down:
//   M = N*P*Q output pixels, N = K output channels, K = R*S*C filter taps;
//   A(m, kk) = the input pixel under tap (r, s) of output pixel (n, p, q), channel c, or the padding;
// so the only new code is the A copy (conv_mainloop.cuh, ImplicitGemmCopyA): per k-tile each
// thread decodes its tap once (gemmlab/conv_problem.h, tap_step), adds it to the origin of each of
// its output pixels (row_origin, found once), and cp.async's the 16 bytes, or zero-fills them when
// the pixel lies in the padding (seed 003's predicated load). The filters (KRSC) are the ladder's
// K-contiguous B as they are, the output NPQK is C row-major, in fp32.
//
// The block tile follows the problem (gemmlab/conv_problem.h, choose_tile, from measurements):
// 128x64 where K <= 64, 128x128 with four blocks per SM to spare, else 64x128, 64x64 for the
// smallest. Any N, H, W, K, R, S, padding, stride and dilation; C a multiple of 8 (16-byte vectors
// never straddle two taps).
//
// Run: gemmlab bench --conv resnet50 --stages conv-fp16 --check   (against im2col + cuBLAS)
// Measured numbers and how they were taken: kernels/stages/conv/CONV_NOTES.md.
#include <cuda_runtime.h>

#include <cstdlib>

#include "conv_stage.cuh"

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

int forced_tile() {
  static const int tile = [] {
    const char* v = std::getenv("GEMMLAB_CONV_TILE");
    if (!v || !*v) return -1;
    const int i = std::atoi(v);
    return i >= 0 && i < kTileCount ? i : -1;
  }();
  return tile;
}

}  // namespace conv

StageLaunch launch_conv_fp16() { return conv::conv_stage_launch<conv::Element::F16>(); }

}  // namespace gemmlab::kernels
