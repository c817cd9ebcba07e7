#include "bank_words.h"

#include <algorithm>

namespace gemmlab::exercise {

BankClash first_bank_clash(const BankAnalysis& a) {
  BankClash c;
  for (int p = 0; p < a.phase_count; ++p) {
    const BankPhase& ph = a.phases[static_cast<size_t>(p)];
    if (ph.wavefronts <= 1) continue;
    c.phase = p;
    c.wavefronts = ph.wavefronts;
    // The bank asked for the most words, then the first two lanes that ask it different words.
    int bank = 0;
    for (int b = 1; b < kSmemBanks; ++b)
      if (ph.words_in_bank[static_cast<size_t>(b)] > ph.words_in_bank[static_cast<size_t>(bank)]) bank = b;
    c.bank = bank;
    std::vector<long long> words;
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      const LaneAccess& l = a.lanes[static_cast<size_t>(lane)];
      if (!l.active || l.phase != p) continue;
      for (int w = 0; w < a.words_per_lane; ++w) {
        const long long word = l.word() + w;
        if (word % kSmemBanks != bank) continue;
        if (std::find(words.begin(), words.end(), word) == words.end()) {
          words.push_back(word);
          c.lanes.push_back(lane);
        }
        break;
      }
    }
    c.lane_a = c.lanes.size() > 0 ? c.lanes[0] : -1;
    c.lane_b = c.lanes.size() > 1 ? c.lanes[1] : -1;
    return c;
  }
  return c;
}

}  // namespace gemmlab::exercise
