// Where the learner's exercise code is kept between runs: beside the config file
// (model/config.h), one file per course and exercise:
//   ~/.config/gemmlab/exercises/<course>/<lesson>/<name>.cpp
// <course> is "shipped" for the course of this GEMM Lab, else the course folder's path with
// '/' as '_'. Nothing is lost when the app closes or the lesson changes.
#pragma once
#include <optional>
#include <string>

namespace gemmlab::app {

std::string exercise_code_path(const std::string& course_dir, const std::string& exercise_id);
// The saved code, or nothing when none was saved (the learner starts from the stub).
std::optional<std::string> load_exercise_code(const std::string& course_dir, const std::string& exercise_id);
// "" on success, else the problem (the panel shows it; the code stays in the editor).
std::string save_exercise_code(const std::string& course_dir, const std::string& exercise_id, const std::string& code);

}  // namespace gemmlab::app
