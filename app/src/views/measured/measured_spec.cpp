// The measured view's settings, predict facts and rules (views/view_spec.h); drawn by measured_view.cpp.
#include "views/setting_checks.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& measured_view_spec() {
  static const ViewSpec spec = {
      "measured",
      "Measured",
      {{"csv", string_value("a path of an ncu CSV file under assets/")}},
      {
      },
      {
      },
  };
  return spec;
}

}  // namespace gemmlab::app
