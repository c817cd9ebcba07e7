// The fragments view's settings, predict facts and rules (views/view_spec.h); drawn by fragments_view.cpp.
#include "views/setting_checks.h"
#include "gemmlab/fragment_analysis.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& fragments_view_spec() {
  static const ViewSpec spec = {
      "fragments",
      "Fragments",
      {{"op", parsed_by([](const std::string& x) { return parse_fragment_op(x); })},
       {"operand", one_of({"a", "b", "c"})},
       {"highlight_lane", integer(-1, 127)}},  // wgmma: a thread of the warpgroup
      {
          {"fragments.owners", "which lane holds which element (labels, colours, the highlighted lane, addresses)"},
      },
      {
          {"fragments.lane_of_element", "the instruction's fragment rule (PTX ISA) and the element",
       {"fragments.owners"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
