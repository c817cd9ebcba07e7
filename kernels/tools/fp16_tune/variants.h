// Tuning variants of the FP16 stages (tile k, pipeline depth, serpentine stride), registered as
// StageInfo so the runner checks and times them exactly as it does the real stages. A developer
// tool for choosing the stages' parameters (kernels/stages/fp16/FP16_NOTES.md records the outcome);
// built by kernels/tools/fp16_session.sh on the GPU machine, not by CMake.
#pragma once
#include <vector>

#include "registry.h"

namespace fp16_tune {

using gemmlab::kernels::StageInfo;

std::vector<StageInfo> sync_variants();        // stages 8-10 with other tile k
std::vector<StageInfo> multistage_variants();  // stage 11 shapes
std::vector<StageInfo> epilogue_variants();    // stage 12 shapes and serpentine strides

}  // namespace fp16_tune
