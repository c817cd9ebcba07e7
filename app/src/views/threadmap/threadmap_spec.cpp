// The threadmap view's settings, predict facts and rules (views/view_spec.h); drawn by threadmap_view.cpp.
#include "views/setting_checks.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& threadmap_view_spec() {
  static const ViewSpec spec = {
      "threadmap",
      "Thread map",
      {{"map", one_of({"stripmined", "warp-raked", "warp-striped"})},
        {"shape", int_tuple(2, 1, 4096, "[C, S]")},
        {"threads", integer(1, 4096)},
        {"access", integer(1, 64)},
        {"warp_arrangement", int_tuple(2, 1, 32, "[c, s]")},
        {"highlight_thread", integer(-1, 4095)},
        {"highlight_warp", integer(-1, 127)},
        {"iteration", integer(-1, 1 << 20)},
        {"color_by", one_of({"thread", "warp"})}},
      {
          {"threadmap.iterations", "Iterations (c, s)"},
          {"threadmap.delta", "Delta (c, s)"},
          {"threadmap.picture", "which thread copies which element, and the access stepper"},
      },
      {
          {"threadmap.iterations_c", "the tile, the thread count and the access width",
       {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
          {"threadmap.iterations_s", "the tile, the thread count and the access width",
       {"threadmap.iterations"}, {"threadmap.delta", "threadmap.picture"}},
          {"threadmap.delta_c", "the tile, the thread count and the access width",
       {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
          {"threadmap.delta_s", "the tile, the thread count and the access width",
       {"threadmap.delta"}, {"threadmap.iterations", "threadmap.picture"}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
