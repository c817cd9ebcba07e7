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

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* kWindowHelp =
    "usage: gemmlab [--course DIR] [--lesson ID] [--step N] [--lang en|zh] [--size WxH]\n"
    "  Opens the desktop app on the last lesson (or lesson 1). N counts from 1.\n"
    "  --course DIR   a course folder (default: lessons/ of this GEMM Lab)\n"
    "  Settings are kept in $XDG_CONFIG_HOME/gemmlab/config.json (~/.config/gemmlab/...).\n";

const char* kShotHelp =
    "usage: gemmlab shot --lesson ID --step N --out FILE.png [--size WxH] [--lang en|zh]\n"
    "                    [--course DIR] [--view VIEW] [--view-only] [--meta] [--reveal]\n"
    "       gemmlab shot --all --out-dir DIR [--size WxH] [--lang en|zh] [--course DIR]\n"
    "       gemmlab shot --frametime [--frames N] [--size WxH] [--out REPORT.json] [--course DIR]\n"
    "  Renders lesson steps offscreen exactly as the window shows them. Needs an X display;\n"
    "  without one: xvfb-run -a -s \"-screen 0 1920x1200x24\" gemmlab shot ...\n"
    "  --step N      counts from 1       --size WxH  default 1600x1000\n"
    "  --view-only   crop to the view    --meta      also write FILE.png.json (view area)\n"
    "  --view VIEW   bring VIEW to front --data F    also write the view's data as JSON to F\n"
    "  --reveal      a predict step as after Reveal (the answer drawn)\n"
    "  --all         every step of every lesson, plus manifest.json\n"
    "  --frametime   p50/p99 frame time of every step as JSON (target: p99 < 16.7 ms)\n";

const char* kLessonsHelp =
    "usage: gemmlab lessons --json [--course DIR]\n"
    "       gemmlab lessons --check [DIR]\n"
    "       gemmlab lessons --answers [DIR] [--json]\n"
    "       gemmlab lessons --new ID [--course DIR]\n"
    "  --json     the course as {\"lessons\":[{\"id\",\"title\",\"steps\",\"languages\"}]}\n"
    "  --check    validate a course (default: lessons/); prints file:line: problem and exits 1\n"
    "             on any problem. The format is lessons/FORMAT.md.\n"
    "  --answers  each predict step's answer as the simulator computes it (--json: as JSON)\n"
    "  --new ID   a scaffold lesson ID/ (lesson.toml, en.md, zh.md, en.notes.md) that passes\n"
    "             --check, added at the end of the course's course.toml\n";

const char* kResultsHelp =
    "usage: gemmlab results --markdown [--out FILE]\n"
    "  Writes assets/results/RESULTS.md (or FILE; - for standard output): the tables of every\n"
    "  results JSON in assets/results/, one section per device.\n";

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

// --key value pairs; flags listed in `flags` take no value, except that one listed in
// `optional_value` takes the next argument when it does not start with '-'.
struct Options {
  std::vector<std::pair<std::string, std::string>> items;
  bool has(const std::string& k) const {
    for (const auto& [key, v] : items)
      if (key == k) return true;
    return false;
  }
  std::string get(const std::string& k, const std::string& fallback = "") const {
    for (const auto& [key, v] : items)
      if (key == k) return v;
    return fallback;
  }
};

Options parse_options(int argc, char** argv, int first, const std::vector<std::string>& flags,
                      const std::vector<std::string>& valued, const std::vector<std::string>& optional_value = {}) {
  Options o;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (o.has(a)) throw UsageError(a + " is given twice");
    if (std::find(flags.begin(), flags.end(), a) != flags.end()) {
      std::string value;
      const bool may_take = std::find(optional_value.begin(), optional_value.end(), a) != optional_value.end();
      if (may_take && i + 1 < argc && argv[i + 1][0] != '-') value = argv[++i];
      o.items.emplace_back(a, value);
    } else if (std::find(valued.begin(), valued.end(), a) != valued.end()) {
      if (i + 1 >= argc) throw UsageError(a + " needs a value");
      o.items.emplace_back(a, argv[++i]);
    } else {
      throw UsageError("unknown option '" + a + "'");
    }
  }
  return o;
}

int parse_int(const std::string& text, const std::string& what, int lo, int hi) {
  try {
    size_t used = 0;
    const long v = std::stol(text, &used);
    if (used != text.size() || v < lo || v > hi) throw std::out_of_range(what);
    return static_cast<int>(v);
  } catch (const std::exception&) {
    throw UsageError(what + " must be a whole number from " + std::to_string(lo) + " to " +
                     std::to_string(hi) + ", got '" + text + "'");
  }
}

void parse_size(const std::string& text, int* w, int* h) {
  const auto x = text.find('x');
  if (x == std::string::npos) throw UsageError("--size must look like 1600x1000, got '" + text + "'");
  *w = parse_int(text.substr(0, x), "--size width", 320, 8192);
  *h = parse_int(text.substr(x + 1), "--size height", 240, 8192);
}

std::string parse_lang(const std::string& text) {
  if (text != "en" && text != "zh") throw UsageError("--lang must be en or zh, got '" + text + "'");
  return text;
}

int lessons_command(int argc, char** argv) {
  const Options o = parse_options(argc, argv, 2, {"--json", "--check", "--answers", "--help"},
                                  {"--course", "--new"}, {"--check", "--answers"});
  if (o.has("--help")) {
    std::cout << kLessonsHelp;
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.get("--course");
  // --check DIR / --answers DIR: the folder may follow the flag (parse_options takes one optional value).
  for (const char* flag : {"--check", "--answers"})
    if (o.has(flag) && !o.get(flag).empty()) paths.course = o.get(flag);
  // Lesson authors' tools (lesson_tools.h).
  if (o.has("--new")) return new_lesson(paths, o.get("--new"), std::cout, std::cerr);
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
  throw UsageError("say --json, --check, --answers or --new ID");
}

// `gemmlab results --markdown`: RESULTS.md from assets/results/*.json (model/results_markdown.h).
int results_command(int argc, char** argv) {
  const Options o = parse_options(argc, argv, 2, {"--markdown", "--help"}, {"--out"});
  if (o.has("--help")) {
    std::cout << kResultsHelp;
    return 0;
  }
  if (!o.has("--markdown")) throw UsageError("say --markdown");
  const AppPaths paths = default_paths();
  std::vector<std::string> problems;
  const auto sets = load_results_dir(paths.assets + "/results", &problems);
  for (const auto& p : problems) std::cerr << "gemmlab results: " << p << "\n";
  if (!problems.empty()) return 1;
  const std::string text = results_markdown(sets);
  const std::string out = o.get("--out", paths.assets + "/results/RESULTS.md");
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
  const Options o = parse_options(
      argc, argv, 2, {"--all", "--frametime", "--view-only", "--meta", "--reveal", "--help"},
      {"--lesson", "--step", "--out", "--out-dir", "--size", "--lang", "--course", "--view",
       "--frames", "--font-size", "--data"});
  if (o.has("--help")) {
    std::cout << kShotHelp;
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.get("--course");
  ShotOptions s;
  if (o.has("--size")) parse_size(o.get("--size"), &s.width, &s.height);
  if (o.has("--lang")) s.lang = parse_lang(o.get("--lang"));
  if (o.has("--font-size")) s.font_size = static_cast<float>(parse_int(o.get("--font-size"), "--font-size", 8, int(kMaxFontSize)));
  s.view = o.get("--view");
  if (!s.view.empty()) {
    const auto& ids = known_view_ids();
    if (std::find(ids.begin(), ids.end(), s.view) == ids.end()) {
      std::string list;
      for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
      throw UsageError("--view must be one of " + list + ", got '" + s.view + "'");
    }
  }
  s.view_only = o.has("--view-only");
  s.meta = o.has("--meta");
  s.reveal = o.has("--reveal");
  s.data = o.get("--data");
  if (o.has("--frametime")) {
    s.frametime = true;
    s.out = o.get("--out");
    if (o.has("--frames")) s.frames = parse_int(o.get("--frames"), "--frames", 1, 100000);
  } else if (o.has("--all")) {
    s.all = true;
    s.out_dir = o.get("--out-dir");
    if (s.out_dir.empty()) throw UsageError("--all needs --out-dir DIR");
  } else {
    s.lesson = o.get("--lesson");
    s.out = o.get("--out");
    if (s.lesson.empty() || !o.has("--step") || s.out.empty())
      throw UsageError("needs --lesson ID --step N --out FILE.png (or --all, or --frametime)");
    s.step = parse_int(o.get("--step"), "--step", 1, 100000);
  }
  return run_shot(paths, s);
}

int window_command(int argc, char** argv) {
  const Options o = parse_options(argc, argv, 1, {"--help"},
                                  {"--course", "--lesson", "--step", "--lang", "--size"});
  if (o.has("--help")) {
    std::cout << kWindowHelp;
    return 0;
  }
  AppPaths paths = default_paths();
  if (o.has("--course")) paths.course = o.get("--course");
  WindowOptions w;
  w.lesson = o.get("--lesson");
  if (o.has("--step")) w.step = parse_int(o.get("--step"), "--step", 1, 100000) - 1;
  if (o.has("--lang")) w.lang = parse_lang(o.get("--lang"));
  if (o.has("--size")) parse_size(o.get("--size"), &w.width, &w.height);
  return run_window(paths, w);
}

}  // namespace

int gui_main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  try {
    if (cmd == "shot") return shot_command(argc, argv);
    if (cmd == "lessons") return lessons_command(argc, argv);
    if (cmd == "results") return results_command(argc, argv);
    if (!cmd.empty() && cmd[0] != '-') {
      std::cerr << "gemmlab: unknown command '" << cmd << "'; try gemmlab --help\n";
      return 2;
    }
    return window_command(argc, argv);
  } catch (const UsageError& e) {
    const char* help = cmd == "shot" ? kShotHelp : cmd == "lessons" ? kLessonsHelp : cmd == "results" ? kResultsHelp : kWindowHelp;
    std::cerr << "gemmlab" << (cmd == "shot" || cmd == "lessons" || cmd == "results" ? " " + cmd : "") << ": "
              << e.what() << "\n\n" << help;
    return 2;
  }
}

}  // namespace gemmlab::app
