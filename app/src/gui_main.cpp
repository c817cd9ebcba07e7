// `gemmlab` with no sub-command (the window), `gemmlab shot` and `gemmlab lessons`.
#include "gui_main.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.h"
#include "model/config.h"
#include "exercise/exercise_check.h"
#include "model/json_text.h"
#include "model/ui_catalogue_check.h"
#include "lesson_render_check.h"
#include "lesson_tools.h"
#include "model/files.h"
#include "model/lesson_format.h"
#include "model/result_placeholders.h"
#include "model/results_markdown.h"
#include "model/settings_schema.h"
#include "shot.h"
#include "window.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

using cli::CliError;
using cli::OptionSpec;

const std::vector<OptionSpec>& window_options() {
  static const std::vector<OptionSpec> o = {
      {"--course", "DIR", "a course folder", "lessons/ of this GEMM Lab"},
      {"--lesson", "ID", "the lesson to open (a folder name of the course)", "the last one opened, else lesson 1"},
      {"--step", "N", "the step to open, counting from 1 (1..100000)", "the last one opened, else 1"},
      {"--lang", "en|zh", "language of the lessons and the interface", "the last one used, else en"},
      {"--size", "WxH", "window size in pixels (320..8192 x 240..8192)", "the last one used"},
  };
  return o;
}

const std::vector<OptionSpec>& shot_options() {
  static const std::vector<OptionSpec> o = {
      {"--lesson", "ID", "the lesson to render", "required without --all / --frametime"},
      {"--step", "N", "the step, counting from 1 (1..100000)", "required without --all / --frametime"},
      {"--out", "FILE", "the PNG to write (with --frametime: the JSON report)", "required for one step; "
                                                                             "--frametime: stdout"},
      {"--all", "", "every step of every lesson, plus manifest.json", ""},
      {"--out-dir", "DIR", "where --all writes its PNGs", "required with --all"},
      {"--frametime", "", "p50/p99 frame time of every step as JSON (target: p99 < 16.7 ms)", ""},
      {"--frames", "N", "frames measured per step with --frametime (1..100000)", "the shot's own"},
      {"--size", "WxH", "image size in pixels (320..8192 x 240..8192)", "1600x1000"},
      {"--lang", "en|zh", "language", "en"},
      {"--course", "DIR", "a course folder", "lessons/ of this GEMM Lab"},
      {"--view", "VIEW", "bring this view to the front", "the step's"},
      {"--view-only", "", "crop the image to the view", ""},
      {"--meta", "", "also write FILE.png.json (the view's area)", ""},
      {"--reveal", "", "a predict step as after Reveal (the answer drawn)", ""},
      {"--exercise-solution", "reference|stub", "an exercise step with its shipped solution or its stub in the code "
       "cell, graded, the lesson panel scrolled to the verdict and the picture", "the code the learner saved, else the stub"},
      {"--data", "FILE", "also write the view's data as JSON to FILE", "none"},
      {"--font-size", "PX", "font size in pixels (8.." + std::to_string(int(kMaxFontSize)) + ")", "the app's"},
  };
  return o;
}

const std::vector<OptionSpec>& lessons_options() {
  static const std::vector<OptionSpec> o = {
      {"--json", "", "print the course as {\"lessons\":[{\"id\",\"title\",\"steps\",\"languages\"}]}", ""},
      {"--check", "DIR", "validate a course: prints file:line: problem, exits 1 on any (format: lessons/FORMAT.md)",
       "lessons/", false, true},
      {"--answers", "DIR", "each predict step's answer as the simulator computes it (with --json: as JSON)",
       "lessons/", false, true},
      {"--new", "ID", "a scaffold lesson ID/ (lesson.toml, en.md, zh.md, en.notes.md) that passes --check, added at "
                      "the end of the course's course.toml", "none"},
      {"--course", "DIR", "the course --json, --answers and --new use", "lessons/ of this GEMM Lab"},
  };
  return o;
}

const std::vector<OptionSpec>& results_options() {
  static const std::vector<OptionSpec> o = {
      {"--markdown", "", "write the tables of every results JSON in assets/results/, one section per device", ""},
      {"--out", "FILE", "where to write them; - for standard output", "assets/results/RESULTS.md"},
  };
  return o;
}

std::string window_help() {
  return "usage: gemmlab [options]\n  Opens the desktop app on the last lesson (or lesson 1).\n  Settings are kept in "
         "$XDG_CONFIG_HOME/gemmlab/config.json (~/.config/gemmlab/...).\n\noptions:\n" +
         cli::options_help(window_options());
}

std::string shot_help() {
  return "usage: gemmlab shot --lesson ID --step N --out FILE.png [options]\n"
         "       gemmlab shot --all --out-dir DIR [options]\n"
         "       gemmlab shot --frametime [--frames N] [--out REPORT.json] [options]\n"
         "  Renders lesson steps offscreen exactly as the window shows them. Needs an X display;\n"
         "  without one: xvfb-run -a -s \"-screen 0 1920x1200x24\" gemmlab shot ...\n\noptions:\n" +
         cli::options_help(shot_options());
}

std::string lessons_help() {
  return "usage: gemmlab lessons --json [--course DIR]\n       gemmlab lessons --check [DIR]\n"
         "       gemmlab lessons --answers [DIR] [--json]\n       gemmlab lessons --new ID [--course DIR]\n\noptions:\n" +
         cli::options_help(lessons_options());
}

std::string results_help() {
  return "usage: gemmlab results --markdown [--out FILE]\n\noptions:\n" + cli::options_help(results_options());
}

AppPaths default_paths() {
  AppPaths p;
  const char* env = std::getenv("GEMMLAB_ROOT");
  if (env && *env)
    p.root = env;
  else if (std::error_code ec; fs::exists(fs::path(GEMMLAB_DEFAULT_ROOT) / "lessons", ec))
    p.root = GEMMLAB_DEFAULT_ROOT;
  else
    p.root = fs::current_path().string();
  p.course = (fs::path(p.root) / "lessons").string();
  p.assets = (fs::path(p.root) / "assets").string();
  return p;
}

void parse_size(const std::string& text, int* w, int* h) {
  const auto x = text.find('x');
  if (x == std::string::npos) throw CliError("--size must look like 1600x1000, got '" + text + "'");
  *w = cli::parse_int_in(text.substr(0, x), "--size width", 320, 8192);
  *h = cli::parse_int_in(text.substr(x + 1), "--size height", 240, 8192);
}

std::string parse_lang(const std::string& text) {
  if (text != "en" && text != "zh") throw CliError("--lang must be en or zh, got '" + text + "'");
  return text;
}

int lessons_command(int argc, char** argv) {
  const cli::Args o("gemmlab lessons", lessons_options(), argc, argv, 2);
  if (o.help()) {
    std::cout << lessons_help();
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.str("--course");
  // --check DIR / --answers DIR: the folder may follow the option.
  for (const char* flag : {"--check", "--answers"})
    if (o.has(flag) && !o.str(flag).empty()) paths.course = o.str(flag);
  // Lesson authors' tools (lesson_tools.h).
  if (o.has("--new")) return new_lesson(paths, o.str("--new"), std::cout, std::cerr);
  if (o.has("--answers")) return print_answers(load_course(paths.course, paths.assets), paths, o.has("--json"), std::cout, std::cerr);
  if (o.has("--check")) {
    const Course course = load_course(paths.course, paths.assets);
    auto errors = check_course(course, paths);
    for (auto& d : check_exercises(course)) errors.push_back(std::move(d));
    for (const auto& d : errors) std::cerr << d.text() << "\n";
    int steps = 0;
    for (const auto& l : course.lessons) steps += static_cast<int>(l.steps.size());
    if (!errors.empty()) {
      std::cerr << errors.size() << " problem(s) in " << paths.course << "\n";
      return 1;
    }
    std::cout << "ok: " << course.lessons.size() << " lessons, " << steps << " steps in "
              << paths.course << "\n";
    return 0;
  }
  if (o.has("--json")) {
    const Course course = load_course(paths.course, paths.assets);
    nlohmann::ordered_json out;
    out["lessons"] = nlohmann::ordered_json::array();
    for (const auto& l : course.lessons) {
      nlohmann::ordered_json j;
      j["id"] = l.id;
      j["title"] = l.title_in("en");
      j["steps"] = l.steps.size();
      j["languages"] = l.languages();
      j["ok"] = l.ok();
      out["lessons"].push_back(j);
    }
    std::cout << json_text(out, 2) << "\n";
    for (const auto& d : course.all_errors()) std::cerr << d.text() << "\n";
    return course.all_errors().empty() ? 0 : 1;
  }
  throw CliError("say --json, --check, --answers or --new ID");
}

// `gemmlab results --markdown`: RESULTS.md from assets/results/*.json (model/results_markdown.h).
int results_command(int argc, char** argv) {
  const cli::Args o("gemmlab results", results_options(), argc, argv, 2);
  if (o.help()) {
    std::cout << results_help();
    return 0;
  }
  if (!o.has("--markdown")) throw CliError("say --markdown");
  const AppPaths paths = default_paths();
  std::vector<std::string> problems;
  const auto sets = load_results_dir(paths.assets + "/results", &problems);
  for (const auto& p : problems) std::cerr << "gemmlab results: " << p << "\n";
  if (!problems.empty()) return 1;
  const std::string text = results_markdown(sets);
  const std::string out = o.str("--out", paths.assets + "/results/RESULTS.md");
  if (out == "-") {
    std::cout << text;
    return 0;
  }
  if (const std::string problem = write_text_file(out, text); !problem.empty()) {
    std::cerr << "gemmlab results: " << problem << "\n";
    return 1;
  }
  std::cerr << "gemmlab results: wrote " << out << " (" << sets.size() << " results files)\n";
  return 0;
}

int shot_command(int argc, char** argv) {
  const cli::Args o("gemmlab shot", shot_options(), argc, argv, 2);
  if (o.help()) {
    std::cout << shot_help();
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.str("--course");
  ShotOptions s;
  if (o.has("--size")) parse_size(o.str("--size"), &s.width, &s.height);
  if (o.has("--lang")) s.lang = parse_lang(o.str("--lang"));
  if (o.has("--font-size"))
    s.font_size = static_cast<float>(cli::parse_int_in(o.str("--font-size"), "--font-size", 8, int(kMaxFontSize)));
  s.view = o.str("--view", "");
  if (!s.view.empty()) {
    const auto& ids = known_view_ids();
    if (std::find(ids.begin(), ids.end(), s.view) == ids.end()) {
      std::string list;
      for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
      throw CliError("--view must be one of " + list + ", got '" + s.view + "'");
    }
  }
  s.view_only = o.has("--view-only");
  s.meta = o.has("--meta");
  s.reveal = o.has("--reveal");
  s.exercise_solution = o.str("--exercise-solution", "");
  if (!s.exercise_solution.empty() && s.exercise_solution != "reference" && s.exercise_solution != "stub")
    throw CliError("--exercise-solution must be reference or stub, got '" + s.exercise_solution + "'");
  s.data = o.str("--data", "");
  if (o.has("--frametime")) {
    s.frametime = true;
    s.out = o.str("--out", "");
    if (o.has("--frames")) s.frames = cli::parse_int_in(o.str("--frames"), "--frames", 1, 100000);
  } else if (o.has("--all")) {
    s.all = true;
    s.out_dir = o.str("--out-dir", "");
    if (s.out_dir.empty()) throw CliError("--all needs --out-dir DIR");
  } else {
    s.lesson = o.str("--lesson", "");
    s.out = o.str("--out", "");
    if (s.lesson.empty() || !o.has("--step") || s.out.empty())
      throw CliError("needs --lesson ID --step N --out FILE.png (or --all, or --frametime)");
    s.step = cli::parse_int_in(o.str("--step"), "--step", 1, 100000);
  }
  return run_shot(paths, s);
}

int window_command(int argc, char** argv) {
  const cli::Args o("gemmlab", window_options(), argc, argv, 1);
  if (o.help()) {
    std::cout << window_help();
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.str("--course");
  WindowOptions w;
  w.lesson = o.str("--lesson", "");
  if (o.has("--step")) w.step = cli::parse_int_in(o.str("--step"), "--step", 1, 100000) - 1;
  if (o.has("--lang")) w.lang = parse_lang(o.str("--lang"));
  if (o.has("--size")) parse_size(o.str("--size"), &w.width, &w.height);
  return run_window(paths, w);
}

}  // namespace

namespace {

// Every command says "<command>: <problem>" on a usage error and exits 2 (as sim and bench do).
int usage_guarded(const char* command, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const CliError& e) {
    std::cerr << command << ": " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int window_main(int argc, char** argv) { return usage_guarded("gemmlab", window_command, argc, argv); }
int shot_main(int argc, char** argv) { return usage_guarded("gemmlab shot", shot_command, argc, argv); }
int lessons_main(int argc, char** argv) { return usage_guarded("gemmlab lessons", lessons_command, argc, argv); }
int results_main(int argc, char** argv) { return usage_guarded("gemmlab results", results_command, argc, argv); }

}  // namespace gemmlab::app
