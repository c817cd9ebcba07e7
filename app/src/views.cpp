#include "view.h"

namespace gemmlab::app {

// Tab order = FORMAT.md's table order = known_view_ids().
std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> v;
  v.push_back(make_thread_map_view());
  v.push_back(make_fragments_view());
  v.push_back(make_smem_banks_view());
  v.push_back(make_grid_l2_view());
  v.push_back(make_pipeline_view());
  v.push_back(make_kernels_view());
  v.push_back(make_measured_view());
  v.push_back(make_conv_view());
  v.push_back(make_gmma_layout_view());
  v.push_back(make_code_view());
  return v;
}

const char* view_title(const std::string& id) {
  static const auto titles = [] {
    std::vector<std::pair<std::string, const char*>> t;
    for (const auto& v : make_views()) t.emplace_back(v->id(), v->title());  // titles are literals
    return t;
  }();
  for (const auto& [vid, title] : titles)
    if (vid == id) return title;
  return "?";
}

}  // namespace gemmlab::app
