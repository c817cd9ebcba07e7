#include "mbarrier_ring.h"

#include <vector>

namespace gemmlab::exercise {
namespace {

RingOutcome outcome(RingOutcome::Kind kind, Words w, int k) {
  RingOutcome o;
  o.ok = false;
  o.problem = w.text();
  o.words = std::move(w);
  o.kind = kind;
  o.k_tile = k;
  return o;
}

struct Ring {
  int stages, k_tiles;
  const std::function<int(int)>& full_parity;
  const std::function<int(int)>& empty_parity;
  bool consumer_first;
  std::vector<int> full_phase, empty_phase;  // completed phases per stage
  std::vector<int> holds;                    // k-tile whose data the stage holds (-1: none)
  std::vector<int> in_flight;                // k-tile whose TMA is writing the stage (-1: none)
  std::vector<bool> released;                // per k-tile: the consumer gave its stage back
  int produced = 0, consumed = 0;
  Words problem;  // empty while no race was seen
  int problem_k = -1;

  static bool passes(int parity, int phase) { return parity < 0 || parity != (phase & 1); }
  void race(Words w, int k) {
    problem = std::move(w);
    problem_k = k;
  }

  bool producer_step() {
    if (produced >= k_tiles) return false;
    const int k = produced, s = k % stages;
    if (!passes(empty_parity(k), empty_phase[s])) return false;
    const int previous = k - stages;
    if (previous >= 0 && !released[static_cast<size_t>(previous)]) {
      race(words("race: the producer's wait on empty[%s] for parity %s passes before k-tile %s was given back, so "
                 "k-tile %s's TMA overwrites stage %s while the consumer may still read it",
                 s, empty_parity(k), previous, k, s), k);
      return false;
    }
    in_flight[s] = k;
    ++produced;
    return true;
  }
  // The oldest TMA in flight lands (they complete in issue order).
  bool land_one() {
    int oldest = -1;
    for (int s = 0; s < stages; ++s)
      if (in_flight[s] >= 0 && (oldest < 0 || in_flight[s] < in_flight[oldest])) oldest = s;
    if (oldest < 0) return false;
    holds[oldest] = in_flight[oldest];
    in_flight[oldest] = -1;
    ++full_phase[oldest];
    return true;
  }
  bool consumer_step() {
    if (consumed >= k_tiles) return false;
    const int k = consumed, s = k % stages;
    const int parity = full_parity(k);
    if (parity < 0) {
      race(words("the consumer must wait on full[%s] before reading k-tile %s (full_parity returned %s)", s, k, parity), k);
      return false;
    }
    if (!passes(parity, full_phase[s])) return false;
    if (holds[s] != k) {
      if (in_flight[s] == k)
        race(words("race: the consumer's wait on full[%s] for parity %s passes before k-tile %s's TMA has landed, so it "
                   "reads stage %s while the TMA is still writing it", s, parity, k, s), k);
      else if (holds[s] < 0)
        race(words("race: the consumer's wait on full[%s] for parity %s passes before k-tile %s's TMA has landed, so it "
                   "reads stage %s before anything was written there", s, parity, k, s), k);
      else
        race(words("race: the consumer's wait on full[%s] for parity %s passes before k-tile %s's TMA has landed, so it "
                   "reads stage %s holding k-tile %s", s, parity, k, s, holds[s]), k);
      return false;
    }
    holds[s] = -1;
    released[static_cast<size_t>(k)] = true;
    ++empty_phase[s];
    ++consumed;
    return true;
  }
  RingOutcome run() {
    full_phase.assign(static_cast<size_t>(stages), 0);
    empty_phase.assign(static_cast<size_t>(stages), 0);
    holds.assign(static_cast<size_t>(stages), -1);
    in_flight.assign(static_cast<size_t>(stages), -1);
    released.assign(static_cast<size_t>(k_tiles), false);
    while (consumed < k_tiles) {
      bool moved;
      if (consumer_first) moved = consumer_step() || producer_step() || land_one();
      else moved = producer_step() || land_one() || consumer_step();
      if (!problem.empty()) return outcome(RingOutcome::Kind::Race, std::move(problem), problem_k);
      if (moved) continue;
      const int pk = produced, ck = consumed;
      const Words p = pk < k_tiles ? words("the producer waits on empty[%s] for parity %s before k-tile %s", pk % stages,
                                           empty_parity(pk), pk)
                                   : words("the producer is done");
      // The consumer's k-tile: the producer is stuck on it (ck == pk) or the consumer waits on a wrong phase.
      return outcome(RingOutcome::Kind::Deadlock,
                     words("deadlock: %s and the consumer waits on full[%s] for parity %s before k-tile %s; neither "
                           "phase can complete", p, ck % stages, full_parity(ck), ck),
                     ck);
    }
    return {};
  }
};

}  // namespace

RingOutcome run_mbarrier_ring(int stages, int k_tiles, const std::function<int(int)>& full_parity,
                              const std::function<int(int)>& empty_parity) {
  for (bool consumer_first : {true, false}) {
    Ring r{stages, k_tiles, full_parity, empty_parity, consumer_first, {}, {}, {}, {}, {}, 0, 0, {}};
    RingOutcome o = r.run();
    if (!o.ok) return o;
  }
  return {};
}

}  // namespace gemmlab::exercise
