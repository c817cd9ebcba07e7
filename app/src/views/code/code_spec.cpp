// The code view's settings, predict facts and rules (views/view_spec.h); drawn by code_view.cpp.
#include "views/setting_checks.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

using namespace checks;

namespace {

std::vector<std::string> all_stage_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table()) ids.push_back(s.id);
  return ids;
}

}  // namespace

const ViewSpec& code_view_spec() {
  static const ViewSpec spec = {
      "code",
      "Code",
      {{"stage", one_of(all_stage_ids())},
        {"file", string_value("a file name of the stage's sources (e.g. \"ldmatrix_fragments.cuh\")")},
        {"lines", int_tuple(2, 1, 100000, "[first, last] line of `file` (default: the stage's .cu file)")}},
      {
      },
      {
      },
  };
  return spec;
}

}  // namespace gemmlab::app
