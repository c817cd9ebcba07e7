// The course on disk (lessons/FORMAT.md) as data: course.toml, each lesson's lesson.toml and its
// en.md / zh.md split into steps. Parsing never throws; every problem becomes a Diagnostic with
// the file and line, and a broken lesson keeps its place in the course so the app can show why.
#pragma once
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gemmlab::app {

using Json = nlohmann::json;

struct Diagnostic {
  std::string file;
  int line = 0;  // 1-based; 0 when the problem is the whole file
  std::string message;
  std::string text() const;  // "file:line: message"
};

struct PredictSpec {
  std::string quantity;  // one of known_predict_quantities()
  double tolerance = 0;
  Json extra = Json::object();  // further keys, e.g. element = [row, col]
  std::vector<std::string> shows;  // clue facts the step leaves on screen (model/predict_rules.h)
  int line = 0;
  // A learner's guess counts as right within the step's tolerance (exact answers: within 1e-9).
  bool accepts(double guess, double answer) const { return std::abs(guess - answer) <= tolerance + 1e-9; }
};

struct LessonStep {
  // After inheritance (FORMAT.md): the step before's view and settings, key by key, overridden by
  // what this step writes, so a step looks the same however the learner got to it.
  std::string view;                // view in front; empty only while no step so far named one
  Json settings = Json::object();  // {"banks": {...}, "grid": {...}}: validated against the schema
  // What lesson.toml says for this step itself: walking on with Next applies only these views, so
  // what the learner changed in other views stays.
  bool names_view = false;
  Json written = Json::object();
  std::optional<PredictSpec> predict;
  bool shows_error = false;        // the view's error message is the point (a rule being broken)
  std::string exercise;            // [step.exercise] id: an exercise of the course (lessons/FORMAT.md)
  int exercise_line = 0;
  int line = 0;                    // of the [[step]] header in lesson.toml
};

struct StepText {
  std::string title;     // the "## " heading
  std::string markdown;  // body below the heading
  int line = 0;
};

struct LessonText {
  std::string file;
  std::string source;    // the file as read (the checker's text rules report its lines)
  std::string title;     // the optional "# " line
  std::string intro;     // text before the first "## " (shown above step 1)
  std::vector<StepText> steps;
};

// <lang>.notes.md: depth a learner may open under a step. Its "## " headings equal the headings of
// the steps they belong to, in the same language.
struct LessonNotes {
  std::string file;
  std::string source;
  std::vector<std::string> by_step;  // notes of step i (Markdown); "" where the step has none
  std::vector<int> lines;            // line of step i's notes heading (0 = none)
};

struct Lesson {
  std::string id;
  std::string dir;    // folder of the lesson
  std::string stage;  // optional kernel stage id
  std::map<std::string, std::string> title;    // by language
  std::vector<LessonStep> steps;
  std::map<std::string, LessonText> text;      // by language ("en", "zh")
  std::map<std::string, LessonNotes> notes;    // by language; absent where there is no notes file
  std::vector<Diagnostic> errors;

  bool ok() const { return errors.empty(); }
  std::vector<std::string> languages() const;
  // Title and step text in `lang`, falling back to English, then to the id.
  std::string title_in(const std::string& lang) const;
  const StepText* step_text(const std::string& lang, int step) const;
  const LessonText* text_in(const std::string& lang) const;
  // The step's notes in `lang` (English when that language has no notes file); nullptr if none.
  const std::string* notes_in(const std::string& lang, int step) const;
};

struct Course {
  std::string dir;
  std::vector<Lesson> lessons;
  std::vector<Diagnostic> errors;  // of course.toml itself

  std::vector<Diagnostic> all_errors() const;
  int index_of(const std::string& id) const;  // -1 when absent
};

// assets_dir: where image paths in the Markdown resolve (checked to exist).
Course load_course(const std::string& dir, const std::string& assets_dir);

// Split one language's Markdown into its title, intro and "## " steps (fenced code respected).
LessonText split_lesson_markdown(const std::string& markdown, const std::string& file);

// Image paths ![alt](path) used in a Markdown text, with their line numbers.
std::vector<std::pair<std::string, int>> markdown_images(const std::string& markdown);

// Every UTF-8 code point used in the course's text and titles (to build font glyph ranges).
std::vector<unsigned> course_code_points(const Course& course);

}  // namespace gemmlab::app
