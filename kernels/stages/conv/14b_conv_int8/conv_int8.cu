// Stage 14b (`conv-int8`), lesson 14-implicit-gemm. Stage 14a with s8 tensors and mma.sync
// m16n8k32 (s32 accumulate, ConvMath<S8> in conv_mma.cuh); every copy and shared address is 14a's
// byte for byte, a 16-byte vector now 16 channels. C a multiple of 16; output fp32.
// Run: gemmlab bench --conv 32,14,14,256,256,3,3,1,1 --stages conv-fp16,conv-int8 --check
#include "stages/conv/conv_stage.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_int8() { return conv::conv_stage_launch<conv::Element::S8>(); }

}  // namespace gemmlab::kernels
