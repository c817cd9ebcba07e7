#include "mbarrier_ring.h"

#include <vector>

namespace gemmlab::exercise {
namespace {

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
  std::string problem;

  static bool passes(int parity, int phase) { return parity < 0 || parity != (phase & 1); }
  std::string stage_words(int s) const { return "stage " + std::to_string(s); }

  bool producer_step() {
    if (produced >= k_tiles) return false;
    const int k = produced, s = k % stages;
    if (!passes(empty_parity(k), empty_phase[s])) return false;
    const int previous = k - stages;
    if (previous >= 0 && !released[static_cast<size_t>(previous)]) {
      problem = "race: the producer's wait on empty[" + std::to_string(s) + "] for parity " +
                std::to_string(empty_parity(k)) + " passes before k-tile " + std::to_string(previous) +
                " was given back, so k-tile " + std::to_string(k) + "'s TMA overwrites " + stage_words(s) +
                " while the consumer may still read it";
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
      problem = "the consumer must wait on full[" + std::to_string(s) + "] before reading k-tile " + std::to_string(k) +
                " (full_parity returned " + std::to_string(parity) + ")";
      return false;
    }
    if (!passes(parity, full_phase[s])) return false;
    if (holds[s] != k) {
      problem = "race: the consumer's wait on full[" + std::to_string(s) + "] for parity " + std::to_string(parity) +
                " passes before k-tile " + std::to_string(k) + "'s TMA has landed, so it reads " + stage_words(s) +
                (in_flight[s] == k ? " while the TMA is still writing it"
                 : holds[s] < 0    ? " before anything was written there"
                                   : " holding k-tile " + std::to_string(holds[s]));
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
      if (!problem.empty()) return {false, problem};
      if (moved) continue;
      const int pk = produced, ck = consumed;
      std::string p = pk < k_tiles ? "the producer waits on empty[" + std::to_string(pk % stages) + "] for parity " +
                                         std::to_string(empty_parity(pk)) + " before k-tile " + std::to_string(pk)
                                   : "the producer is done";
      return {false, "deadlock: " + p + " and the consumer waits on full[" + std::to_string(ck % stages) +
                         "] for parity " + std::to_string(full_parity(ck)) + " before k-tile " + std::to_string(ck) +
                         "; neither phase can complete"};
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
