// `gemmlab lessons --check`'s part for exercises: every exercise folder of the course loads, its
// reference passes the host grading and its stub fails it (a stub that passes teaches nothing).
#pragma once
#include <vector>

#include "model/lesson_format.h"

namespace gemmlab::app {

std::vector<Diagnostic> check_exercises(const Course& course);

}  // namespace gemmlab::app
