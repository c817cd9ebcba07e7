#include "views/view_spec.h"

namespace gemmlab::app {

const std::vector<const ViewSpec*>& view_specs() {
  static const std::vector<const ViewSpec*> specs = {
#define GEMMLAB_VIEW(id) &id##_view_spec(),
#include "views/views.def"
#undef GEMMLAB_VIEW
  };
  return specs;
}

const ViewSpec* view_spec(const std::string& id) {
  for (const ViewSpec* s : view_specs())
    if (s->id == id) return s;
  return nullptr;
}

}  // namespace gemmlab::app
