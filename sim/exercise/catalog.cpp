#include "catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "gemmlab/stage_desc.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace fs = std::filesystem;
namespace {

constexpr const char* kLanguages[] = {"en", "zh"};
constexpr std::uintmax_t kMaxFileBytes = 256 << 10;  // a task, a stub or a solution is a page

bool read_text(const fs::path& p, std::string& out, std::string& why) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) {
    why = "missing";
    return false;
  }
  if (fs::file_size(p, ec) > kMaxFileBytes) {
    why = "larger than 256 KB";
    return false;
  }
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return true;
}

}  // namespace

const std::string& Exercise::text(const std::map<std::string, std::string>& m, const std::string& lang) const {
  static const std::string empty;
  if (auto it = m.find(lang); it != m.end() && !it->second.empty()) return it->second;
  if (auto it = m.find("en"); it != m.end()) return it->second;
  return empty;
}

Expected<Exercise> load_exercise(const std::string& course_dir, const std::string& lesson, const std::string& name,
                                 std::vector<ExerciseProblem>* problems) {
  std::vector<ExerciseProblem> local;
  auto& out = problems ? *problems : local;
  const size_t before = out.size();
  Exercise e;
  e.id = lesson + "/" + name;
  e.lesson = lesson;
  e.dir = (fs::path(course_dir) / lesson / "exercises" / name).string();
  const std::string toml_path = (fs::path(e.dir) / "exercise.toml").string();
  auto problem = [&](const std::string& file, int line, const std::string& msg) { out.push_back({file, line, msg}); };

  std::string text, why;
  if (!read_text(toml_path, text, why)) {
    problem(toml_path, 0, "exercise.toml is " + why + ": every exercise folder has one (lessons/FORMAT.md, Exercises)");
    return Error{out.back().text()};
  }
  toml::table t;
  try {
    t = toml::parse(text, toml_path);
  } catch (const toml::parse_error& err) {
    problem(toml_path, static_cast<int>(err.source().begin.line), std::string(err.description()));
    return Error{out.back().text()};
  }
  auto line_of = [&](const char* key) {
    const toml::node* n = t.get(key);
    return n ? static_cast<int>(n->source().begin.line) : 0;
  };
  e.grader = t["grader"].value_or(std::string());
  if (e.grader.empty())
    problem(toml_path, 0, "no `grader = \"...\"`: name one of " + [] {
      std::string s;
      for (const auto& k : grader_kinds()) s += (s.empty() ? "" : ", ") + k;
      return s;
    }());
  else if (!find_grader(e.grader))
    problem(toml_path, line_of("grader"), "unknown grader \"" + e.grader + "\"");
  e.stage = t["stage"].value_or(std::string());
  if (!e.stage.empty() && !find_stage_desc(e.stage))  // the GPU grade would find no kernel to build
    problem(toml_path, line_of("stage"), "unknown stage \"" + e.stage + "\": a stage id (gemmlab bench --list)");
  e.view = t["view"].value_or(std::string());
  for (const char* lang : kLanguages) {
    if (auto s = t["title"][lang].value<std::string>()) e.title[lang] = *s;
    if (auto s = t["goal"][lang].value<std::string>()) e.goal[lang] = *s;
    if (const toml::array* hints = t["hints"][lang].as_array())
      for (const auto& h : *hints)
        if (auto s = h.value<std::string>()) e.hints[lang].push_back(*s);
    std::string task;
    const fs::path task_path = fs::path(e.dir) / (std::string("task.") + lang + ".md");
    if (read_text(task_path, task, why)) e.task[lang] = task;
    else if (std::string(lang) == "en") problem(task_path.string(), 0, "task.en.md is " + why + ": the task in English");
  }
  if (e.title["en"].empty()) problem(toml_path, 0, "no title.en");
  if (e.goal["en"].empty()) problem(toml_path, 0, "no goal.en: say what the grader measures");
  e.stub_path = (fs::path(e.dir) / "stub.cpp").string();
  e.reference_path = (fs::path(e.dir) / "reference.cpp").string();
  if (!read_text(e.stub_path, e.stub, why)) problem(e.stub_path, 0, "stub.cpp is " + why + ": where the learner starts");
  if (!read_text(e.reference_path, e.reference, why))
    problem(e.reference_path, 0, "reference.cpp is " + why + ": the solution the grader must pass");
  if (out.size() != before) return Error{out[before].text()};
  return e;
}

std::vector<Exercise> load_exercises(const std::string& course_dir, std::vector<ExerciseProblem>* problems) {
  std::vector<Exercise> all;
  std::error_code ec;
  std::vector<std::pair<std::string, std::string>> found;
  // Error codes throughout: an unreadable folder of a course someone else wrote is skipped, not thrown.
  for (fs::directory_iterator lesson(course_dir, ec), end; !ec && lesson != end; lesson.increment(ec)) {
    std::error_code ec2;
    const fs::path ex_dir = lesson->path() / "exercises";
    if (!fs::is_directory(ex_dir, ec2)) continue;
    for (fs::directory_iterator ex(ex_dir, ec2); !ec2 && ex != end; ex.increment(ec2))
      if (ex->is_directory(ec2)) found.emplace_back(lesson->path().filename().string(), ex->path().filename().string());
  }
  std::sort(found.begin(), found.end());
  for (const auto& [lesson, name] : found)
    if (auto e = load_exercise(course_dir, lesson, name, problems)) all.push_back(*e);
  return all;
}

Expected<Exercise> find_exercise(const std::string& course_dir, const std::string& id) {
  const size_t slash = id.find('/');
  if (slash != std::string::npos && id.find('/', slash + 1) == std::string::npos && slash > 0 &&
      slash + 1 < id.size() && id.find("..") == std::string::npos) {
    std::error_code ec;
    if (fs::is_directory(fs::path(course_dir) / id.substr(0, slash) / "exercises" / id.substr(slash + 1), ec))
      return load_exercise(course_dir, id.substr(0, slash), id.substr(slash + 1));
  }
  std::string ids;
  for (const auto& e : load_exercises(course_dir)) ids += (ids.empty() ? "" : ", ") + e.id;
  return Error{"no exercise \"" + id + "\" in " + course_dir + (ids.empty() ? " (it has none)" : "; there are: " + ids)};
}

}  // namespace gemmlab::exercise
