// Stage 19 - conv-int8: stage 18 with s8 activations and filters, mma.sync m16n8k32 s32 accumulate
// (conv_mma.cuh, ConvMath<S8>). Every copy and every shared-memory address is stage 18's, byte for
// byte: a 16-byte vector is 16 channels instead of 8, a k-tile 64 channels instead of 32, and the
// ldmatrix fragments of one step are the m16n8k32 fragments (PTX ISA "Matrix Fragments for
// mma.m16n8k32"). Half the bytes per multiply-add, and Hopper's int8 mma.sync runs at about twice
// the fp16 rate (1285 against 634 TOP/s in a register loop on an H100).
// C must be a multiple of 16. Output fp32: alpha * the s32 accumulator (+ beta * C).
//
// Run: gemmlab bench --conv resnet50 --stages conv-fp16,conv-int8 --check
#include "conv_stage.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_int8() { return conv::conv_stage_launch<conv::Element::S8>(); }

}  // namespace gemmlab::kernels
