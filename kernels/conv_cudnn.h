// cuDNN's convolution as a timing and correctness peer of the conv stages, when the build found
// cuDNN (CMake option GEMMLAB_CUDNN_ROOT: a folder with include/cudnn.h and lib/libcudnn.so*, e.g.
// the nvidia/cudnn folder of PyTorch's Python packages). Never a build dependency: without it the
// functions below say so and the bench leaves cuDNN out.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "gemmlab/conv_problem.h"
#include "stage_api.h"

namespace gemmlab::kernels::cudnn {

bool built();
std::string version();  // "9.19.0", or "" without cuDNN

// The fp16 convolution through cuDNN's graph API, as PyTorch calls it: y fp16 (fp32 accumulate),
// the fastest of the execution plans cuDNN's heuristics offer first, timed once per shape on the
// caller's buffers (torch.backends.cudnn.benchmark's choice), then cached. y is written as NPQK
// halves at the start of a.output, widened to fp32 in place when `widen` is set. Throws GpuError
// on a cuDNN error, for beta != 0 and for int8 / int4 (no peer: see run's message).
void run(const ConvArgs& a, conv::Element e, bool widen);

// The fused operation of track conv-fused through the same graph API: conv -> + bias (a.bias, K
// fp32, broadcast) -> + residual (a.residual, fp16 NPQK, where set) -> ReLU (where a.relu), fp32
// between the operations (virtual tensors), y fp16 NPQK in a.output_f16; its plan chosen and cached
// like run()'s. Throws GpuError where cuDNN has no engine for the graph.
void run_fused(const ConvArgs& a);

}  // namespace gemmlab::kernels::cudnn
