#include "model/stage_labels.h"

#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

std::string stage_label(const std::string& id) {
  const StageDesc* d = find_stage_desc(id);
  if (!d || !*d->number) return id;
  return std::string(d->number) + " " + id;
}

std::vector<std::string> stages_taught_by(const std::string& lesson_id) {
  std::vector<std::string> out;
  for (const StageDesc& s : stage_table())
    if (s.lesson && lesson_id == s.lesson) out.push_back(s.id);
  return out;
}

}  // namespace gemmlab::app
