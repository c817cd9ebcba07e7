// The mbarrier ring of the warp-specialized stages as a protocol, run with anyone's wait
// parities: a producer fills stage s = k % S with k-tile k (after waiting on empty[s]), its TMA
// lands later and completes a phase of full[s]; a consumer waits on full[s], reads the stage and
// arrives on empty[s]. A wait on parity P passes when the barrier's current phase has parity
// != P (PTX mbarrier.try_wait.parity: the phase with parity P has completed), so a fresh barrier
// lets parity 1 through and holds parity 0.
// Each plan runs under two schedules: the consumer as eager as it can be with the TMA landing as
// late as it can (a wait that passes too early reads a stage before its data is there), and the
// producer eager with the TMA landing at once (a wait that passes too early overwrites a stage
// the consumer has not given back). Either one stuck is a deadlock.
#pragma once
#include <functional>
#include <string>

#include "words.h"

namespace gemmlab::exercise {

struct RingOutcome {
  bool ok = true;
  std::string problem;  // the first race or the deadlock, in English; empty when ok
  Words words;          // the same, to be translated (words.h)
  enum class Kind { None, Race, Deadlock } kind = Kind::None;
  int k_tile = -1;      // the k-tile the ring stops at: the one read too early, overwritten, or waited for
};

// full_parity(k) / empty_parity(k): the parity the consumer waits for on full[k % S] before
// reading k-tile k / the producer on empty[k % S] before filling it (-1: no wait).
RingOutcome run_mbarrier_ring(int stages, int k_tiles, const std::function<int(int)>& full_parity,
                              const std::function<int(int)>& empty_parity);

}  // namespace gemmlab::exercise
