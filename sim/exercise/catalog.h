// Exercises as lesson data (lessons/FORMAT.md, "Exercises"): a folder
// lessons/<lesson>/exercises/<name>/ holding exercise.toml (grader, titles, goal, hints),
// task.en.md / task.zh.md, stub.cpp (where the learner starts) and reference.cpp (the solution,
// hidden until asked for). The id is "<lesson>/<name>", e.g. "09-swizzle/smem-offset".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::exercise {

struct ExerciseProblem {
  std::string file;
  int line = 0;
  std::string message;
  std::string text() const { return file + ":" + std::to_string(line) + ": " + message; }
};

struct Exercise {
  std::string id;       // "09-swizzle/smem-offset"
  std::string lesson;   // "09-swizzle"
  std::string dir;      // the exercise folder
  std::string grader;   // a grader kind (grader.h)
  std::string stage;    // the stage whose kernel the GPU grading builds ("" when none)
  std::string view;     // the view that draws the learner's version beside the stage's
  std::map<std::string, std::string> title, goal, task;  // by language ("en", "zh")
  std::map<std::string, std::vector<std::string>> hints;  // by language, revealed one at a time
  std::string stub, reference;  // file texts
  std::string stub_path, reference_path;
  // The language's text, else English.
  const std::string& text(const std::map<std::string, std::string>& m, const std::string& lang) const;
};

// One exercise folder. Problems (missing files, unknown grader, bad TOML) are appended to
// `problems` with the file and line; the exercise is returned only when it is usable.
Expected<Exercise> load_exercise(const std::string& course_dir, const std::string& lesson,
                                 const std::string& name, std::vector<ExerciseProblem>* problems = nullptr);

// Every exercise of a course folder: lessons/*/exercises/*/ in lesson order, then name order.
std::vector<Exercise> load_exercises(const std::string& course_dir, std::vector<ExerciseProblem>* problems = nullptr);

// The exercise `id` of the course, or a message listing the ids there are.
Expected<Exercise> find_exercise(const std::string& course_dir, const std::string& id);

}  // namespace gemmlab::exercise
