#include "registry.h"

#include <array>

namespace gemmlab::kernels {
namespace {

// In stages.def order, like kStageTable: entry i is the launch function of kStageTable[i].
StageLaunch (*const kLaunches[])() = {
#define GEMMLAB_STAGE(launch, ...) &launch,
#include "gemmlab/stages.def"
#undef GEMMLAB_STAGE
};
static_assert(std::size(kLaunches) == std::size(kStageTable));

const std::array<StageInfo, std::size(kStageTable)> kStages = [] {
  std::array<StageInfo, std::size(kStageTable)> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = StageInfo{kStageTable[i], kLaunches[i]};
  return out;
}();

}  // namespace

std::span<const StageInfo> stage_registry() { return kStages; }

const StageInfo* find_stage(std::string_view id) {
  for (const StageInfo& s : kStages)
    if (id == s.id) return &s;
  return nullptr;
}

}  // namespace gemmlab::kernels
