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
  std::string last_course;  // course_key() of the course last shown ("" = the shipped one)
  std::string last_lesson;  // of that course
  int last_step = 0;  // 0-based
  std::string lang = "en";
  std::map<std::string, int> progress;  // progress_key() -> steps seen (furthest step + 1)
  int window_x = -1, window_y = -1, window_w = 1600, window_h = 1000;
  bool window_maximized = false;
  float lesson_panel_width = 0;  // 0 = 36% of the window
  float font_size = 0;           // 0 = 16 px times the monitor's content scale
  std::string export_dir;        // empty = current folder
};

// Progress is kept per course: the shipped course (lessons/ of this GEMM Lab) under its lesson ids,
// as before courses could be opened; any other course under "<course_key>|<lesson id>", so two
// courses with a lesson of the same id keep their own.
std::string course_key(const std::string& course_dir, const std::string& shipped_course_dir);  // "" = shipped
std::string progress_key(const std::string& course_key, const std::string& lesson_id);

std::string config_path();  // honours XDG_CONFIG_HOME, then HOME
// Reads `path` (or config_path()); on a broken file returns defaults and sets *problem.
Config load_config(const std::string& path, std::string* problem = nullptr);
// Returns an empty string on success, else the problem.
std::string save_config(const Config& c, const std::string& path);

}  // namespace gemmlab::app
