#include "model/stage_labels.h"

#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

std::string stage_label(const std::string& id) {
  const StageDesc* d = find_stage_desc(id);
  if (!d || !d->lesson || !*d->lesson) return id;
  const std::string lesson = d->lesson;
  size_t digits = 0;
  while (digits < lesson.size() && lesson[digits] >= '0' && lesson[digits] <= '9') ++digits;
  if (digits == 0) return id;
  int same = 0, index = 0;
  for (const StageDesc& s : stage_table()) {
    if (!s.lesson || lesson != s.lesson) continue;
    if (std::string(s.id) == id) index = same;
    ++same;
  }
  std::string number = std::to_string(std::stoi(lesson.substr(0, digits)));
  if (same > 1) number += static_cast<char>('a' + index);
  return number + " " + id;
}

std::vector<std::string> stages_taught_by(const std::string& lesson_id) {
  std::vector<std::string> out;
  for (const StageDesc& s : stage_table())
    if (s.lesson && lesson_id == s.lesson) out.push_back(s.id);
  return out;
}

}  // namespace gemmlab::app
