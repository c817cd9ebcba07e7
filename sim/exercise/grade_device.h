// The GPU grading of an exercise: the stage's kernel built with the learner's function (NVRTC),
// checked against cuBLAS and timed in turns against the stage's own kernel. Where this build or
// machine cannot, `ran` is false and `reason` says why; the host grade then stands alone.
#pragma once
#include <string>
#include <utility>

#include "catalog.h"
#include "words.h"

namespace gemmlab::exercise {

struct DeviceGrade {
  bool ran = false;
  bool pass = false;
  std::string reason;         // English: the command line (--json) and the tests read it
  Words why;                  // `reason` as a template and its arguments (words.h), for the app
  double ratio_to_stage = 0;  // learner's speed / the stage's own (1.0 = as fast); valid when ran

  void say(Words w) {
    reason = w.text();
    why = std::move(w);
  }
};

DeviceGrade grade_on_device(const Exercise& exercise, const std::string& source);

}  // namespace gemmlab::exercise
