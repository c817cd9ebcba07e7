// What `gemmlab lessons --check` adds to the format check: every step's settings applied to the
// views the app would show them in. A step whose view cannot compute what it is asked to show
// (a GMMA tile that does not divide into atoms, a pipeline that would need more k-tiles than the
// simulator allows, ...) or whose predict answer cannot be computed is an error, named by file
// and line, so that what the checker accepts is what the app renders.
#pragma once
#include <vector>

#include "model/lesson_format.h"
#include "view.h"

namespace gemmlab::app {

// Each predict step's answer as the simulator computes it for the step's settings (lessons --answers).
struct PredictAnswer {
  std::string lesson;
  int step = 0;  // 1-based
  std::string quantity;
  Expected<double> answer = Error{"not computed"};
};

// Predict answers are computed within an overall budget (an L2 replay takes seconds; a course may
// ask for many): past it, the remaining predict steps are named as not checked.
constexpr int kPredictCheckSeconds = 60;
// answers (optional): every predict step's answer, in course order.
std::vector<Diagnostic> check_steps_render(const Course& course, const AppPaths& paths,
                                           std::vector<PredictAnswer>* answers = nullptr,
                                           int predict_budget_seconds = kPredictCheckSeconds);

}  // namespace gemmlab::app
