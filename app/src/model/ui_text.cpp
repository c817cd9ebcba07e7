#include "model/ui_text.h"

#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

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

std::string set_ui_language(const std::string& lang, const std::string& assets_dir) {
  Catalogue& c = cat();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.lang = lang;
  if (lang == "en" || c.by_lang.count(lang)) return "";
  auto& table = c.by_lang[lang];
  const std::string path = assets_dir + "/i18n/" + lang + ".json";
  std::ifstream in(path);
  if (!in) return "no UI catalogue " + path + ": the menus and views stay in English";
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) return path + " is not a JSON object of \"English\": \"translation\" pairs; the UI stays in English";
  std::string problem;
  for (const auto& [en, text] : j.items()) {
    if (!text.is_string()) {
      problem = path + ": the entry \"" + en + "\" is not a string (skipped)";
      continue;
    }
    if (printf_conversions(en) != printf_conversions(text.get<std::string>())) {
      problem = path + ": the entry \"" + en + "\" has other printf conversions than its key (skipped)";
      continue;
    }
    table[en] = text.get<std::string>();
  }
  return problem;
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
  const char* format = tr(en_format);  // same conversions as the key (checked when loaded)
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
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object()) continue;
    for (const auto& [en, text] : j.items())
      if (text.is_string()) add_code_points(text.get<std::string>(), points);
  }
  add_code_points("中文", points);  // the language button
  return points;
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
