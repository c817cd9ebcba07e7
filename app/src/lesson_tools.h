// What `gemmlab lessons` does for lesson authors, apart from its option parsing (gui_main.cpp):
//   check_course     --check: the format, every step rendered, the text rules, the placeholders
//   print_answers    --answers: each predict step's computed answer, as text or JSON
//   new_lesson       --new ID: a scaffold lesson that passes --check, added to course.toml
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "model/lesson_format.h"
#include "view.h"

namespace gemmlab::app {

std::vector<Diagnostic> check_course(const Course& course, const AppPaths& paths);

// Returns the exit code: 0, or 1 when a lesson has problems or an answer cannot be computed.
int print_answers(const Course& course, const AppPaths& paths, bool json, std::ostream& out,
                  std::ostream& err);

// Creates <course>/<id>/ (lesson.toml, en.md, zh.md, en.notes.md) and appends id to the course's
// lessons list (creating course.toml when the folder has none). Refuses an id that is not a
// folder name of [a-z0-9-] or that exists. Exit code 0, or 1 with the reason on err.
int new_lesson(const AppPaths& paths, const std::string& id, std::ostream& out, std::ostream& err);

}  // namespace gemmlab::app
