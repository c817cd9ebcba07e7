// The gmma view's settings, predict facts and rules (views/view_spec.h); drawn by gmma_view.cpp.
#include "views/setting_checks.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& gmma_view_spec() {
  static const ViewSpec spec = {
      "gmma",
      "TMA / GMMA",
      {{"swizzle", one_of({"none", "32B", "64B", "128B"})},
        {"major", one_of({"K", "MN"})},
        {"shape", int_tuple(2, 1, 1024, "[rows, K]")},
        {"element_bits", element_bits_8_16_32()},
        {"k_step", integer(0, 64)},
        {"operand_rows", integer(8, 256)},
        {"select", int_tuple(2, -1, 1024, "[row, col]")},
        {"global", int_tuple(2, 1, 1 << 30, "[inner, outer] extent of the operand")},
        {"start", int_tuple(2, -(1 << 30), 1 << 30, "[inner, outer] start of the box")}},
      {
          {"gmma.element_place", "the asked element's 16-byte chunk and its 128-byte line"},
          {"gmma.stride", "the descriptor's stride byte offset"},
      },
      {
          {"gmma.offset", "the element, the core-matrix layout and the swizzle",
       {"gmma.element_place"}, {}},
          {"gmma.stride_bytes", "the layout of the core matrices in shared memory",
       {"gmma.stride"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
