#include "model/settings_schema.h"
#include "view.h"

namespace gemmlab::app {

std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> v;
  v.push_back(make_thread_map_view());
  return v;
}

}  // namespace gemmlab::app
