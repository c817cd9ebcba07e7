// The rules learner text keeps (lessons/FORMAT.md, "Text rules"), as `gemmlab lessons --check`
// applies them: a step's main text at most kMaxStepWords words, and no dates, clock times,
// wattages or commit hashes in lesson text or notes (a lab notebook's marks, not a course's).
#pragma once
#include <string>
#include <vector>

#include "model/lesson_format.h"

namespace gemmlab::app {

constexpr int kMaxStepWords = 180;  // the brief asks for ~150; the checker refuses more than this

// Words a learner reads: each run of Latin letters / digits (with the ' - . / _ inside it) is one
// word, and every two CJK characters are one (rounded up), so Chinese and English steps of the
// same content count alike. Markdown link and image targets are not read, so not counted.
int count_words(const std::string& markdown);

// What in one line of learner text looks like a date ("2026-11-27", "2026年11月27日"), a clock
// time ("14:12Z", "11:0xZ", "21:30 UTC"), a wattage ("690 W", "700W") or a commit hash (7 to 40
// hex digits with a digit and a letter, e.g. "3fe3dce"); empty when nothing does.
struct TextMark {
  std::string kind;  // "date", "clock time", "wattage", "commit hash"
  std::string text;  // as found
};
std::vector<TextMark> find_lab_marks(const std::string& line);

// Every rule above over a loaded course, with file:line of each problem.
std::vector<Diagnostic> check_text_rules(const Course& course);

}  // namespace gemmlab::app
