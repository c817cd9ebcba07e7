// What the three conv stages' .cu files share: the StageLaunch of an element type.
#pragma once
#include "stages/conv/conv_mainloop.cuh"
#include "stage_api.h"

namespace gemmlab::kernels::conv {

// A conv stage refuses GEMM problems: it runs convolutions (gemmlab bench --conv).
const char* refuse_gemm(int m, int n, int k);
size_t no_workspace(int m, int n, int k);

template <Element E>
StageLaunch conv_stage_launch() {
  return {refuse_gemm, no_workspace, nullptr,
          [](const Shape& sh) { return check_shape(sh, E); }, launch_conv_fprop<E>};
}

}  // namespace gemmlab::kernels::conv
