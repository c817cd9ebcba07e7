// The banks view's settings, predict facts and rules (views/view_spec.h); drawn by banks_view.cpp.
#include "views/setting_checks.h"
#include "gemmlab/bank_scenario.h"

namespace gemmlab::app {

using namespace checks;

const ViewSpec& banks_view_spec() {
  static const ViewSpec spec = {
      "banks",
      "Smem banks",
      {{"op", parsed_by([](const std::string& x) { return parse_smem_op(x); })},
        {"layout", parsed_by([](const std::string& x) { return parse_smem_layout(x); })},
        {"tile", int_tuple(2, 1, 4096, "[rows, cols]")},
        {"element_bits", element_bits_8_16_32()},
        {"pad_bytes", integer(0, 1024)},
        {"swizzle", swizzle_params()},
        {"pattern", parsed_by([](const std::string& x) { return parse_bank_pattern(x); })},
        {"origin", int_tuple(2, 0, 4095, "[row, col]")},
        {"compare", boolean()},
        {"phase", integer(-1, 31)},              // the phase shown (-1: every phase)
        {"show", one_of({"banks", "tile"})}},
      {
          {"banks.counts", "wavefronts, conflicts, words per bank, the phases and their outlines"},
          {"banks.lanes", "which lane's word lands in which bank"},
      },
      {
          {"banks.wavefronts", "the instruction's lane addresses and the layout's bank of each address",
       {"banks.counts"}, {"banks.lanes"}},
          {"banks.conflicts", "the instruction's lane addresses and the layout's bank of each address",
       {"banks.counts"}, {"banks.lanes"}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
