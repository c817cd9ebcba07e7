#include "exercise/exercise_check.h"

#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::app {

std::vector<Diagnostic> check_exercises(const Course& course) {
  std::vector<Diagnostic> out;
  std::vector<exercise::ExerciseProblem> problems;
  const auto all = exercise::load_exercises(course.dir, &problems);
  for (const auto& p : problems) out.push_back({p.file, p.line, p.message});
  for (const auto& ex : all) {
    const exercise::Grader* grader = exercise::find_grader(ex.grader);
    if (!grader) continue;
    exercise::HostGradeOptions options;
    options.display_name = "reference.cpp";
    const auto ref = exercise::grade_on_host(*grader, ex.reference, options);
    if (ref.stage == exercise::HostGrade::Stage::NoCompiler) {
      out.push_back({ex.reference_path, 0, "cannot grade the reference: " + ref.verdict.reason});
      continue;
    }
    if (!ref.verdict.pass)
      out.push_back({ex.reference_path, ref.error_line, "the reference solution fails its grader: " + ref.verdict.reason});
    options.display_name = "stub.cpp";
    const auto stub = exercise::grade_on_host(*grader, ex.stub, options);
    if (stub.verdict.pass)
      out.push_back({ex.stub_path, 0, "the stub passes its grader: a learner would have nothing to do"});
    else if (stub.stage == exercise::HostGrade::Stage::Compile)
      out.push_back({ex.stub_path, stub.error_line, "the stub does not compile: " + stub.verdict.reason});
  }
  return out;
}

}  // namespace gemmlab::app
