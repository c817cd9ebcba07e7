#include "model/lesson_format.h"
#include "model/predict_rules.h"
#include "model/ui_text.h"

#include "model/files.h"
#include "model/input_limits.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "model/settings_schema.h"

namespace gemmlab::app {
namespace fs = std::filesystem;

std::string Diagnostic::text() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  return out + ": " + message;
}

std::vector<std::string> Lesson::languages() const {
  std::vector<std::string> langs;
  for (const char* l : {"en", "zh"})
    if (text.count(l)) langs.push_back(l);
  return langs;
}

const LessonText* Lesson::text_in(const std::string& lang) const {
  auto it = text.find(lang);
  if (it == text.end()) it = text.find("en");
  return it == text.end() ? nullptr : &it->second;
}

std::string Lesson::title_in(const std::string& lang) const {
  for (const std::string& l : {lang, std::string("en")}) {
    if (auto it = title.find(l); it != title.end() && !it->second.empty()) return it->second;
    if (auto it = text.find(l); it != text.end() && !it->second.title.empty())
      return it->second.title;
  }
  return id;
}

const StepText* Lesson::step_text(const std::string& lang, int step) const {
  const LessonText* t = text_in(lang);
  if (!t || step < 0 || step >= static_cast<int>(t->steps.size())) return nullptr;
  return &t->steps[step];
}

const std::string* Lesson::notes_in(const std::string& lang, int step) const {
  auto it = notes.find(lang);
  if (it == notes.end()) it = notes.find("en");
  if (it == notes.end() || step < 0 || step >= static_cast<int>(it->second.by_step.size())) return nullptr;
  return it->second.by_step[step].empty() ? nullptr : &it->second.by_step[step];
}

std::vector<Diagnostic> Course::all_errors() const {
  std::vector<Diagnostic> all = errors;
  for (const auto& l : lessons) all.insert(all.end(), l.errors.begin(), l.errors.end());
  return all;
}

int Course::index_of(const std::string& id) const {
  for (size_t i = 0; i < lessons.size(); ++i)
    if (lessons[i].id == id) return static_cast<int>(i);
  return -1;
}

namespace {

constexpr std::size_t kMaxLessonFile = 4u << 20;  // a lesson file larger than this is a mistake

std::optional<std::string> read_lesson_file(const fs::path& path, std::string* problem) {
  return read_file_contents(path.string(), problem, kMaxLessonFile);
}

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

Json to_json(const toml::node& node) {
  if (auto* t = node.as_table()) {
    Json out = Json::object();
    for (const auto& [k, v] : *t) out[std::string(k.str())] = to_json(v);
    return out;
  }
  if (auto* a = node.as_array()) {
    Json out = Json::array();
    for (const auto& v : *a) out.push_back(to_json(v));
    return out;
  }
  if (auto* v = node.as_integer()) return v->get();
  if (auto* v = node.as_floating_point())  // nan and inf are TOML, but no setting means them
    return std::isfinite(v->get()) ? Json(v->get()) : Json("(nan or inf, not a finite number)");
  if (auto* v = node.as_boolean()) return v->get();
  if (auto* v = node.as_string()) return v->get();
  // Dates and times have no meaning in a lesson; the checker then names the key as the wrong type.
  return "(a date or time)";
}

// Convention: a step keeps the view and the settings of the step before unless it changes them,
// key by key; `inherit = false` in a view's table starts that view from its defaults.
void inherit_settings(std::vector<LessonStep>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    LessonStep& step = steps[i];
    step.written = step.settings;
    for (auto& [id, own] : step.written.items()) own.erase("inherit");
    if (i == 0) {
      step.settings = step.written;
      continue;
    }
    const LessonStep& before = steps[i - 1];
    if (step.view.empty()) step.view = before.view;
    Json merged = before.settings;
    for (const auto& [id, own] : step.written.items()) {
      const bool fresh = step.settings[id].value("inherit", true) == false;
      if (fresh || !merged.contains(id)) merged[id] = Json::object();
      for (const auto& [key, value] : own.items()) merged[id][key] = value;
    }
    step.settings = std::move(merged);
  }
}

struct LessonParser {
  Lesson& lesson;
  std::string file;  // lesson.toml path as shown in messages

  void error(int line, std::string message) {
    lesson.errors.push_back({file, line, std::move(message)});
  }

  void parse_title(const toml::node& node) {
    if (auto* s = node.as_string()) {
      lesson.title["en"] = s->get();
      return;
    }
    auto* t = node.as_table();
    if (!t) return error(line_of(node), "title must be a string or a table like title.en = \"...\"");
    for (const auto& [lang, v] : *t) {
      const std::string l(lang.str());
      if (l != "en" && l != "zh") {
        error(line_of(v), "title." + l + ": languages are \"en\" and \"zh\"");
        continue;
      }
      if (auto* s = v.as_string())
        lesson.title[l] = s->get();
      else
        error(line_of(v), "title." + l + " must be a string");
    }
  }

  void parse_predict(const toml::table& t, LessonStep& step) {
    PredictSpec p;
    p.line = line_of(t);
    bool has_quantity = false, quantity_seen = false;
    int shows_line = 0;
    for (const auto& [key, v] : t) {
      const std::string k(key.str());
      if (k == "quantity") {
        quantity_seen = true;
        auto* s = v.as_string();
        const auto& known = known_predict_quantities();
        if (!s || std::find(known.begin(), known.end(), s->get()) == known.end()) {
          std::string list;
          for (const auto& q : known) list += (list.empty() ? "" : ", ") + q;
          error(line_of(v), "predict.quantity must be one of: " + list);
          continue;
        }
        p.quantity = s->get();
        has_quantity = true;
      } else if (k == "tolerance") {
        auto tol = v.value<double>();
        if (!tol || !std::isfinite(*tol) || *tol < 0)  // inf makes every guess right; nan none
          error(line_of(v), "predict.tolerance must be a finite number >= 0 (absolute)");
        else
          p.tolerance = *tol;
      } else if (k == "element") {
        Json e = to_json(v);
        if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() ||
            !e[1].is_number_integer() || e[0].get<long long>() < 0 || e[1].get<long long>() < 0)
          error(line_of(v), "predict.element must be [row, col], two integers >= 0");
        else
          p.extra["element"] = e;
      } else if (k == "shows") {
        shows_line = line_of(v);
        const Json e = to_json(v);
        if (!e.is_array()) {
          error(line_of(v), "predict.shows must be a list of facts, e.g. [\"grid.tiles\"]");
          continue;
        }
        for (const auto& f : e) {
          if (f.is_string()) p.shows.push_back(f.get<std::string>());
          else error(line_of(v), "predict.shows must be a list of strings");
        }
      } else {
        error(line_of(v), "unknown key \"" + k +
                              "\" in [step.predict]; its keys are quantity, tolerance, element, shows");
      }
    }
    if (!has_quantity) {
      if (!quantity_seen) error(p.line, "[step.predict] needs quantity = \"...\"");
      return;
    }
    if ((p.quantity == "fragments.lane_of_element" || p.quantity == "gmma.offset") && !p.extra.contains("element"))
      error(p.line, "predict quantity " + p.quantity + " needs element = [row, col]");
    for (const auto& f : p.shows)
      if (auto problem = check_shown_fact(p.quantity, f)) error(shows_line, *problem);
    step.predict = p;
  }

  // [step.exercise] id = "<lesson>/<name>": the folder lessons/<lesson>/exercises/<name>/ must
  // exist; `lessons --check` then grades its reference and stub (sim/exercise).
  void parse_exercise(const toml::node& v, LessonStep& step) {
    const auto* et = v.as_table();
    const toml::node* id = et ? et->get("id") : nullptr;
    if (!id || !id->as_string() || et->size() != 1) {
      error(line_of(v), "[step.exercise] takes one key: id = \"<lesson>/<name>\" (lessons/FORMAT.md, Exercises)");
      return;
    }
    const std::string name = id->as_string()->get();
    const size_t slash = name.find('/');
    std::error_code ec;
    if (slash == std::string::npos || slash == 0 || name.find('/', slash + 1) != std::string::npos ||
        name.find("..") != std::string::npos ||
        !std::filesystem::is_directory(std::filesystem::path(lesson.dir).parent_path() / name.substr(0, slash) / "exercises" /
                                           name.substr(slash + 1), ec)) {
      error(line_of(*id), "no exercise \"" + name + "\": expected the folder <course>/<lesson>/exercises/<name>/");
      return;
    }
    step.exercise = name;
    step.exercise_line = line_of(*id);
  }

  void parse_step(const toml::table& t) {
    LessonStep step;
    step.line = line_of(t);
    const auto& views = known_view_ids();
    for (const auto& [key, v] : t) {
      const std::string k(key.str());
      if (k == "view") {
        auto* s = v.as_string();
        if (!s || std::find(views.begin(), views.end(), s->get()) == views.end()) {
          std::string list;
          for (const auto& id : views) list += (list.empty() ? "\"" : ", \"") + id + "\"";
          error(line_of(v), "view must be one of " + list);
        } else {
          step.view = s->get();
          step.names_view = true;
        }
      } else if (k == "shows_error") {
        if (auto* b = v.as_boolean())
          step.shows_error = b->get();
        else
          error(line_of(v), "shows_error must be true or false");
      } else if (k == "predict") {
        if (auto* pt = v.as_table())
          parse_predict(*pt, step);
        else
          error(line_of(v), "predict must be a table: [step.predict]");
      } else if (k == "exercise") {
        parse_exercise(v, step);
      } else if (std::find(views.begin(), views.end(), k) != views.end()) {
        auto* vt = v.as_table();
        if (!vt) {
          error(line_of(v), "settings of view " + k + " must be a table: [step." + k + "]");
          continue;
        }
        Json settings = Json::object();
        for (const auto& [sk, sv] : *vt) {
          const std::string skey(sk.str());
          if (skey == "inherit") {  // inherit = false: this view starts from its defaults
            if (auto* b = sv.as_boolean())
              settings[skey] = b->get();
            else
              error(line_of(sv), k + ".inherit must be true or false");
            continue;
          }
          Json value = to_json(sv);
          if (auto problem = check_view_setting(k, skey, value)) {
            error(line_of(sv), *problem);
            continue;
          }
          settings[skey] = std::move(value);
        }
        step.settings[k] = std::move(settings);
      } else {
        std::string list = "view, predict, shows_error, exercise";
        for (const auto& id : views) list += ", " + id;
        error(line_of(v), "unknown key \"" + k + "\" in [[step]]; a step's keys are " + list);
      }
    }
    lesson.steps.push_back(std::move(step));
  }

  void parse(const toml::table& root) {
    bool has_id = false;
    for (const auto& [key, v] : root) {
      const std::string k(key.str());
      if (k == "id") {
        auto* s = v.as_string();
        if (!s) {
          error(line_of(v), "id must be a string");
        } else if (s->get() != lesson.id) {
          error(line_of(v), "id = \"" + s->get() + "\" must equal the folder name \"" +
                                lesson.id + "\"");
        }
        has_id = true;
      } else if (k == "stage") {
        auto* s = v.as_string();
        if (!s || !find_stage_desc(s->get())) {
          std::string list;
          for (const StageDesc& st : stage_table()) list += std::string(list.empty() ? "" : ", ") + st.id;
          error(line_of(v), "stage must be a kernel stage id from sim/device/gemmlab/stages.def: " + list);
        } else {
          lesson.stage = s->get();
        }
      } else if (k == "title") {
        parse_title(v);
      } else if (k == "step") {
        auto* arr = v.as_array();
        if (!arr) {
          error(line_of(v), "steps are written as [[step]] tables");
          continue;
        }
        for (const auto& item : *arr) {
          if (auto* t = item.as_table())
            parse_step(*t);
          else
            error(line_of(item), "each step must be a [[step]] table");
        }
      } else {
        error(line_of(v), "unknown key \"" + k + "\"; lesson.toml's keys are id, stage, title, "
                                                 "[[step]]");
      }
    }
    inherit_settings(lesson.steps);
    if (!has_id) error(1, "missing id = \"" + lesson.id + "\" (must equal the folder name)");
    if (lesson.steps.empty()) error(0, "the lesson has no [[step]]; add at least one");
  }
};

std::string display_path(const fs::path& p) { return p.lexically_normal().string(); }

void load_lesson_text(Lesson& lesson, const std::string& lang, const std::string& assets_dir) {
  const fs::path path = fs::path(lesson.dir) / (lang + ".md");
  const std::string shown = display_path(path);
  std::string why;
  const PathKind kind = path_kind(path.string(), &why);
  if (kind == PathKind::Missing) {
    if (lang == "en") lesson.errors.push_back({shown, 0, "missing: every lesson needs en.md"});
    return;
  }
  if (kind == PathKind::Error) {
    lesson.errors.push_back({shown, 0, why});
    return;
  }
  std::string problem;
  auto md = read_lesson_file(path, &problem);
  if (!md) {
    lesson.errors.push_back({shown, 0, problem});
    return;
  }
  LessonText text = split_lesson_markdown(*md, shown);
  text.source = *md;
  if (text.steps.size() != lesson.steps.size() && !lesson.steps.empty()) {
    lesson.errors.push_back(
        {shown, text.steps.empty() ? 0 : text.steps.back().line,
         "has " + std::to_string(text.steps.size()) + " \"## \" sections but lesson.toml has " +
             std::to_string(lesson.steps.size()) +
             " [[step]] tables; each step needs one \"## \" section, in the same order"});
  }
  if (const NestingProblem deep = markdown_nesting_problem(*md); !deep.empty())
    lesson.errors.push_back({shown, deep.line, deep.message});
  check_markdown_renders(*md, text, assets_dir, shown, lesson.errors);
  lesson.text[lang] = std::move(text);
}

// <lang>.notes.md beside <lang>.md: each "## " section belongs to the step with the same heading.
void load_lesson_notes(Lesson& lesson, const std::string& lang) {
  const fs::path path = fs::path(lesson.dir) / (lang + ".notes.md");
  const std::string shown = display_path(path);
  std::string why;
  const PathKind kind = path_kind(path.string(), &why);
  if (kind == PathKind::Missing) return;
  if (kind != PathKind::File) {
    lesson.errors.push_back({shown, 0, kind == PathKind::Error ? why : "must be a file"});
    return;
  }
  std::string problem;
  auto md = read_lesson_file(path, &problem);
  if (!md) {
    lesson.errors.push_back({shown, 0, problem});
    return;
  }
  const auto text = lesson.text.find(lang);
  if (text == lesson.text.end()) {
    lesson.errors.push_back({shown, 0, "notes without " + lang + ".md: notes belong to the steps of " + lang + ".md"});
    return;
  }
  const LessonText split = split_lesson_markdown(*md, shown);
  LessonNotes notes;
  notes.file = shown;
  notes.source = *md;
  notes.by_step.assign(text->second.steps.size(), "");
  notes.lines.assign(text->second.steps.size(), 0);
  if (!split.intro.empty())
    lesson.errors.push_back({shown, 1, "text before the first \"## \" heading belongs to no step; "
                                       "start each step's notes with its step's \"## \" heading"});
  for (const StepText& section : split.steps) {
    int step = -1;
    for (size_t i = 0; i < text->second.steps.size() && step < 0; ++i)
      if (text->second.steps[i].title == section.title) step = static_cast<int>(i);
    if (step < 0) {
      std::string headings;
      for (const auto& st : text->second.steps) headings += (headings.empty() ? "\"" : ", \"") + st.title + "\"";
      lesson.errors.push_back({shown, section.line, "notes heading \"" + section.title + "\" matches no step of " +
                                                        text->second.file + "; its step headings are " + headings});
    } else if (notes.lines[step] != 0) {
      lesson.errors.push_back({shown, section.line, "notes heading \"" + section.title + "\" appears twice (first at line " +
                                                        std::to_string(notes.lines[step]) + "); one section per step"});
    } else {
      notes.by_step[step] = section.markdown;
      notes.lines[step] = section.line;
    }
  }
  lesson.notes[lang] = std::move(notes);
}

Lesson load_lesson(const fs::path& course_dir, const std::string& id, const std::string& assets_dir) {
  Lesson lesson;
  lesson.id = id;
  lesson.dir = display_path(course_dir / id);
  const fs::path toml_path = course_dir / id / "lesson.toml";
  LessonParser parser{lesson, display_path(toml_path)};
  std::string why;
  const PathKind toml_kind = path_kind(toml_path.string(), &why);
  if (toml_kind == PathKind::Error) {
    lesson.errors.push_back({parser.file, 0, why});
  } else if (toml_kind == PathKind::Missing) {
    lesson.errors.push_back({parser.file, 0, "missing: every lesson folder needs lesson.toml"});
  } else {
    std::string problem;
    if (auto text = read_lesson_file(toml_path, &problem)) {
      if (const NestingProblem deep = toml_nesting_problem(*text); !deep.empty()) {
        lesson.errors.push_back({parser.file, deep.line, deep.message});
      } else try {
        toml::table root = toml::parse(*text, parser.file);
        parser.parse(root);
      } catch (const toml::parse_error& e) {
        lesson.errors.push_back({parser.file, static_cast<int>(e.source().begin.line),
                                 "TOML syntax: " + std::string(e.description())});
      }
    } else {
      lesson.errors.push_back({parser.file, 0, problem});
    }
  }
  load_lesson_text(lesson, "en", assets_dir);
  load_lesson_text(lesson, "zh", assets_dir);
  load_lesson_notes(lesson, "en");
  load_lesson_notes(lesson, "zh");
  return lesson;
}

bool is_fence(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  return line.compare(i, 3, "```") == 0 || line.compare(i, 3, "~~~") == 0;
}

}  // namespace

LessonText split_lesson_markdown(const std::string& markdown, const std::string& file) {
  LessonText out;
  out.file = file;
  std::istringstream in(markdown);
  std::string line;
  int number = 0;
  bool in_fence = false;
  std::string* body = &out.intro;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (is_fence(line)) in_fence = !in_fence;
    if (!in_fence && line.rfind("## ", 0) == 0) {
      StepText step;
      step.title = line.substr(3);
      while (!step.title.empty() && (step.title.back() == ' ' || step.title.back() == '#'))
        step.title.pop_back();
      step.line = number;
      out.steps.push_back(std::move(step));
      body = &out.steps.back().markdown;
      continue;
    }
    if (!in_fence && out.steps.empty() && out.title.empty() && line.rfind("# ", 0) == 0) {
      out.title = line.substr(2);
      continue;
    }
    *body += line;
    *body += '\n';
  }
  auto trim = [](std::string& s) {
    const auto b = s.find_first_not_of(" \t\n");
    const auto e = s.find_last_not_of(" \t\n");
    s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  trim(out.intro);
  for (auto& s : out.steps) trim(s.markdown);
  return out;
}

std::vector<std::pair<std::string, int>> markdown_images(const std::string& markdown) {
  std::vector<std::pair<std::string, int>> out;
  std::istringstream in(markdown);
  std::string line;
  int number = 0;
  bool in_fence = false;
  while (std::getline(in, line)) {
    ++number;
    if (is_fence(line)) in_fence = !in_fence;
    if (in_fence) continue;
    bool in_code = false;
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      if (line[i] == '`') in_code = !in_code;
      if (in_code || line[i] != '!' || line[i + 1] != '[') continue;
      const auto close = line.find("](", i + 2);
      if (close == std::string::npos) continue;
      auto end = line.find_first_of(" )", close + 2);
      if (end == std::string::npos) continue;
      out.emplace_back(line.substr(close + 2, end - close - 2), number);
      i = end;
    }
  }
  return out;
}

std::vector<unsigned> course_code_points(const Course& course) {
  std::set<unsigned> points;
  auto add = [&](const std::string& s) { add_code_points(s, points); };
  for (const auto& l : course.lessons) {
    for (const auto& [lang, t] : l.title) add(t);
    for (const auto& [lang, t] : l.text) {
      add(t.title);
      add(t.intro);
      for (const auto& s : t.steps) {
        add(s.title);
        add(s.markdown);
      }
    }
    for (const auto& [lang, n] : l.notes)
      for (const auto& s : n.by_step) add(s);
  }
  return {points.begin(), points.end()};
}

Course load_course(const std::string& dir, const std::string& assets_dir) {
  Course course;
  course.dir = dir;
  const fs::path course_toml = fs::path(dir) / "course.toml";
  const std::string shown = display_path(course_toml);
  std::string why;
  const PathKind dir_kind = path_kind(dir, &why);
  if (dir_kind != PathKind::Folder) {
    course.errors.push_back({display_path(dir), 0,
                             dir_kind == PathKind::Error ? why
                                                         : "not a folder: a course is a folder with "
                                                           "course.toml and one folder per lesson"});
    return course;
  }
  if (path_kind(course_toml.string(), nullptr) == PathKind::Missing) {
    course.errors.push_back({shown, 0, "missing: a course needs course.toml with "
                                       "lessons = [\"01-...\", ...]"});
    return course;
  }
  std::string problem;
  auto text = read_lesson_file(course_toml, &problem);
  if (!text) {
    course.errors.push_back({shown, 0, problem});
    return course;
  }
  toml::table root;
  if (const NestingProblem deep = toml_nesting_problem(*text); !deep.empty()) {
    course.errors.push_back({shown, deep.line, deep.message});
    return course;
  }
  try {
    root = toml::parse(*text, shown);
  } catch (const toml::parse_error& e) {
    course.errors.push_back({shown, static_cast<int>(e.source().begin.line),
                             "TOML syntax: " + std::string(e.description())});
    return course;
  }
  std::set<std::string> seen;
  for (const auto& [key, v] : root) {
    const std::string k(key.str());
    if (k == "title") continue;  // optional course title, shown in the lesson list
    if (k != "lessons") {
      course.errors.push_back({shown, line_of(v), "unknown key \"" + k +
                                                      "\"; course.toml has lessons = [...]"});
      continue;
    }
    auto* arr = v.as_array();
    if (!arr) {
      course.errors.push_back({shown, line_of(v), "lessons must be a list of lesson folder names"});
      continue;
    }
    for (const auto& item : *arr) {
      auto* s = item.as_string();
      if (!s || s->get().empty()) {
        course.errors.push_back({shown, line_of(item), "each lesson must be a folder name string"});
        continue;
      }
      const std::string id = s->get();
      if (!seen.insert(id).second) {
        course.errors.push_back({shown, line_of(item), "lesson \"" + id + "\" is listed twice"});
        continue;
      }
      if (id.find('/') != std::string::npos || id == "." || id == "..") {
        course.errors.push_back({shown, line_of(item), "lesson \"" + id +
                                                           "\" must be a folder name, not a path"});
        continue;
      }
      std::string folder_problem;
      const PathKind folder = path_kind((fs::path(dir) / id).string(), &folder_problem);
      if (folder != PathKind::Folder) {
        Lesson missing;
        missing.id = id;
        missing.dir = display_path(fs::path(dir) / id);
        missing.errors.push_back({shown, line_of(item),
                                  "lesson folder \"" + missing.dir + "\" " +
                                      (folder == PathKind::Error ? "cannot be read: " + folder_problem
                                                                 : std::string("does not exist"))});
        course.lessons.push_back(std::move(missing));
        continue;
      }
      course.lessons.push_back(load_lesson(dir, id, assets_dir));
    }
  }
  if (!root.contains("lessons"))
    course.errors.push_back({shown, 0, "missing lessons = [\"01-...\", ...]"});
  return course;
}

}  // namespace gemmlab::app
