#include "model/config.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "model/files.h"
#include "model/json_text.h"

namespace gemmlab::app {
namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string config_path(std::string* problem) {
  // The XDG rules: a relative XDG_CONFIG_HOME is invalid and ignored.
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && fs::path(xdg).is_absolute()) return (fs::path(xdg) / "gemmlab" / "config.json").string();
  const char* home = std::getenv("HOME");
  if (home && fs::path(home).is_absolute()) return (fs::path(home) / ".config" / "gemmlab" / "config.json").string();
  if (problem)
    *problem = std::string("settings and progress are not saved: neither XDG_CONFIG_HOME nor HOME is set to an ") +
               "absolute folder (set HOME, or XDG_CONFIG_HOME=/path/to/config, and start GEMM Lab again)";
  return "";
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
    bad.push_back(where + key + " = " + json_text(v).substr(0, 40) + " is not a number from " + std::to_string(lo) +
                  " to " + std::to_string(hi) + " (using " + used.str() + ")");
    return fallback;
  }
  std::string text(const char* key, const std::string& fallback, std::size_t max_length = 4096) const {
    if (!j.contains(key)) return fallback;
    if (j[key].is_string() && j[key].get<std::string>().size() <= max_length) return j[key].get<std::string>();
    bad.push_back(where + key + " = " + json_text(j[key]).substr(0, 40) + " is not a text (using \"" + fallback + "\")");
    return fallback;
  }
  // 0 (automatic) or a number from lo to hi: a font of 1e-30 px would make all text invisible.
  float zero_or(const char* key, float lo, float hi) const {
    const float x = number(key, 0.f, hi, 0.f);
    if (x == 0.f || x >= lo) return x;
    bad.push_back(where + key + " = " + json_text(j[key]).substr(0, 40) + " is not 0 (automatic) or a number from " +
                  std::to_string(lo) + " to " + std::to_string(hi) + " (using 0)");
    return 0.f;
  }
  bool flag(const char* key, bool fallback) const {
    if (!j.contains(key)) return fallback;
    if (j[key].is_boolean()) return j[key].get<bool>();
    bad.push_back(where + key + " = " + json_text(j[key]).substr(0, 40) + " is not true or false (using " +
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
  // A folder name need not be UTF-8; the key goes into JSON, so invalid bytes are spelled out.
  return utf8_escaped((ec ? fs::path(course_dir) : a).lexically_normal().string());
}

std::string progress_key(const std::string& course_key, const std::string& lesson_id) {
  return utf8_escaped(course_key.empty() ? lesson_id : course_key + "|" + lesson_id);
}

namespace {

// Reads the settings; *unusable is set when the file exists but cannot be read as settings at
// all (such a file is never written over).
Config read_config(const std::string& path, std::string* problem, bool* unusable) {
  Config c;
  *unusable = false;
  std::string kind_problem;
  if (path_kind(path, &kind_problem) == PathKind::Missing) return c;  // first run
  const auto refuse = [&](const std::string& why) {
    *unusable = true;
    if (problem)
      *problem = path + ": " + why + "; using default settings (the file is kept aside as " + path +
                 ".bad-N when settings are saved, never written over)";
    return c;
  };
  std::string why;
  // A regular file of at most 1 MiB: a FIFO or a device would block or never end.
  const auto text = read_file_contents(path, &why, kMaxConfigBytes);
  if (!text) return refuse(why);
  if (const std::string deep = json_nesting_problem(*text); !deep.empty()) return refuse(deep);
  Json j;
  try {
    j = Json::parse(*text);
  } catch (const std::exception& e) {
    return refuse(std::string("not JSON (") + e.what() + ")");
  }
  if (!j.is_object()) return refuse("not a JSON object");
  std::vector<std::string> bad;
  const SettingsReader r{j, "", bad};
  c.last_course = r.text("last_course", c.last_course, 4096);
  c.last_lesson = r.text("last_lesson", c.last_lesson, 256);
  c.last_step = r.number("last_step", 0, 100000, c.last_step);
  c.lang = r.text("lang", c.lang, 8);
  if (c.lang != "en" && c.lang != "zh") {
    bad.push_back("lang = \"" + utf8_escaped(c.lang) + "\" is not en or zh (using en)");
    c.lang = "en";
  }
  if (j.contains("progress") && j["progress"].is_object()) {
    const SettingsReader p{j["progress"], "progress.", bad};
    for (const auto& [id, n] : j["progress"].items())
      if (id.size() <= 4096 + 1 + 256 && c.progress.size() < kMaxProgressEntries) {
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
  c.lesson_panel_width = r.zero_or("lesson_panel_width", kMinPanelWidth, float(kMaxWindowSide));
  c.font_size = r.zero_or("font_size", kMinFontSize, kMaxFontSize);
  c.export_dir = r.text("export_dir", std::string());
  if (!bad.empty() && problem) {
    *problem = path + ": kept the other settings; ";
    for (size_t i = 0; i < bad.size(); ++i) *problem += (i ? "; " : "") + bad[i];
  }
  return c;
}

// Holds an exclusive lock on path + ".lock" while it lives (none when the lock cannot be had:
// saving still works, only two windows quitting in the same instant may then race).
class ConfigLock {
 public:
  explicit ConfigLock(const std::string& path) {
    fd_ = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~ConfigLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  ConfigLock(const ConfigLock&) = delete;
  ConfigLock& operator=(const ConfigLock&) = delete;

 private:
  int fd_ = -1;
};

std::string keep_aside(const std::string& path, std::string* note) {
  for (int n = 1; n < 1000; ++n) {
    const std::string aside = path + ".bad-" + std::to_string(n);
    std::string ignored;
    if (path_kind(aside, &ignored) != PathKind::Missing) continue;
    if (::rename(path.c_str(), aside.c_str()) != 0)
      return "cannot move the unreadable " + path + " aside to " + aside + ": " + std::strerror(errno) +
             " (settings not saved, the file left as it was)";
    if (note) *note = "the unreadable settings file was kept as " + aside + "; new settings saved in " + path;
    return "";
  }
  return "cannot move the unreadable " + path + " aside: " + path + ".bad-1 .. .bad-999 all exist (settings not saved)";
}

}  // namespace

Config load_config(const std::string& path, std::string* problem) {
  bool unusable = false;
  return read_config(path, problem, &unusable);
}

std::string save_config(const Config& c, const std::string& path, std::string* note) {
  if (path.empty()) return "no settings file (neither XDG_CONFIG_HOME nor HOME is set)";
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const ConfigLock lock(path);
  bool unusable = false;
  std::string ignored;
  const Config on_disk = read_config(path, &ignored, &unusable);
  if (unusable)
    if (std::string problem = keep_aside(path, note); !problem.empty()) return problem;
  std::map<std::string, int> progress = c.progress;
  for (const auto& [key, steps] : on_disk.progress)
    if (progress.size() < kMaxProgressEntries || progress.count(key)) progress[key] = std::max(progress[key], steps);
  Json j;
  j["last_course"] = utf8_escaped(c.last_course);
  j["last_lesson"] = utf8_escaped(c.last_lesson);
  j["last_step"] = c.last_step;
  j["lang"] = c.lang;
  j["progress"] = Json::object();
  for (const auto& [key, steps] : progress) j["progress"][utf8_escaped(key)] = steps;
  j["window"] = {{"x", c.window_x}, {"y", c.window_y}, {"w", c.window_w}, {"h", c.window_h},
                 {"maximized", c.window_maximized}};
  j["lesson_panel_width"] = c.lesson_panel_width;
  j["font_size"] = c.font_size;
  j["export_dir"] = utf8_escaped(c.export_dir);
  return write_text_file(path, json_text(j, 2) + "\n");
}

}  // namespace gemmlab::app
