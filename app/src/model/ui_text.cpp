#include "model/ui_text.h"
#include "model/ui_catalogue_check.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

#include <nlohmann/json.hpp>

#include "model/files.h"
#include "model/json_text.h"
#include "model/text_breaks.h"

namespace gemmlab::app {
namespace {

struct Catalogue {
  std::string lang = "en";
  std::map<std::string, std::map<std::string, std::string>> by_lang;  // lang -> en -> text
  std::set<std::string> missing;
  std::mutex mutex;  // the Kernels view's worker threads format messages too
};

Catalogue& cat() {
  static Catalogue c;
  return c;
}

}  // namespace

namespace {

// Reads a catalogue: nullopt and *problem when it is not a JSON object of strings at all; entries
// whose format does not match their key's are left out and named in *refused.
std::optional<std::map<std::string, std::string>> read_catalogue(const std::string& path, std::string* problem,
                                                                 std::vector<std::string>* refused) {
  std::string why;
  if (path_kind(path, &why) == PathKind::Missing) {
    *problem = "no UI catalogue";
    return std::nullopt;
  }
  const auto text = read_file_contents(path, &why, kMaxCatalogueBytes);
  if (!text) {
    *problem = why;
    return std::nullopt;
  }
  if (const std::string deep = json_nesting_problem(*text); !deep.empty()) {
    *problem = deep;
    return std::nullopt;
  }
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) {
    *problem = "is not a JSON object of \"English\": \"translation\" pairs";
    return std::nullopt;
  }
  std::map<std::string, std::string> table;
  for (const auto& [en, text] : j.items()) {
    if (!text.is_string()) {
      refused->push_back("the entry \"" + en.substr(0, 80) + "\" is not a string (skipped)");
      continue;
    }
    if (const std::string bad = format_problem(en, text.get<std::string>()); !bad.empty()) {
      refused->push_back("the entry \"" + en.substr(0, 80) + "\" " + bad + " (skipped)");
      continue;
    }
    table[en] = text.get<std::string>();
  }
  return table;
}

}  // namespace

std::vector<std::string> ui_catalogue_problems(const std::string& path) {
  std::string problem;
  std::vector<std::string> refused;
  if (!read_catalogue(path, &problem, &refused)) refused.insert(refused.begin(), problem);
  return refused;
}

std::string set_ui_language(const std::string& lang, const std::string& assets_dir) {
  Catalogue& c = cat();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.lang = lang;
  if (lang == "en" || c.by_lang.count(lang)) return "";
  auto& table = c.by_lang[lang];
  const std::string path = assets_dir + "/i18n/" + lang + ".json";
  std::string problem;
  std::vector<std::string> refused;
  auto read = read_catalogue(path, &problem, &refused);
  if (!read) return path + ": " + problem + "; the menus and views stay in English";
  table = std::move(*read);
  if (refused.empty()) return "";
  return path + ": " + refused.front() + (refused.size() > 1 ? " (and " + std::to_string(refused.size() - 1) + " more)" : "");
}

const std::string& ui_language() { return cat().lang; }

const char* tr(const char* en) {
  Catalogue& c = cat();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.lang == "en" || !en || !*en) return en;
  auto t = c.by_lang.find(c.lang);
  if (t != c.by_lang.end()) {
    auto it = t->second.find(en);
    if (it != t->second.end()) return it->second.c_str();  // std::map nodes never move
  }
  c.missing.insert(en);
  return en;
}

std::string tr(const std::string& en) { return tr(en.c_str()); }

std::string trf(const char* en_format, ...) {
  const char* format = tr(en_format);  // the key's conversions exactly (format_problem, when loaded)
  va_list args, again;
  va_start(args, en_format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(n > 0 ? size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

const char* tr_known(const std::string& text) {
  Catalogue& c = cat();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto t = c.by_lang.find(c.lang);
  if (c.lang != "en" && t != c.by_lang.end())
    if (auto it = t->second.find(text); it != t->second.end()) return it->second.c_str();
  return text.c_str();
}

const std::set<std::string>& untranslated() { return cat().missing; }

void add_code_points(const std::string& s, std::set<unsigned>& points) {
  for (const char *p = s.data(), *end = p + s.size(); p < end;) {
    int len = 0;
    const char32_t cp = decode_utf8(p, end, &len);
    if (cp >= 0x80) points.insert(cp);
    p += len;
  }
}

std::set<unsigned> ui_code_points(const std::string& assets_dir) {
  std::set<unsigned> points;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(assets_dir + "/i18n", ec)) {
    std::string problem;
    std::vector<std::string> refused;
    if (const auto table = read_catalogue(e.path().string(), &problem, &refused))
      for (const auto& [en, text] : *table) add_code_points(text, points);
  }
  add_code_points("中文", points);  // the language button
  return points;
}

namespace {

// The '%' tokens of a string: '%', then what printf reads as flags, width, precision and length,
// then one more character (the conversion, or whatever stands there). "%%" is one token.
std::vector<std::string> percent_tokens(const std::string& f) {
  std::vector<std::string> out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    size_t j = i + 1;
    if (j < f.size() && f[j] == '%') {
      out.push_back("%%");
      i = j;
      continue;
    }
    while (j < f.size() && std::string("-+ #0123456789.*$'lhjztLqI").find(f[j]) != std::string::npos) ++j;
    out.push_back(f.substr(i, std::min(j + 1, f.size()) - i));
    i = std::min(j, f.size() - 1);
  }
  return out;
}

// %d %i %u %x %X %c %s %f %e %g with flags - + 0, a width, a precision and l ll z; or %%.
bool allowed_conversion(const std::string& t) {
  if (t == "%%") return true;
  size_t i = 1;
  while (i < t.size() && (t[i] == '-' || t[i] == '+' || t[i] == '0')) ++i;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  }
  if (t.compare(i, 2, "ll") == 0) i += 2;
  else if (i < t.size() && (t[i] == 'l' || t[i] == 'z')) ++i;
  return i + 1 == t.size() && std::string("diuxXcsfeg").find(t[i]) != std::string::npos;
}

// printf would take the token as a conversion (whatever its flags): it ends in one.
bool is_conversion(const std::string& t) {
  return t.size() > 1 && std::string("diouxXfFeEgGaAcspnmCS%").find(t.back()) != std::string::npos;
}

}  // namespace

std::string format_problem(const std::string& key, const std::string& translation) {
  const auto k = percent_tokens(key), t = percent_tokens(translation);
  // A key with a conversion no format of ours has ("c % 8 of word" reads as "% 8 o") is plain
  // text, never a format: its translation may hold no conversion at all.
  bool plain_text = false;
  for (const auto& x : k) plain_text |= is_conversion(x) && !allowed_conversion(x);
  if (plain_text) {
    for (const auto& x : t)
      if (is_conversion(x) && x != "%%") return "has the conversion \"" + x + "\" where the English is plain text";
    return "";
  }
  if (k.size() != t.size())
    return "has " + std::to_string(t.size()) + " '%' conversions where the English has " + std::to_string(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    const bool plain = !is_conversion(k[i]);  // "% 4 (" in a sentence
    if (plain ? is_conversion(t[i]) : t[i] != k[i])
      return "conversion " + std::to_string(i + 1) + " is \"" + t[i] + "\" where the English has \"" + k[i] + "\"";
  }
  return "";
}

std::string printf_conversions(const std::string& f) {
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') continue;
    if (i + 1 < f.size() && f[i + 1] == '%') {
      ++i;
      continue;
    }
    // No space flag: "lane % 4 (PTX ...)" in plain text is not a conversion, and our formats never use it.
    size_t j = i + 1;
    while (j < f.size() && std::string("-+#0123456789.*lhzjt").find(f[j]) != std::string::npos) ++j;
    if (j < f.size() && std::string("diuoxXfFeEgGaAcspn").find(f[j]) != std::string::npos) {
      // Flags and width may differ ("%5.1f" and "%.1f" read the same double); the length and type may not.
      std::string conv;
      for (size_t k = i + 1; k <= j; ++k)
        if (std::string("*lhzjt").find(f[k]) != std::string::npos || k == j) conv += f[k];
      out += (out.empty() ? "" : " ") + conv;
    }
    i = j;
  }
  return out;
}

std::string fmt_int(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

}  // namespace gemmlab::app
