// Stage 14c (`conv-int4`), lesson 14-implicit-gemm: seed 003's own form. s4 tensors packed eight
// to a 32-bit word (gemmlab/conv_problem.h, s4_get / s4_set) and mma.sync m8n8k32 s4, four per
// 16x8 tile and k16 step (ConvMath<S4>). Hopper has no fast int4 path: this stage shows the
// packing and fragments, it is not tuned. C a multiple of 32.
// Run: gemmlab bench --conv 32,14,14,256,256,3,3,1,1 --stages conv-int8,conv-int4 --check
#include "stages/conv/conv_stage.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_int4() { return conv::conv_stage_launch<conv::Element::S4>(); }

}  // namespace gemmlab::kernels
