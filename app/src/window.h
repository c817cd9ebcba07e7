// The interactive window: the event loop, capture of screenshots, config saved on exit.
#pragma once
#include <string>

#include "view.h"

namespace gemmlab::app {

struct WindowOptions {
  std::string lesson;  // empty = the last lesson from the config (or lesson 1)
  int step = -1;       // 0-based; -1 = the last step from the config
  std::string lang;    // empty = from the config
  int width = 0, height = 0;  // 0 = from the config
};

int run_window(const AppPaths& paths, const WindowOptions& options);

}  // namespace gemmlab::app
