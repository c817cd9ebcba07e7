// What a grader is: the function the learner's file must define, the domain it is evaluated on
// (a small driver compiled with the learner's file walks it and prints one line per point), and
// the rules the resulting table must satisfy, checked with the simulator's own models. One
// grader per kind of exercise (grader_*.cpp); an exercise folder names its grader by kind.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "words.h"

namespace gemmlab::exercise {

// The verdict of the host grading: the first rule broken, in the learner's terms, or a pass.
// `reason` and `passed` are English (the command line, the tests); `why` and `held` are the same
// sentences as templates and arguments (words.h) for the app to show in the learner's language.
// Set them together with say() and hold().
struct HostVerdict {
  bool pass = false;
  std::string reason;               // one sentence: the first thing wrong, or what the pass means
  std::vector<std::string> passed;  // the rules that held, in order, before the first broken one
  Words why;                        // `reason`; empty where only English was written
  std::vector<Words> held;          // `passed`, one for one

  void say(Words w) {
    reason = w.text();
    why = std::move(w);
  }
  void hold(Words w) {
    passed.push_back(w.text());
    held.push_back(std::move(w));
  }
};

// The learner's table: `values_per_point` numbers per point of the domain, point-major.
struct ValueTable {
  long long points = 0;
  int values_per_point = 1;
  std::vector<long long> values;
  long long at(long long point, int i = 0) const {
    return values[static_cast<size_t>(point * values_per_point + i)];
  }
};

struct Grader {
  std::string kind;         // "smem-offset": what exercise.toml's `grader` names
  std::string signature;    // what the learner's file defines, as they would write it
  std::string declarations; // put before the learner's file (prototypes: a wrong signature fails to link)
  // main()'s body after the learner's file: walks the domain, calls `emit(...)` once per point
  // with values_per_point numbers (the driver prelude defines emit and the fd-3 channel).
  std::string driver_body;
  long long points = 0;
  int values_per_point = 1;
  std::function<std::string(long long point)> describe_point;  // "smem_offset(3, 17)"
  std::function<HostVerdict(const ValueTable&)> evaluate;
};

// Every grader, by kind; nullptr for an unknown kind.
const Grader* find_grader(const std::string& kind);
std::vector<std::string> grader_kinds();

// The graders (one file each), registered by find_grader.
Grader make_smem_offset_grader();
Grader make_coalesced_map_grader();
Grader make_block_order_grader();
Grader make_im2col_grader();
Grader make_tma_box_grader();
Grader make_mbarrier_parity_grader();
Grader make_fp8_quantize_grader();

}  // namespace gemmlab::exercise
