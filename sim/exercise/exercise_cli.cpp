#include "exercise_cli.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "args.h"
#include "catalog.h"
#include "grade_device.h"
#include "grade_host.h"

namespace gemmlab::exercise {
namespace fs = std::filesystem;
namespace {

#ifndef GEMMLAB_EXERCISE_ROOT
#define GEMMLAB_EXERCISE_ROOT ""
#endif

const std::vector<cli::OptionSpec> kOptions = {
    {"ID", "ID", "the exercise to grade, e.g. 09-swizzle/smem-offset (--list shows them)", "required without --list"},
    {"--list", "", "the course's exercises: id, title, grader, goal", ""},
    {"--solution", "FILE", "the C++ file to grade; `reference` grades the shipped solution, `stub` the file the "
     "learner starts from (at most 256 KB)", "required with ID"},
    {"--json", "", "print JSON: {\"host\": {\"pass\", \"reason\"}, \"device\": {\"ran\", \"pass\", \"reason\", "
     "\"ratio_to_stage\"}}; with --list, the exercises", ""},
    {"--course", "DIR", "a course folder", "lessons/ of this GEMM Lab"},
};

std::string usage() {
  return "usage: gemmlab exercise --list [--json] [--course DIR]\n"
         "       gemmlab exercise ID --solution FILE [--json] [--course DIR]\n"
         "  Grades a learner's function on the host (and on the GPU where the build has one).\n\noptions:\n" +
         cli::options_help(kOptions) +
         "Exit status: 0 when every grading that ran passed, 1 when one failed, 2 for a usage error.\n";
}

int usage_error(std::ostream& err, const std::string& what) {
  err << "gemmlab exercise: " << what << "\n" << usage();
  return 2;
}

nlohmann::json exercise_json(const Exercise& e) {
  return {{"id", e.id},         {"lesson", e.lesson}, {"title", e.title},
          {"grader", e.grader}, {"stage", e.stage},   {"view", e.view},
          {"goal", e.goal},     {"hints", e.hints.count("en") ? e.hints.at("en").size() : 0}};
}

int list(const std::string& course, bool json, std::ostream& out, std::ostream& err) {
  std::vector<ExerciseProblem> problems;
  const auto all = load_exercises(course, &problems);
  for (const auto& p : problems) err << p.text() << "\n";
  if (json) {
    nlohmann::json j = {{"exercises", nlohmann::json::array()}};
    for (const auto& e : all) j["exercises"].push_back(exercise_json(e));
    out << j.dump(2) << "\n";
  } else {
    for (const auto& e : all) out << e.id << "  " << e.text(e.title, "en") << "\n    goal: " << e.text(e.goal, "en") << "\n";
    if (all.empty()) out << "no exercises in " << course << "\n";
  }
  return problems.empty() ? 0 : 1;
}

}  // namespace

std::string default_course_dir() {
  const char* env = std::getenv("GEMMLAB_ROOT");
  if (env && *env) return (fs::path(env) / "lessons").string();
  std::error_code ec;
  if (*GEMMLAB_EXERCISE_ROOT && fs::is_directory(fs::path(GEMMLAB_EXERCISE_ROOT) / "lessons", ec))
    return (fs::path(GEMMLAB_EXERCISE_ROOT) / "lessons").string();
  return "lessons";
}

int run_exercise_cli(int argc, char** argv, int first, std::ostream& out, std::ostream& err) {
  std::string id, solution, course;
  bool json = false, do_list = false;
  try {
    const cli::Args args("gemmlab exercise", kOptions, argc, argv, first);
    if (args.help()) {
      out << usage();
      return 0;
    }
    id = args.str("ID", ""), solution = args.str("--solution", ""), course = args.str("--course", "");
    json = args.has("--json"), do_list = args.has("--list");
  } catch (const cli::CliError& e) {
    return usage_error(err, e.what());
  }
  if (course.empty()) course = default_course_dir();
  std::error_code ec;
  if (!fs::is_directory(course, ec)) return usage_error(err, "no course folder " + course + " (--course DIR)");
  if (do_list) {
    if (!id.empty() || !solution.empty()) return usage_error(err, "--list takes no exercise or solution");
    return list(course, json, out, err);
  }
  if (id.empty()) return usage_error(err, "name an exercise (gemmlab exercise --list shows them)");
  if (solution.empty()) return usage_error(err, "--solution FILE is missing (or --solution reference)");
  const auto ex = find_exercise(course, id);
  if (!ex) return usage_error(err, ex.error());

  std::string source, display = fs::path(solution).filename().string();
  if (solution == "reference" || solution == "stub") {
    source = solution == "reference" ? ex->reference : ex->stub;
    display = solution == "reference" ? "reference.cpp" : "stub.cpp";
  } else {
    if (!fs::is_regular_file(solution, ec)) return usage_error(err, "no file " + solution);
    if (fs::file_size(solution, ec) > (256u << 10)) return usage_error(err, solution + " is larger than 256 KB");
    std::ifstream f(solution, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    source = s.str();
  }
  const Grader* grader = find_grader(ex->grader);
  HostGradeOptions options;
  options.display_name = display;
  const HostGrade host = grade_on_host(*grader, source, options);
  DeviceGrade device;
  if (host.verdict.pass) device = grade_on_device(*ex, source);
  else device.reason = "not run on a GPU: the host grade failed first";

  if (json) {
    nlohmann::json j;
    j["id"] = ex->id;
    j["host"] = {{"pass", host.verdict.pass}, {"reason", host.verdict.reason}, {"passed", host.verdict.passed}};
    if (!host.compiler_output.empty() && !host.verdict.pass) {
      j["host"]["compiler_output"] = host.compiler_output;
      j["host"]["error_line"] = host.error_line;
    }
    j["device"] = {{"ran", device.ran}, {"pass", device.pass}, {"reason", device.reason},
                   {"ratio_to_stage", device.ran ? nlohmann::json(device.ratio_to_stage) : nlohmann::json(nullptr)}};
    out << j.dump(2) << "\n";
  } else {
    out << ex->id << " (" << display << ")\n";
    for (const auto& p : host.verdict.passed) out << "  ok    " << p << "\n";
    out << (host.verdict.pass ? "  PASS  " : "  FAIL  ") << host.verdict.reason << "\n";
    if (!host.verdict.pass && !host.compiler_output.empty()) out << host.compiler_output;
    out << "  GPU   " << (device.ran ? (device.pass ? "PASS  " : "FAIL  ") : "") << device.reason << "\n";
  }
  const bool failed = !host.verdict.pass || (device.ran && !device.pass);
  return failed ? 1 : 0;
}

}  // namespace gemmlab::exercise
