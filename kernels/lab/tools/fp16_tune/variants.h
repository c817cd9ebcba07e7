// Tuning variants of the FP16 stages (tile k, pipeline depth, serpentine stride), registered as
// StageInfo so the runner checks and times them exactly as it does the real stages. A developer
// tool for choosing the stages' parameters (kernels/lab/FP16_NOTES.md records the outcome);
// built with -DGEMMLAB_GPU_PROBES=ON (target fp16_tune) by kernels/lab/tools/fp16_session.sh.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "registry.h"

namespace fp16_tune {

using gemmlab::kernels::StageInfo;

// The base stage's description (the id before '/', e.g. "epilogue" for "epilogue/sw2") with the
// variant's own id, name, tile and threads, and its launch functions.
inline StageInfo variant(const char* id, const char* name, int tm, int tn, int tk, int threads,
                         gemmlab::kernels::StageLaunch (*get)()) {
  const std::string base = std::string(id).substr(0, std::string(id).find('/'));
  StageInfo s{*gemmlab::find_stage_desc(base), get};
  s.id = id, s.short_name = name, s.lesson = "";
  std::snprintf(s.name, sizeof s.name, "%s", name);
  s.tile_m = tm, s.tile_n = tn, s.tile_k = tk, s.threads = threads;
  return s;
}

std::vector<StageInfo> sync_variants();        // stages 8-10 with other tile k
std::vector<StageInfo> multistage_variants();  // stage 11 shapes
std::vector<StageInfo> epilogue_variants();    // stage 12 shapes and serpentine strides
// CUTLASS 2.x sm80 kernels, the peer of stage 12 (variants_cutlass.cu; only in a build given
// -DGEMMLAB_CUTLASS_DIR, GEMMLAB_HAVE_CUTLASS defined).
std::vector<StageInfo> cutlass_variants();
// CUTLASS 3.x sm90 kernels, the peer of stage 17 (variants_cutlass3.cu; the same build).
std::vector<StageInfo> cutlass3_variants();

}  // namespace fp16_tune
