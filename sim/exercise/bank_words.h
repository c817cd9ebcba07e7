// Bank conflicts said in the learner's terms: which two lanes of which phase ask one bank for
// two different words, from the bank model's analysis (gemmlab/banks.h).
#pragma once
#include <string>
#include <vector>

#include "gemmlab/banks.h"

namespace gemmlab::exercise {

struct BankClash {
  int phase = -1;           // -1: no phase costs more than one wavefront
  int lane_a = -1, lane_b = -1;
  std::vector<int> lanes;   // one lane per distinct word the bank is asked for (lane_a, lane_b, ...)
  int bank = -1;
  int wavefronts = 0;       // of that phase
};

// The first phase with more than one wavefront, and two of its lanes that collide in a bank.
BankClash first_bank_clash(const BankAnalysis& a);

}  // namespace gemmlab::exercise
