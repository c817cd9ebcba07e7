#include "model/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

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

// A number setting inside [lo, hi], else the fallback: NaN, infinities, 1e300 and strings never
// reach an int or a window size (the app starts with its defaults for that key).
template <class T>
T number_in(const Json& j, const char* key, T lo, T hi, T fallback) {
  if (!j.contains(key) || !j[key].is_number()) return fallback;
  const double v = j[key].get<double>();
  if (!(v >= double(lo) && v <= double(hi))) return fallback;
  return static_cast<T>(v);
}

}  // namespace

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
  try {
    const Json j = Json::parse(*text);
    c.last_lesson = j.value("last_lesson", c.last_lesson);
    c.last_step = number_in(j, "last_step", 0, 100000, c.last_step);
    c.lang = j.value("lang", c.lang);
    if (c.lang != "en" && c.lang != "zh") c.lang = "en";
    if (j.contains("progress") && j["progress"].is_object())
      for (const auto& [id, n] : j["progress"].items())
        if (n.is_number_integer() && n.get<long long>() >= 0 && n.get<long long>() <= 100000 && id.size() <= 256 &&
            c.progress.size() < 10000)
          c.progress[id] = n.get<int>();
    if (j.contains("window") && j["window"].is_object()) {
      const Json& w = j["window"];
      c.window_x = number_in(w, "x", -kMaxWindowSide, kMaxWindowSide, c.window_x);
      c.window_y = number_in(w, "y", -kMaxWindowSide, kMaxWindowSide, c.window_y);
      c.window_w = number_in(w, "w", 320, kMaxWindowSide, c.window_w);
      c.window_h = number_in(w, "h", 240, kMaxWindowSide, c.window_h);
      c.window_maximized = w.contains("maximized") && w["maximized"].is_boolean() && w["maximized"].get<bool>();
    }
    c.lesson_panel_width = number_in(j, "lesson_panel_width", 0.f, float(kMaxWindowSide), 0.f);
    c.font_size = number_in(j, "font_size", 0.f, kMaxFontSize, 0.f);
    c.export_dir = j.value("export_dir", std::string());
  } catch (const std::exception& e) {
    if (problem) *problem = path + ": unreadable settings, using defaults (" + e.what() + ")";
    return Config{};
  }
  return c;
}

std::string save_config(const Config& c, const std::string& path) {
  Json j;
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
