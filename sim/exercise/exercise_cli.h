// `gemmlab exercise`: list the course's exercises, or grade a file against one of them.
//   gemmlab exercise --list [--json] [--course DIR]
//   gemmlab exercise ID --solution FILE|reference|stub [--json] [--course DIR]
// Exit status: 0 when every grading that ran passed, 1 when one failed, 2 for a usage error.
#pragma once
#include <iosfwd>
#include <string>

namespace gemmlab::exercise {

int run_exercise_cli(int argc, char** argv, int first, std::ostream& out, std::ostream& err);
// The course folder used when --course is not given: $GEMMLAB_ROOT/lessons, else the source
// tree's lessons/ baked in at build time, else ./lessons.
std::string default_course_dir();

}  // namespace gemmlab::exercise
