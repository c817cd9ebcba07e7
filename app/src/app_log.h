// The app's log: every message goes to stderr ("gemmlab: error: ...") and to the status bar.
// Tests run `gemmlab shot` and fail on any "error:" line, so errors are for real problems only.
#pragma once
#include <string>
#include <vector>

namespace gemmlab::app {

void app_log(const std::string& level, const std::string& message);  // "info", "warning", "error"
int app_error_count();
struct LogLine {
  std::string level, message;
};
const std::vector<LogLine>& app_log_lines();  // the last 200

}  // namespace gemmlab::app
