#include "model/input_limits.h"

#include <algorithm>

#include "model/files.h"
#include "model/lesson_format.h"
#include "model/markdown_doc.h"

namespace gemmlab::app {

namespace {

NestingProblem at_line(int line, const std::string& what) { return {line, what}; }

}  // namespace

NestingProblem toml_nesting_problem(std::string_view t, int max_depth) {
  int depth = 0, line = 1, dots = 0;
  bool key_part = true;  // before the '=' of a key/value, or in a [table] header
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
      dots = 0;
      if (depth == 0) key_part = true;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of the line
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {  // a string: basic, literal or multi-line
      const bool triple = t.substr(i, 3) == std::string(3, c);
      const std::size_t from = i + (triple ? 3 : 1);
      std::size_t j = from;
      for (; j < t.size(); ++j) {
        if (c == '"' && t[j] == '\\') {
          ++j;
          continue;
        }
        if (t[j] == '\n') {
          if (!triple) break;
          ++line;
        }
        if (t[j] == c && (!triple || t.substr(j, 3) == std::string(3, c))) break;
      }
      i = triple ? j + 2 : j;
      continue;
    }
    if (c == '[' || c == '{') {
      if (c == '{') key_part = true;
      if (++depth + dots > max_depth)
        return at_line(line, "arrays and tables nest more than " + std::to_string(max_depth) + " deep");
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == '=') {
      key_part = false;
      dots = 0;
    } else if (c == ',' && depth > 0) {
      key_part = true;  // the next key of an inline table (in an array, dots reset per value)
      dots = 0;
    } else if (c == '.' && key_part) {
      if (++dots + depth > max_depth)
        return at_line(line, "dotted keys nest more than " + std::to_string(max_depth) + " deep");
    }
  }
  return {};
}

NestingProblem markdown_nesting_problem(std::string_view t, int max_depth) {
  int line = 0, brackets = 0, link_targets = 0;
  bool in_fence = false;
  std::size_t start = 0;
  while (start < t.size()) {
    std::size_t end = t.find('\n', start);
    if (end == std::string_view::npos) end = t.size();
    const std::string_view s = t.substr(start, end - start);
    start = end + 1;
    ++line;
    std::size_t i = 0;
    int containers = 0, spaces = 0;
    for (; i < s.size(); ++i) {  // the line's container prefix: "> > - 1. "
      if (s[i] == '>') ++containers, spaces = 0;
      else if (s[i] == ' ') ++spaces;
      else if (s[i] == '\t') spaces += 4;
      else break;
    }
    containers += spaces / 2;  // a nested list item is indented by at least two more spaces
    const std::string_view rest = s.substr(i);
    if (rest.substr(0, 3) == "```" || rest.substr(0, 3) == "~~~") in_fence = !in_fence;
    if (in_fence) continue;
    if (containers > max_depth)
      return at_line(line, "block quotes and lists nest more than " + std::to_string(max_depth) + " deep");
    if (rest.empty()) brackets = link_targets = 0;  // a blank line ends the paragraph
    bool code = false;
    for (std::size_t k = 0; k < rest.size(); ++k) {
      const char c = rest[k];
      if (c == '\\') {
        ++k;
      } else if (c == '`') {
        code = !code;
      } else if (code) {
      } else if (c == '[') {
        if (++brackets > max_depth)
          return at_line(line, "more than " + std::to_string(max_depth) + " '[' open at once (links nest too deep)");
      } else if (c == ']') {
        if (brackets > 0) --brackets;
        if (k + 1 < rest.size() && rest[k + 1] == '(' && ++link_targets > max_depth)
          return at_line(line, "more than " + std::to_string(max_depth) + " link targets \"](\" left open");
      } else if (c == ')' && link_targets > 0) {
        --link_targets;
      }
    }
  }
  return {};
}

namespace {

// Lines of a lesson file, for naming the line of an image md4c found in it.
struct SourceLines {
  const std::string& text;
  std::vector<std::size_t> starts{0};
  std::size_t cursor = 0;  // images are met in order: each search starts after the last one
  explicit SourceLines(const std::string& t) : text(t) {
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i] == '\n') starts.push_back(i + 1);
  }
  // The line of the next "](href" at or after line `from`, else `from`.
  int line_of(const std::string& href, int from) {
    const std::size_t begin = std::max(cursor, starts[std::min<std::size_t>(std::max(from, 1) - 1, starts.size() - 1)]);
    const std::size_t at = text.find("](" + href, begin);
    if (at == std::string::npos) return from;
    cursor = at + 1;
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), at) - starts.begin());
  }
};

void check_blocks(const std::string& markdown, int line, SourceLines& source, const std::string& assets_dir,
                  const std::string& file, std::vector<Diagnostic>& errors) {
  if (markdown_nesting_problem(markdown).message.size()) return;  // named once, by the caller
  auto check_spans = [&](const std::vector<MdSpan>& spans) {
    for (const MdSpan& span : spans)
      if (span.image)
        if (const std::string why = lesson_image_problem(assets_dir, span.href); !why.empty())
          errors.push_back({file, source.line_of(span.href, line), "image \"" + span.href + "\" " + why});
  };
  for (const MdBlock& b : parse_markdown(markdown)) {
    check_spans(b.spans);
    std::size_t columns = 0;
    for (const auto& row : b.rows) {
      columns = std::max(columns, row.size());
      for (const auto& cell : row) check_spans(cell);
    }
    if (columns > kMaxTableColumns)
      errors.push_back({file, line, "a table of " + std::to_string(columns) + " columns; the lesson panel draws at most " +
                                        std::to_string(kMaxTableColumns)});
  }
}

}  // namespace

void check_markdown_renders(const std::string& source, const LessonText& text, const std::string& assets_dir,
                            const std::string& file, std::vector<Diagnostic>& errors) {
  SourceLines lines(source);
  check_blocks(text.intro, 1, lines, assets_dir, file, errors);
  for (const StepText& step : text.steps) check_blocks(step.markdown, step.line, lines, assets_dir, file, errors);
}

}  // namespace gemmlab::app
