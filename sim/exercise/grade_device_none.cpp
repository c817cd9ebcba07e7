// GPU grading is not part of this version: no build rebuilds a stage's kernel with the learner's
// function yet. The verdict says so, and the host grade stands alone.
#include "grade_device.h"

namespace gemmlab::exercise {

DeviceGrade grade_on_device(const Exercise& exercise, const std::string&) {
  DeviceGrade d;
  const Words kernel = exercise.stage.empty() ? words("a stage's kernel") : words("stage `%s`'s kernel", exercise.stage);
  d.say(words("not graded on a GPU: this version of GEMM Lab does not yet rebuild %s with your function, so the host "
              "grade stands alone",
              kernel));
  return d;
}

}  // namespace gemmlab::exercise
