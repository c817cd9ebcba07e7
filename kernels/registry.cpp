#include "registry.h"

namespace gemmlab::kernels {

// Weak: a stage listed in stages.def whose .cu file does not exist yet links as a null pointer
// instead of failing the whole build (kernels/CMakeLists.txt links the stages whole-archive so
// that every stage that does exist is found).
#define GEMMLAB_STAGE(id, name, track, lesson, tm, tn, tk, threads, loads, launch) \
  __attribute__((weak)) StageLaunch launch();
#include "stages.def"
#undef GEMMLAB_STAGE

namespace {
const StageInfo kStages[] = {
#define GEMMLAB_STAGE(id, name, track, lesson, tm, tn, tk, threads, loads, launch) \
  {id, name, Track::track, lesson, tm, tn, tk, threads, #loads, &launch},
#include "stages.def"
#undef GEMMLAB_STAGE
};
}  // namespace

const char* track_name(Track t) { return t == Track::fp32 ? "fp32" : "fp16"; }

std::span<const StageInfo> stage_registry() { return kStages; }

const StageInfo* find_stage(std::string_view id) {
  for (const StageInfo& s : kStages)
    if (id == s.id) return &s;
  return nullptr;
}

}  // namespace gemmlab::kernels
