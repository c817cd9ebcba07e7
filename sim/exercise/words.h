// A verdict's sentence as a template and its arguments, so that the app can show it in the
// learner's language while the command line and the tests read English: the graders (which must
// not depend on the app) write words("offset %s of %s is outside the 8 KB tile", 4100, where),
// the app renders it with its UI catalogue (model/ui_text.h: the template is a key of
// assets/i18n/<lang>.json) and `gemmlab exercise` with text().
//   - `format` is English with one "%s" per argument and "%%" for a percent sign; nothing else
//     is a conversion. The catalogue refuses a translation whose conversions differ from its
//     key's, so a translation has the same "%s", filled in the key's order (write the English so
//     that the arguments can keep it); text() still checks the count and falls back to the
//     English when it differs.
//   - An argument is Words itself (a phrase translated too: words("inner")) or literal text (a
//     number, a name, code, the compiler's line: never translated).
#pragma once
#include <concepts>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gemmlab::exercise {

struct Words {
  std::string format;       // the template, a UI catalogue key; the text itself when `literal`
  std::vector<Words> args;
  bool literal = false;

  // The template's translation (the app: tr); none: English.
  using Translate = std::function<std::string(const std::string& format)>;
  std::string text(const Translate& translate = nullptr) const;
  bool empty() const { return format.empty() && args.empty(); }
  // Every template in this sentence, its arguments' included (for the catalogue's tests).
  void templates(std::vector<std::string>& out) const;
};

inline Words literal(std::string text) { return Words{std::move(text), {}, true}; }

namespace detail {
inline Words word_arg(Words w) { return w; }
inline Words word_arg(const std::string& s) { return literal(s); }
inline Words word_arg(const char* s) { return literal(s); }
template <std::integral T>
Words word_arg(T v) { return literal(std::to_string(v)); }
}  // namespace detail

// words("k-tile %s of block (m %s, n %s)", k, m, n): numbers and strings become literal text.
// The template is a string literal written in the call itself (never a variable or a ?: of two):
// the catalogue's test finds every template in the sources that way.
template <class... A>
Words words(const char* format, A&&... args) {
  return Words{format, {detail::word_arg(std::forward<A>(args))...}, false};
}

}  // namespace gemmlab::exercise
