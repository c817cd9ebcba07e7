#include "replay_limit.h"

#include <atomic>

#include "gemmlab/l2_model.h"

namespace gemmlab::app {
namespace {
std::atomic<std::uint64_t> g_limit{kMaxL2Lookups};
}  // namespace

std::uint64_t l2_replay_limit() { return g_limit.load(); }
void set_l2_replay_limit(std::uint64_t lookups) { g_limit.store(lookups < kMaxL2Lookups ? lookups : kMaxL2Lookups); }

}  // namespace gemmlab::app
