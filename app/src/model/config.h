// Per-user settings kept between runs: last lesson and step, language, progress per lesson,
// window geometry, panel width, font size. Stored as JSON in $XDG_CONFIG_HOME/gemmlab/config.json
// (default ~/.config/gemmlab/config.json). A missing or unreadable file means defaults.
#pragma once
#include <map>
#include <string>

namespace gemmlab::app {

// Limits on what the file may ask for (a larger value is ignored, the default kept): an 8K screen,
// and a font whose atlas stays small (CJK glyphs at 64 px took 1.1 GB).
constexpr int kMaxWindowSide = 8192;
constexpr float kMaxFontSize = 40.f;

struct Config {
  std::string last_lesson;
  int last_step = 0;  // 0-based
  std::string lang = "en";
  std::map<std::string, int> progress;  // lesson id -> steps seen (furthest step + 1)
  int window_x = -1, window_y = -1, window_w = 1600, window_h = 1000;
  bool window_maximized = false;
  float lesson_panel_width = 0;  // 0 = 36% of the window
  float font_size = 0;           // 0 = 16 px times the monitor's content scale
  std::string export_dir;        // empty = current folder
};

std::string config_path();  // honours XDG_CONFIG_HOME, then HOME
// Reads `path` (or config_path()); on a broken file returns defaults and sets *problem.
Config load_config(const std::string& path, std::string* problem = nullptr);
// Returns an empty string on success, else the problem.
std::string save_config(const Config& c, const std::string& path);

}  // namespace gemmlab::app
