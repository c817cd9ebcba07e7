#include "words.h"

namespace gemmlab::exercise {
namespace {

int placeholders(const std::string& f) {
  int n = 0;
  for (size_t i = 0; i + 1 < f.size(); ++i)
    if (f[i] == '%') {
      n += f[i + 1] == 's';
      ++i;  // "%%" and "%s" are two characters
    }
  return n;
}

}  // namespace

std::string Words::text(const Translate& translate) const {
  if (literal) return format;
  std::string f = translate ? translate(format) : format;
  if (placeholders(f) != static_cast<int>(args.size())) f = format;
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%' || i + 1 == f.size()) {
      out += f[i];
      continue;
    }
    const char c = f[++i];
    if (c == 's' && next < args.size()) out += args[next++].text(translate);
    else if (c == '%') out += '%';
    else out += '%', out += c;  // plain text ("lane % 4")
  }
  return out;
}

void Words::templates(std::vector<std::string>& out) const {
  if (literal) return;
  out.push_back(format);
  for (const Words& a : args) a.templates(out);
}

}  // namespace gemmlab::exercise
