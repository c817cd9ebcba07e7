// The exercise step of a lesson ([step.exercise] in lesson.toml, lessons/FORMAT.md): the task,
// a code cell the learner edits (kept per course beside the config, exercise_store.h), Check
// (the host grading of sim/exercise on a worker thread, so the window never waits on the
// compiler), the verdict, hints one at a time, and the reference solution on request.
#pragma once
#include <string>

namespace gemmlab::app {

class App;

// Draws the exercise `id` of the open course inside the lesson panel's text area.
void draw_exercise_step(App& app, const std::string& id);

}  // namespace gemmlab::app
