#include "model/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

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

Config load_config(const std::string& path, std::string* problem) {
  Config c;
  std::ifstream in(path);
  if (!in) return c;  // first run
  try {
    const Json j = Json::parse(in);
    c.last_lesson = j.value("last_lesson", c.last_lesson);
    c.last_step = std::max(0, j.value("last_step", c.last_step));
    c.lang = j.value("lang", c.lang);
    if (c.lang != "en" && c.lang != "zh") c.lang = "en";
    if (j.contains("progress") && j["progress"].is_object())
      for (const auto& [id, n] : j["progress"].items())
        if (n.is_number_integer()) c.progress[id] = n.get<int>();
    if (j.contains("window") && j["window"].is_object()) {
      const Json& w = j["window"];
      c.window_x = w.value("x", c.window_x);
      c.window_y = w.value("y", c.window_y);
      c.window_w = std::clamp(w.value("w", c.window_w), 320, 16384);
      c.window_h = std::clamp(w.value("h", c.window_h), 240, 16384);
      c.window_maximized = w.value("maximized", false);
    }
    c.lesson_panel_width = std::max(0.f, j.value("lesson_panel_width", 0.f));
    c.font_size = std::clamp(j.value("font_size", 0.f), 0.f, 64.f);
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
