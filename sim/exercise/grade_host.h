// The host grading of one learner file: compile it with the C++ compiler that built GEMM Lab
// together with the grader's driver, run the driver in the sandbox, read its table back and
// let the grader judge it. Every failure on the way is a verdict with a message, never a throw.
#pragma once
#include <string>

#include "grader.h"
#include "sandbox.h"

namespace gemmlab::exercise {

struct HostGradeOptions {
  std::string display_name = "solution.cpp";  // how compiler messages name the learner's file
  SandboxLimits compile_limits{60, 90, 2048ll << 20, 64 << 10, 1 << 10, 64ll << 20};
  SandboxLimits run_limits{};                 // 2 s CPU, 5 s wall, 512 MB
  std::string compiler;                       // empty: compiler_path()
};

struct HostGrade {
  HostVerdict verdict;
  enum class Stage { NoCompiler, Compile, Run, Evaluate } stage = Stage::NoCompiler;
  std::string compiler_output;  // compile errors, paths rewritten to display_name
  int error_line = 0;           // the learner's line of the first compile error (0: none)
  std::string program_output;   // what the learner's code printed (capped)
  ValueTable table;             // the learner's values (complete only when stage == Evaluate)
  double compile_seconds = 0, run_seconds = 0;
};

// The compiler baked in at configure time, or $GEMMLAB_CXX when set. Empty when neither exists,
// with `why` saying what to install.
std::string compiler_path(std::string* why = nullptr);

HostGrade grade_on_host(const Grader& grader, const std::string& source, const HostGradeOptions& options = {});

}  // namespace gemmlab::exercise
