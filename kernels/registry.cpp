#include "registry.h"

namespace gemmlab::kernels {
namespace {

// In stages.def order, like kStageTable: entry i pairs kStageTable[i] with its launch function.
const StageInfo kStages[] = {
#define GEMMLAB_STAGE(id, name, track, lesson, kernel, tm, tn, tk, threads, regs, smem, loads, raster, \
                      raster_param, partition, coresident, math, launch)                                     \
  {kStageTable[stage_index(id)], &launch},
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE
};
static_assert(std::size(kStages) == std::size(kStageTable));

}  // namespace

std::span<const StageInfo> stage_registry() { return kStages; }

const StageInfo* find_stage(std::string_view id) {
  for (const StageInfo& s : kStages)
    if (id == s.id) return &s;
  return nullptr;
}

}  // namespace gemmlab::kernels
