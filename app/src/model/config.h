// Per-user settings kept between runs: last lesson and step, language, progress per lesson,
// window geometry, panel width, font size. Stored as JSON in $XDG_CONFIG_HOME/gemmlab/config.json
// (default ~/.config/gemmlab/config.json). A missing file means defaults; a broken one means
// defaults too, and it is kept aside (config.json.bad-N), never written over.
#pragma once
#include <map>
#include <string>

namespace gemmlab::app {

// Limits on what the file may ask for (a larger value is ignored, the default kept): an 8K screen,
// and a font whose atlas stays small (CJK glyphs at 64 px took 1.1 GB).
constexpr int kMaxWindowSide = 8192;
constexpr float kMinFontSize = 8.f, kMaxFontSize = 40.f;  // 0 = automatic
constexpr float kMinPanelWidth = 120.f;                    // 0 = automatic
constexpr std::size_t kMaxConfigBytes = 1u << 20;
constexpr std::size_t kMaxProgressEntries = 10000;

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

// Where the settings live, per the XDG base directory rules: $XDG_CONFIG_HOME/gemmlab/config.json
// when XDG_CONFIG_HOME is an absolute path, else $HOME/.config/gemmlab/config.json. "" and
// *problem set when neither names a folder (never the current folder: settings would scatter).
std::string config_path(std::string* problem = nullptr);
// Reads `path`; a value of the wrong type or range keeps its default and is named in *problem; a
// file that cannot be read as settings at all (not JSON, nested too deep, too large, not a
// file) gives defaults and *problem says it will be kept aside.
Config load_config(const std::string& path, std::string* problem = nullptr);
// Saves `c` to `path` while holding a lock on path + ".lock": it reads what is on disk now and
// keeps the furthest progress of each lesson from both (another window on the same settings may
// have saved since this one loaded); a file there that cannot be read as settings is first
// renamed to path.bad-N (*note says so), never written over. The write is write_text_file's
// (temporary file, fsync, rename). Empty string on success, else the problem.
std::string save_config(const Config& c, const std::string& path, std::string* note = nullptr);

}  // namespace gemmlab::app
