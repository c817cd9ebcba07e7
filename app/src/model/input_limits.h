// Limits on what a course may ask the app to parse and draw, checked before a third-party parser
// (toml++, md4c) or ImGui sees the input, so that the checker and the renderer refuse the same
// things. lessons/FORMAT.md ("Limits") lists them for writers.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gemmlab::app {

constexpr int kMaxTomlDepth = 32;        // tables, arrays and dotted keys, together
constexpr int kMaxMarkdownNesting = 32;  // block quotes + list levels; open [ brackets and ]( links
constexpr std::size_t kMaxTableColumns = 64;  // ImGui 1.86's IMGUI_TABLE_MAX_COLUMNS

struct NestingProblem {
  int line = 0;         // 1-based
  std::string message;  // "" = none
  bool empty() const { return message.empty(); }
};
// What nests too deep, and its line: "arrays and tables nest more than 32 deep". Strings and
// comments do not count.
NestingProblem toml_nesting_problem(std::string_view text, int max_depth = kMaxTomlDepth);
// The first line where block quotes and list levels, or open brackets and link targets within a
// paragraph, nest more than max_depth deep (md4c's work on 100,000 open '[' grows with their
// square).
NestingProblem markdown_nesting_problem(std::string_view text, int max_depth = kMaxMarkdownNesting);

struct Diagnostic;  // model/lesson_format.h
struct LessonText;

// What the lesson panel would refuse to draw in a lesson file (`source`, split into `text`), found
// the way the panel finds it (md4c's blocks and image spans, not a second reading of the
// Markdown): tables wider than kMaxTableColumns (at the step's line), images
// lesson_image_problem() refuses (at the image's line). Added to `errors`, for `lessons --check`.
void check_markdown_renders(const std::string& source, const LessonText& text, const std::string& assets_dir,
                            const std::string& file, std::vector<Diagnostic>& errors);

}  // namespace gemmlab::app
