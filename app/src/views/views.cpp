#include "view.h"

namespace gemmlab::app {

// Tab order = views/views.def = known_view_ids().
std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> v;
#define GEMMLAB_VIEW(id) v.push_back(make_##id##_view());
#include "views/views.def"
#undef GEMMLAB_VIEW
  return v;
}

}  // namespace gemmlab::app
