// `gemmlab shot`: lesson steps rendered offscreen to PNG, and the frame-time benchmark.
#pragma once
#include <string>

#include "view.h"

namespace gemmlab::app {

struct ShotOptions {
  std::string lesson;      // single shot: lesson id
  int step = 1;            // 1-based
  std::string out;         // PNG path (single) or JSON report path (frametime, optional)
  std::string view;        // bring this view to the front instead of the step's
  bool view_only = false;  // crop to the view's area
  bool meta = false;       // also write <out>.json: lesson, step, view, view_rect, facts drawn
  bool reveal = false;     // a predict step after Reveal (the step must ask a predict question)
  std::string exercise_solution;  // an exercise step graded with its "reference" or "stub" (App::set_exercise_solution)
  std::string data;        // also write the view's data (File > Export view data) here
  bool all = false;        // every step of every lesson into out_dir (+ manifest.json)
  std::string out_dir;
  bool frametime = false;  // p50/p99 frame time per step, JSON on stdout
  int frames = 120;
  int width = 1600, height = 1000;
  float font_size = 16;
  std::string lang = "en";
};

int run_shot(const AppPaths& paths, const ShotOptions& options);

}  // namespace gemmlab::app
