// The bench session's Backend on a GPU: kernels::Runner checks and times, the references are the
// runner's (cuBLAS of the operand track; im2col + cuBLAS and, where the build has it, cuDNN for
// convolutions). `gemmlab bench` and the app's Run both make theirs here.
#pragma once
#include <memory>

#include "bench/bench_command.h"

namespace gemmlab::bench {

// Opens the GPU; throws kernels::GpuError (a std::runtime_error) naming why it cannot.
std::unique_ptr<Backend> make_gpu_backend(const TimeSettings& time);

}  // namespace gemmlab::bench
