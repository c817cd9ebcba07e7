// The stage registry: the simulator's stage table (gemmlab/stage_desc.h, from stages.def) with
// each stage's launch functions. `gemmlab bench`, the GPU tests and `gemmlab bench --list --json`
// read it. Every stage listed in stages.def links to its launch function: a stage without its .cu
// file, or a misspelt launch name, is a link error, not a run-time "not built".
#pragma once
#include <span>
#include <string_view>

#include "gemmlab/stage_desc.h"
#include "stage_api.h"

namespace gemmlab::kernels {

using Track = StageTrack;
using gemmlab::track_name;

struct StageInfo : StageDesc {
  StageLaunch (*get)();
};

std::span<const StageInfo> stage_registry();
const StageInfo* find_stage(std::string_view id);  // nullptr when no stage has this id

}  // namespace gemmlab::kernels
