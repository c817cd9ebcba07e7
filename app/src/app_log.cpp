#include "app_log.h"

#include <iostream>

namespace gemmlab::app {
namespace {
std::vector<LogLine>& lines() {
  static std::vector<LogLine> l;
  return l;
}
int errors = 0;
}  // namespace

void app_log(const std::string& level, const std::string& message) {
  if (level == "error") ++errors;
  std::cerr << "gemmlab: " << level << ": " << message << "\n";
  auto& l = lines();
  l.push_back({level, message});
  if (l.size() > 200) l.erase(l.begin());
}

int app_error_count() { return errors; }
const std::vector<LogLine>& app_log_lines() { return lines(); }

}  // namespace gemmlab::app
