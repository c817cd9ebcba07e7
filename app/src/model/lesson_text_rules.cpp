#include "model/lesson_text_rules.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace gemmlab::app {
namespace {

// Decodes one UTF-8 code point at s[i] and advances i (a broken byte counts as itself).
unsigned next_code_point(const std::string& s, size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  unsigned cp = extra == 3 ? b & 0x07 : extra == 2 ? b & 0x0F : extra == 1 ? b & 0x1F : b;
  ++i;
  for (; extra > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; --extra, ++i)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

bool is_cjk(unsigned cp) {
  return (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x3040 && cp <= 0x30FF) ||
         (cp >= 0xAC00 && cp <= 0xD7AF);
}

// Letters and digits of any script but CJK; punctuation blocks (general, CJK, fullwidth) are not.
bool is_word_char(unsigned cp) {
  if (cp < 0x80) return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  if (cp >= 0x2000 && cp <= 0x2BFF) return false;  // punctuation, arrows, symbols, box drawing
  if (cp >= 0x3000 && cp <= 0x303F) return false;  // CJK punctuation
  if (cp >= 0xFF00 && cp <= 0xFFEF) return false;  // fullwidth forms
  return !is_cjk(cp);
}

// Joins letters into one word when between two of them: "don't", "cp.async", "k-tile", "A/B".
bool is_joiner(unsigned cp) { return cp == '\'' || cp == '-' || cp == '.' || cp == '/' || cp == '_' || cp == 0x2019; }

// The Markdown without link / image targets: "[text](target)" -> "[text]". A hand scan, not a
// std::regex: libstdc++'s regex recurses once per character matched and a long line would
// exhaust the stack.
std::string without_link_targets(const std::string& md) {
  std::string out;
  out.reserve(md.size());
  for (size_t i = 0; i < md.size(); ++i) {
    out += md[i];
    if (md[i] != ']' || i + 1 >= md.size() || md[i + 1] != '(') continue;
    const size_t close = md.find_first_of(")\n", i + 2);
    if (close != std::string::npos && md[close] == ')') i = close;
  }
  return out;
}

}  // namespace

int count_words(const std::string& markdown) {
  const std::string text = without_link_targets(markdown);
  int latin = 0, cjk = 0;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    const unsigned cp = next_code_point(text, i);
    if (is_cjk(cp)) {
      ++cjk;
      in_word = false;
    } else if (is_word_char(cp)) {
      if (!in_word) ++latin;
      in_word = true;
    } else if (in_word && is_joiner(cp)) {
      size_t j = i;  // a joiner keeps the word going only when a letter or digit follows
      in_word = j < text.size() && is_word_char(next_code_point(text, j));
    } else {
      in_word = false;
    }
  }
  return latin + (cjk + 1) / 2;
}

std::vector<TextMark> find_lab_marks(const std::string& line) {
  struct Pattern {
    const char* kind;
    std::regex re;
  };
  static const std::vector<Pattern> patterns = [] {
    const char* month = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?";
    std::vector<Pattern> p;
    p.push_back({"date", std::regex(R"(\b(19|20)\d\d[-/.](0?[1-9]|1[0-2])[-/.](0?[1-9]|[12]\d|3[01])\b)")});
    p.push_back({"date", std::regex(R"((19|20)\d\d\s*年\s*\d{1,2}\s*月(\s*\d{1,2}\s*日)?)")});
    p.push_back({"date", std::regex(std::string("\\b") + month + " \\d{1,2},? (19|20)\\d\\d\\b")});
    p.push_back({"date", std::regex(std::string("\\b\\d{1,2} ") + month + ",? (19|20)\\d\\d\\b")});
    // 14:12Z, 11:0xZ (a minute left open), 21:30 UTC, 14:12:45, and a two-digit hh:mm.
    p.push_back({"clock time", std::regex(R"(\b([01]?\d|2[0-3]):[0-5][0-9x](:[0-5]\d)?\s?(Z|UTC|GMT)\b)")});
    p.push_back({"clock time", std::regex(R"(\b([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?\b)")});
    p.push_back({"wattage", std::regex(R"(\b\d+(\.\d+)?\s?(W|kW|watts?|Watts?)\b)")});
    p.push_back({"wattage", std::regex(R"(\d+(\.\d+)?\s?瓦)")});
    p.push_back({"commit hash", std::regex(R"(\b[0-9a-f]{7,40}\b)")});
    return p;
  }();
  std::vector<TextMark> out;
  std::vector<std::pair<size_t, size_t>> taken;  // a piece of text is named once, by the first pattern
  // Windows of kWindow characters overlapping by more than any mark is long: libstdc++'s regex
  // recurses per character matched, so a run of a million digits must not reach it whole.
  constexpr size_t kWindow = 1024, kOverlap = 64;
  constexpr size_t kMaxMarks = 20;  // per line: enough to name the problem, bounded on hostile input
  for (const Pattern& p : patterns) {
    for (size_t start = 0; start == 0 || start + kOverlap < line.size(); start += kWindow - kOverlap) {
      const std::string window = line.substr(start, kWindow);
      for (std::sregex_iterator it(window.begin(), window.end(), p.re), end; it != end; ++it) {
        const std::string found = it->str();
        const size_t b = start + static_cast<size_t>(it->position()), e = b + found.size();
        if (std::any_of(taken.begin(), taken.end(), [&](auto r) { return b < r.second && r.first < e; })) continue;
        if (std::string(p.kind) == "commit hash") {
          const bool digit = found.find_first_of("0123456789") != std::string::npos;
          const bool letter = found.find_first_of("abcdef") != std::string::npos;
          if (!digit || !letter) continue;
        }
        taken.emplace_back(b, e);
        out.push_back({p.kind, found});
        if (out.size() >= kMaxMarks) return out;
      }
    }
  }
  return out;
}

namespace {

void check_marks(const std::string& file, const std::string& source, std::vector<Diagnostic>& out) {
  std::istringstream in(source);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    for (const TextMark& m : find_lab_marks(line))
      out.push_back({file, number, "\"" + m.text + "\" looks like a " + m.kind +
                                       "; lesson text and notes hold none (a measured number is a "
                                       "placeholder: lessons/FORMAT.md)"});
}

}  // namespace

std::vector<Diagnostic> check_text_rules(const Course& course) {
  std::vector<Diagnostic> out;
  for (const Lesson& lesson : course.lessons) {
    for (const auto& [lang, text] : lesson.text) {
      for (size_t i = 0; i < text.steps.size(); ++i) {
        const StepText& step = text.steps[i];
        const int words = count_words(step.markdown) + (i == 0 ? count_words(text.intro) : 0);
        if (words > kMaxStepWords)
          out.push_back({text.file, step.line,
                         "step " + std::to_string(i + 1) + " (\"" + step.title + "\") has " +
                             std::to_string(words) + " words" + (i == 0 && !text.intro.empty() ? " with the intro" : "") +
                             "; a step's main text has at most " + std::to_string(kMaxStepWords) +
                             " (aim for 150): move depth into " + lang + ".notes.md under the same heading"});
      }
      check_marks(text.file, text.source, out);
    }
    for (const auto& [lang, notes] : lesson.notes) check_marks(notes.file, notes.source, out);
  }
  return out;
}

}  // namespace gemmlab::app
