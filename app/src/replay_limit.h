// The largest L2 replay a view starts, in look-ups (gemmlab::kMaxL2Lookups unless lowered). A
// larger launch shows "L2 not replayed" with the limit named. The render fuzz target lowers it: it
// fuzzes what is drawn, and a seconds-long replay per input would leave it a few inputs a minute
// (the replay has its own tests and limits).
#pragma once
#include <cstdint>

namespace gemmlab::app {

std::uint64_t l2_replay_limit();
void set_l2_replay_limit(std::uint64_t lookups);

}  // namespace gemmlab::app
