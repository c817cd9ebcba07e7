#include "lesson_tools.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "lesson_render_check.h"
#include "model/files.h"
#include "model/lesson_text_rules.h"
#include "model/result_placeholders.h"
#include "model/ui_catalogue_check.h"

namespace gemmlab::app {
namespace fs = std::filesystem;

std::vector<Diagnostic> check_course(const Course& course, const AppPaths& paths) {
  std::vector<Diagnostic> errors = course.all_errors();
  for (auto& d : check_steps_render(course, paths)) errors.push_back(std::move(d));
  for (auto& d : check_text_rules(course)) errors.push_back(std::move(d));
  std::vector<std::string> problems;
  const std::vector<BenchResults> shipped = load_results_dir(paths.assets + "/results", &problems);
  for (const auto& p : problems) errors.push_back({paths.assets + "/results", 0, p});
  for (auto& d : check_placeholders(course, results_sources({}, shipped))) errors.push_back(std::move(d));
  // The UI catalogues as the app reads them: a translation's formats must be its key's.
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(paths.assets) / "i18n", ec))
    for (auto& p : ui_catalogue_problems(e.path().string())) errors.push_back({e.path().string(), 0, std::move(p)});
  return errors;
}

int print_answers(const Course& course, const AppPaths& paths, bool json, std::ostream& out,
                  std::ostream& err) {
  std::vector<PredictAnswer> answers;
  check_steps_render(course, paths, &answers);
  int rc = 0;
  for (const auto& d : course.all_errors()) {
    err << d.text() << "\n";
    rc = 1;
  }
  nlohmann::ordered_json doc;
  doc["lessons"] = nlohmann::ordered_json::array();
  for (const Lesson& lesson : course.lessons) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const PredictAnswer& a : answers) {
      if (a.lesson != lesson.id) continue;
      const PredictSpec& spec = *lesson.steps[a.step - 1].predict;
      nlohmann::ordered_json s;
      s["step"] = a.step;
      s["title"] = lesson.step_text("en", a.step - 1) ? lesson.step_text("en", a.step - 1)->title : "";
      s["quantity"] = a.quantity;
      if (spec.extra.contains("element")) s["element"] = spec.extra["element"];
      if (a.answer) s["answer"] = *a.answer;
      else s["error"] = a.answer.error(), rc = 1;
      if (spec.tolerance > 0) s["tolerance"] = spec.tolerance;
      steps.push_back(s);
      if (json) continue;
      out << lesson.id << " step " << a.step << ": " << a.quantity;
      if (spec.extra.contains("element")) out << " " << spec.extra["element"].dump();
      if (a.answer) out << " = " << *a.answer;
      else out << ": cannot be computed: " << a.answer.error();
      if (spec.tolerance > 0) out << " (+- " << spec.tolerance << ")";
      out << "  (\"" << s["title"].get<std::string>() << "\")\n";
    }
    if (json) doc["lessons"].push_back({{"id", lesson.id}, {"ok", lesson.ok()}, {"predict", steps}});
  }
  if (json) out << doc.dump(2) << "\n";
  return rc;
}

namespace {

bool valid_lesson_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id.front() == '-') return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// The scaffold: two steps (the picture, then a predict step that changes one setting and
// inherits the rest), both languages, notes for step 1 with a placeholder.
std::vector<std::pair<std::string, std::string>> scaffold_files(const std::string& id) {
  return {
      {"lesson.toml",
       "id = \"" + id + "\"\n"
       "# stage = \"double-buffer\"   # optional: the kernel stage this lesson teaches\n"
       "title.en = \"New lesson\"\n"
       "title.zh = \"新课\"\n\n"
       "[[step]]    # 1: the idea and the picture\n"
       "view = \"threadmap\"\n"
       "[step.threadmap]\n"
       "map = \"stripmined\"\n"
       "shape = [128, 8]\n"
       "threads = 256\n"
       "access = 1\n\n"
       "[[step]]    # 2: predict; keeps step 1's view and settings except threads\n"
       "[step.threadmap]\n"
       "threads = 128\n"
       "[step.predict]\n"
       "quantity = \"threadmap.iterations_s\"\n"},
      {"en.md",
       "# New lesson\n\n"
       "## The idea\n"
       "Say the concept in two or three sentences, then what to look at: here 256 threads copy a\n"
       "128 x 8 tile, one element each per access. Hover a cell to see which thread copies it.\n\n"
       "## Predict: accesses per thread\n"
       "With 128 threads instead of 256, how many accesses does each thread make along the strided\n"
       "dimension? Type your answer and press Reveal.\n"},
      {"zh.md",
       "# 新课\n\n"
       "## 概念\n"
       "用两三句话讲清概念，再说明看哪里：这里 256 个线程搬运一个 128 x 8 的 tile，每次访问每个线程一个元素。\n"
       "把鼠标移到格子上，看是哪个线程搬运它。\n\n"
       "## 预测：每个线程的访问次数\n"
       "如果只有 128 个线程而不是 256 个，每个线程沿 strided 维要访问几次？填入答案，再按 Reveal。\n"},
      {"en.notes.md",
       "## The idea\n"
       "Depth a learner may open: where a number comes from, what to read next. A measured number is\n"
       "a placeholder filled from the results loaded, e.g. stage 6 (`double-buffer`) ran at\n"
       "{ratio double-buffer 4096} of {ref double-buffer} on {device}.\n"},
  };
}

// Appends "id" to course.toml's lessons list, keeping the file's comments and layout.
std::string add_to_course_toml(const fs::path& file, const std::string& id) {
  std::string problem;
  auto text = read_file_contents(file.string(), &problem, 1u << 20);
  if (!text) return problem;
  std::string& t = *text;
  size_t key = std::string::npos;
  for (size_t pos = 0; pos < t.size(); pos = t.find('\n', pos) + 1) {
    if (t.compare(pos, 7, "lessons") == 0) {
      key = pos;
      break;
    }
    if (t.find('\n', pos) == std::string::npos) break;
  }
  const size_t open = key == std::string::npos ? key : t.find('[', key);
  if (open == std::string::npos) return file.string() + " has no lessons = [...] list to add \"" + id + "\" to";
  size_t close = std::string::npos, last = open;  // last: the last character of the last entry
  for (size_t i = open + 1; i < t.size() && close == std::string::npos; ++i) {
    if (t[i] == '#') i = t.find('\n', i) == std::string::npos ? t.size() : t.find('\n', i);
    else if (t[i] == '"') last = i = t.find('"', i + 1) == std::string::npos ? t.size() : t.find('"', i + 1);
    else if (t[i] == ']') close = i;
    else if (t[i] == ',') last = i;
  }
  if (close == std::string::npos) return file.string() + ": the lessons list has no closing \"]\"";
  const bool multiline = t.find('\n', open) < close;
  std::string entry = "\"" + id + "\"";
  if (t[last] != '[' && t[last] != ',') t.insert(++last, ","), ++close;
  const size_t line_start = t.rfind('\n', close) + 1;
  if (multiline && t.find_first_not_of(" \t", line_start) == close) {  // "]" on its own line
    t.insert(line_start, "  " + entry + ",\n");
  } else {
    t.insert(close, t[last] == '[' ? entry : " " + entry);
  }
  return write_text_file(file.string(), t);
}

}  // namespace

int new_lesson(const AppPaths& paths, const std::string& id, std::ostream& out, std::ostream& err) {
  if (!valid_lesson_id(id)) {
    err << "gemmlab lessons --new: \"" << id << "\" is not a lesson id: use lowercase letters, digits "
        << "and '-', e.g. 20-fp8\n";
    return 1;
  }
  const fs::path course = paths.course, folder = course / id, course_toml = course / "course.toml";
  std::error_code ec;
  if (fs::exists(folder, ec)) {
    err << "gemmlab lessons --new: " << folder.string() << " exists; pick another id\n";
    return 1;
  }
  const bool had_course = fs::exists(course_toml, ec);
  if (had_course) {
    const Course before = load_course(paths.course, paths.assets);
    if (before.index_of(id) >= 0) {
      err << "gemmlab lessons --new: " << course_toml.string() << " already lists \"" << id << "\"\n";
      return 1;
    }
  }
  fs::create_directories(folder, ec);
  if (ec) {
    err << "gemmlab lessons --new: cannot create " << folder.string() << ": " << ec.message() << "\n";
    return 1;
  }
  for (const auto& [name, content] : scaffold_files(id)) {
    if (std::string problem = write_text_file((folder / name).string(), content); !problem.empty()) {
      err << "gemmlab lessons --new: " << problem << "\n";
      return 1;
    }
  }
  const std::string problem =
      had_course ? add_to_course_toml(course_toml, id)
                 : write_text_file(course_toml.string(), "# The course, in order.\nlessons = [\n  \"" + id + "\",\n]\n");
  if (!problem.empty()) {
    err << "gemmlab lessons --new: " << problem << "\n";
    return 1;
  }
  out << "created " << folder.string() << "/: lesson.toml, en.md, zh.md, en.notes.md\n"
      << (had_course ? "added \"" : "created " + course_toml.string() + " with \"") << id
      << (had_course ? "\" at the end of " + course_toml.string() : std::string("\"")) << "\n";
  const Course course_now = load_course(paths.course, paths.assets);
  const auto errors = check_course(course_now, paths);
  for (const auto& d : errors) err << d.text() << "\n";
  if (!errors.empty()) {
    err << errors.size() << " problem(s) in " << paths.course << " (`gemmlab lessons --check " << paths.course
        << "` lists them)\n";
    return 1;
  }
  out << "gemmlab lessons --check " << paths.course << ": ok. Next: write the steps (lessons/FORMAT.md), "
      << "look at them with gemmlab --course " << paths.course << " --lesson " << id << "\n";
  return 0;
}

}  // namespace gemmlab::app
