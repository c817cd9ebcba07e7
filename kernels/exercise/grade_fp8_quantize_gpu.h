// Exercise 20-fp8/quantize graded on the GPU (the harness row "fp8-quantize" of grade_device_gpu.cpp).
#pragma once
#include <string>

#include "catalog.h"
#include "grade_device.h"
#include "runner.h"

namespace gemmlab::exercise {

// NVRTC builds fp8_quantize_harness.cuh with the learner's file (for this GPU's architecture: the
// quantization is plain CUDA) and runs it over a 2048 x 7168 activation, one thread per 1 x 128
// block; every scale and code is compared with the simulator's quantizer, the first difference
// named; a correct one is timed in turns with the same kernel built with the exercise's solution.
void grade_fp8_quantize_on_device(kernels::Runner& runner, const Exercise& exercise, const std::string& source,
                                  DeviceGrade& d);

}  // namespace gemmlab::exercise
