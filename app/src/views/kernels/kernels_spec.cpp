// The kernels view's settings, predict facts and rules (views/view_spec.h); drawn by kernels_view.cpp.
#include "model/json_text.h"
#include "views/setting_checks.h"

#include <algorithm>

#include "gemmlab/raster_analysis.h"  // kMaxProblemExtent
#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

using namespace checks;

namespace {

// The stages and references the Kernels view can list.
SettingCheck stage_list() {
  return [](const Json& v) -> std::optional<std::string> {
    std::vector<std::string> ids;
    for (const StageDesc& s : stage_table()) ids.push_back(s.id);
    for (const ReferenceDesc& r : kReferenceTable) ids.push_back(r.id);
    if (!v.is_array()) return "must be a list of stage ids: " + quoted_list(ids);
    for (const auto& x : v)
      if (!x.is_string() || std::find(ids.begin(), ids.end(), x.get<std::string>()) == ids.end())
        return "has " + json_text(x) + ", which is not a stage; stages are " + quoted_list(ids);
    return std::nullopt;
  };
}

}  // namespace

const ViewSpec& kernels_view_spec() {
  static const ViewSpec spec = {
      "kernels",
      "Kernels",
      {{"stages", stage_list()},
        {"size", int_tuple(3, 1, gemmlab::kMaxProblemExtent, "[M, N, K]")},
        {"conv", int_tuple(10, 0, 1 << 20, "[N, H, W, C, K, R, S, pad, stride, dilation]")},
        {"device", one_of({"h100", "h200", "a100", "rtx4090"})},
        {"sweep", boolean()}},
      {
      },
      {
      },
  };
  return spec;
}

}  // namespace gemmlab::app
