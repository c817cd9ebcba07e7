// The conv view's settings, predict facts and rules (views/view_spec.h); drawn by conv_view.cpp.
#include "views/setting_checks.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& conv_view_spec() {
  static const ViewSpec spec = {
      "conv",
      "Conv",
      {{"problem", int_tuple(10, 0, 65536, "[N, H, W, C, K, R, S, pad, stride, dilation]")},
       {"element", one_of({"f16", "s8", "s4"})},
       {"copy", one_of({"cp.async", "tma"})},
       {"row", integer(0, 1 << 30)},
       {"block", integer(0, 1 << 24)},
       {"k_tile", integer(0, 1 << 20)},
       {"sms", integer(1, 1024)}},
      {
          {"conv.gemm_shape", "the implicit GEMM's M and K"},
          {"conv.blocks", "the launch's block count"},
          {"conv.window", "where the selected row's filter window falls, and the im2col slice"},
      },
      {
          {"conv.gemm_m", "N, P and Q (the output size from H, W, R, S, padding and stride)",
       {"conv.gemm_shape", "conv.blocks"}, {}},
          {"conv.gemm_k", "R, S and C", {"conv.gemm_shape"}, {}},
          {"conv.blocks", "the GEMM's M and N and the tile", {"conv.blocks"}, {}},
          {"conv.padded_taps", "the row's output pixel, the filter size, padding and stride", {"conv.window"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
