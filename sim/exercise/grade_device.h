// The GPU grading of an exercise: the stage's kernel built with the learner's function (NVRTC),
// checked against cuBLAS and timed in turns against the stage's own kernel. Where this build or
// machine cannot, `ran` is false and `reason` says why; the host grade then stands alone.
#pragma once
#include <string>

#include "catalog.h"

namespace gemmlab::exercise {

struct DeviceGrade {
  bool ran = false;
  bool pass = false;
  std::string reason;
  double ratio_to_stage = 0;  // learner's speed / the stage's own (1.0 = as fast); valid when ran
};

DeviceGrade grade_on_device(const Exercise& exercise, const std::string& source);

}  // namespace gemmlab::exercise
