// One numbering: a stage is named by the number of the lesson that teaches it, with a letter when
// one lesson teaches several (registry order): "9 smem-swizzle", "13b stream-k". The registry's
// lesson column (sim/device/gemmlab/stages.def) is the only source.
#pragma once
#include <string>
#include <vector>

namespace gemmlab::app {

// "<number> <id>"; the id alone for a stage without a lesson (or an id the registry lacks).
std::string stage_label(const std::string& id);

// The stages lesson `lesson_id` teaches, in registry order.
std::vector<std::string> stages_taught_by(const std::string& lesson_id);

}  // namespace gemmlab::app
