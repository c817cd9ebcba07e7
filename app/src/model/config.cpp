#include "model/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/files.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string config_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return (fs::path(xdg) / "gemmlab" / "config.json").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / ".config" / "gemmlab" / "config.json").string();
  return "gemmlab-config.json";
}

namespace {

// Reads one settings object key by key: a value of the wrong type or outside its limits keeps
// that setting's default and is named in `bad`; every other key is still read (one typo does
// not cost the learner their progress). NaN, infinities and 1e300 never reach an int.
struct SettingsReader {
  const Json& j;
  const std::string where;  // "" or "window."
  std::vector<std::string>& bad;

  template <class T>
  T number(const char* key, T lo, T hi, T fallback) const {
    if (!j.contains(key)) return fallback;
    const Json& v = j[key];
    if (v.is_number()) {
      const double x = v.get<double>();
      if (x >= double(lo) && x <= double(hi)) return static_cast<T>(x);
    }
    std::ostringstream used;
    used << fallback;
    bad.push_back(where + key + " = " + v.dump().substr(0, 40) + " is not a number from " + std::to_string(lo) +
                  " to " + std::to_string(hi) + " (using " + used.str() + ")");
    return fallback;
  }
  std::string text(const char* key, const std::string& fallback, std::size_t max_length = 4096) const {
    if (!j.contains(key)) return fallback;
    if (j[key].is_string() && j[key].get<std::string>().size() <= max_length) return j[key].get<std::string>();
    bad.push_back(where + key + " = " + j[key].dump().substr(0, 40) + " is not a text (using \"" + fallback + "\")");
    return fallback;
  }
  bool flag(const char* key, bool fallback) const {
    if (!j.contains(key)) return fallback;
    if (j[key].is_boolean()) return j[key].get<bool>();
    bad.push_back(where + key + " = " + j[key].dump().substr(0, 40) + " is not true or false (using " +
                  (fallback ? "true" : "false") + ")");
    return fallback;
  }
};

}  // namespace

std::string course_key(const std::string& course_dir, const std::string& shipped_course_dir) {
  std::error_code ec, ec2;
  const fs::path a = fs::weakly_canonical(fs::absolute(course_dir, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(shipped_course_dir, ec2), ec2);
  if (!ec && !ec2 && a == b) return "";
  return (ec ? fs::path(course_dir) : a).lexically_normal().string();
}

std::string progress_key(const std::string& course_key, const std::string& lesson_id) {
  return course_key.empty() ? lesson_id : course_key + "|" + lesson_id;
}

Config load_config(const std::string& path, std::string* problem) {
  Config c;
  std::error_code ec;
  if (!fs::exists(path, ec)) return c;  // first run
  std::string why;
  // A regular file of at most 1 MiB: a FIFO or a device would block or never end.
  const auto text = read_file_contents(path, &why, 1u << 20);
  if (!text) {
    if (problem) *problem = path + ": " + why + "; using default settings";
    return c;
  }
  Json j;
  try {
    j = Json::parse(*text);
  } catch (const std::exception& e) {
    if (problem) *problem = path + ": not JSON, using default settings (" + e.what() + ")";
    return c;
  }
  if (!j.is_object()) {
    if (problem) *problem = path + ": not a JSON object, using default settings";
    return c;
  }
  std::vector<std::string> bad;
  const SettingsReader r{j, "", bad};
  c.last_course = r.text("last_course", c.last_course, 4096);
  c.last_lesson = r.text("last_lesson", c.last_lesson, 256);
  c.last_step = r.number("last_step", 0, 100000, c.last_step);
  c.lang = r.text("lang", c.lang, 8);
  if (c.lang != "en" && c.lang != "zh") {
    bad.push_back("lang = \"" + c.lang + "\" is not en or zh (using en)");
    c.lang = "en";
  }
  if (j.contains("progress") && j["progress"].is_object()) {
    const SettingsReader p{j["progress"], "progress.", bad};
    for (const auto& [id, n] : j["progress"].items())
      if (id.size() <= 4096 + 1 + 256 && c.progress.size() < 10000) {
        const int steps = p.number(id.c_str(), 0, 100000, -1);
        if (steps >= 0) c.progress[id] = steps;
      }
  } else if (j.contains("progress")) {
    bad.push_back("progress is not an object of lesson id: steps seen (none kept)");
  }
  if (j.contains("window") && j["window"].is_object()) {
    const SettingsReader w{j["window"], "window.", bad};
    c.window_x = w.number("x", -kMaxWindowSide, kMaxWindowSide, c.window_x);
    c.window_y = w.number("y", -kMaxWindowSide, kMaxWindowSide, c.window_y);
    c.window_w = w.number("w", 320, kMaxWindowSide, c.window_w);
    c.window_h = w.number("h", 240, kMaxWindowSide, c.window_h);
    c.window_maximized = w.flag("maximized", false);
  }
  c.lesson_panel_width = r.number("lesson_panel_width", 0.f, float(kMaxWindowSide), 0.f);
  c.font_size = r.number("font_size", 0.f, kMaxFontSize, 0.f);
  c.export_dir = r.text("export_dir", std::string());
  if (!bad.empty() && problem) {
    *problem = path + ": kept the other settings; ";
    for (size_t i = 0; i < bad.size(); ++i) *problem += (i ? "; " : "") + bad[i];
  }
  return c;
}

std::string save_config(const Config& c, const std::string& path) {
  Json j;
  j["last_course"] = c.last_course;
  j["last_lesson"] = c.last_lesson;
  j["last_step"] = c.last_step;
  j["lang"] = c.lang;
  j["progress"] = c.progress;
  j["window"] = {{"x", c.window_x}, {"y", c.window_y}, {"w", c.window_w}, {"h", c.window_h},
                 {"maximized", c.window_maximized}};
  j["lesson_panel_width"] = c.lesson_panel_width;
  j["font_size"] = c.font_size;
  j["export_dir"] = c.export_dir;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) return "cannot write " + tmp;
    out << j.dump(2) << "\n";
    if (!out) return "cannot write " + tmp;
  }
  fs::rename(tmp, path, ec);
  if (ec) return "cannot replace " + path + ": " + ec.message();
  return {};
}

}  // namespace gemmlab::app
