// Stage 20 - conv-int4: seed 003's own form (CUTLASS's turing_tensorop_conv2dfprop): s4 activations
// and filters packed eight per 32-bit word (element e in nibble e % 8 of word e / 8, as
// Array<int4b_t> and SubbyteReference store them; gemmlab/conv_problem.h, s4_get / s4_set), and
// mma.sync m8n8k32 s4, four of them per 16x8 tile and k16 step (conv_mma.cuh, ConvMath<S4>).
// Stage 18's copies again, a 16-byte vector now 32 channels.
// Hopper has no int4 tensor-core path: m8n8k32 s4 runs at about 34 TOP/s in a register loop on an
// H100 (against 634 for fp16 m16n8k16), so this stage is here to show seed 003's packing and
// fragments, not to be fast; it is not tuned. C must be a multiple of 32.
//
// Run: gemmlab bench --conv 32,14,14,256,256,3,3,1,1 --stages conv-int8,conv-int4 --check
#include "conv_stage.cuh"

namespace gemmlab::kernels {

StageLaunch launch_conv_int4() { return conv::conv_stage_launch<conv::Element::S4>(); }

}  // namespace gemmlab::kernels
