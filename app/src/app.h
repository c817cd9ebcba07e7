// The app's state and one frame of its UI: the course, where the learner is, the views, and the
// layout (lesson panel beside the view tabs). The window (window.cpp) and `gemmlab shot`
// (shot.cpp) both drive it, so a screenshot is exactly what the window shows.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/config.h"
#include "model/lesson_format.h"
#include "model/markdown_doc.h"
#include "model/results_file.h"
#include "view.h"

namespace gemmlab::app {

// A PNG (and the JSON of a view's data) the frame asked for; written after rendering.
struct CaptureRequest {
  std::string path;
  bool view_only = false;  // the active view's area, else the whole window
};

// The learner's answer to a step's predict question.
struct PredictState {
  double guess = 0;
  bool revealed = false;
  std::optional<Expected<double>> answer;
};

class App {
 public:
  App(AppPaths paths, Config config, bool headless);

  const AppPaths& paths() const { return paths_; }
  const Course& course() const { return course_; }
  Config& config() { return config_; }
  const Config& config() const { return config_; }
  bool headless() const { return headless_; }

  // Navigation. Walking forwards applies the settings of the views the step names (with what
  // they inherit) and brings its view to the front; jumping or "Reset step" applies everything
  // the step inherits from the steps before it, so a step looks the same however the learner
  // got there.
  void open(int lesson, int step);
  void next();
  void prev();
  void reset_step();
  int lesson_index() const { return lesson_; }
  int step_index() const { return step_; }
  const Lesson* lesson() const;
  int step_count() const;
  std::string lang() const { return config_.lang; }
  void set_lang(const std::string& lang);

  View* view(const std::string& id) const;
  View* active_view() const;
  void select_view(const std::string& id);
  const std::vector<std::unique_ptr<View>>& views() const { return views_; }

  // A key pressed in the window (GLFW key code and modifiers), delivered between frames: Dear
  // ImGui 1.86 samples key state once per frame and would miss a quick tap.
  void on_key(int key, int mods);

  // One frame: the whole UI at io.DisplaySize.
  void frame(float dt);
  // The active view's area in the last frame (pixels, top-left origin).
  ImVec4 view_rect() const { return view_rect_; }
  std::string window_title() const;

  std::optional<CaptureRequest> take_capture() {
    auto c = capture_;
    capture_.reset();
    return c;
  }
  void request_capture(CaptureRequest r) { capture_ = std::move(r); }
  bool quit_requested() const { return quit_; }
  bool font_rebuild_requested() const { return font_rebuild_; }
  void font_rebuilt() { font_rebuild_ = false; }
  void request_font_size(float px) {
    config_.font_size = px;
    font_rebuild_ = true;
  }

  // Reload the course from disk (after editing a lesson; done by itself when the open lesson's
  // files change, see watch_course).
  void reload_course();
  // Show the course in `dir` (File > Open course...): at its first lesson the first time, its
  // progress kept apart from other courses'.
  void open_course(const std::string& dir);
  // Steps of lesson `id` of this course the learner has seen.
  int steps_seen(const std::string& id) const;
  std::string export_path(const std::string& what, const std::string& ext) const;
  void status(const std::string& message);

  // The predict question of the open step.
  PredictState& predict_state() { return predict_; }
  Expected<double> predict_answer(const PredictSpec& spec) const;
  void reveal_predict(bool on);  // shows (or hides again) the answer in the views
  // `gemmlab shot --exercise-solution`: the code an exercise step grades ("reference" or "stub"
  // of the exercise; "": what the learner saved, else the stub), the panel scrolled to the verdict.
  void set_exercise_solution(std::string which) { exercise_solution_ = std::move(which); }
  const std::string& exercise_solution() const { return exercise_solution_; }
  const std::vector<MdBlock>& step_blocks() const { return step_blocks_; }
  const std::vector<MdBlock>& intro_blocks() const { return intro_blocks_; }
  const std::vector<MdBlock>& notes_blocks() const { return notes_blocks_; }  // empty: no notes
  // The placeholders of the step's text (and of its notes) shown as "—", each with what the
  // loaded results lack (model/result_placeholders.h).
  const std::vector<std::string>& text_missing() const { return text_missing_; }
  const std::vector<std::string>& notes_missing() const { return notes_missing_; }
  // Refills the placeholders when a view's results changed (a Run finished, a file was opened).
  void refresh_results();
  // While set, each frame writes every string the views render (ImGui's log, not the lesson
  // panel) to *sink: `gemmlab shot --all` records it for the GUI walk's search for a predict
  // step's answer on screen before Reveal.
  void set_views_text_sink(std::string* sink) { views_text_sink_ = sink; }

 private:
  void apply_step_settings(int lesson, int step, bool whole_step);
  void mask_predicted_quantity(bool masked);
  void draw_menu();
  void draw_views(float dt);
  void draw_status_bar();
  void rebuild_text();
  void open_results_dialog();
  void export_view_json();
  void watch_course(float dt);
  std::int64_t course_files_stamp() const;

  AppPaths paths_;
  std::string course_key_;  // model/config.h: "" for the shipped course
  Config config_;
  bool headless_;
  std::string exercise_solution_;
  Course course_;
  std::vector<std::unique_ptr<View>> views_;
  // The Code view's previews: a second set of views, each with the settings it last drew with.
  std::vector<std::unique_ptr<View>> previews_;
  std::map<std::string, Json> preview_settings_;
  int lesson_ = 0, step_ = 0;
  std::string active_view_ = "threadmap";
  bool select_pending_ = true;  // make the tab bar switch to active_view_ next frame
  ImVec4 view_rect_{0, 0, 0, 0};
  std::optional<CaptureRequest> capture_;
  bool quit_ = false, font_rebuild_ = false;
  PredictState predict_;
  std::string* views_text_sink_ = nullptr;
  std::vector<MdBlock> step_blocks_, intro_blocks_, notes_blocks_;
  std::vector<std::string> text_missing_, notes_missing_;
  std::vector<BenchResults> shipped_results_;  // assets/results/*.json, for the placeholders
  size_t own_results_seen_ = 0;
  std::string status_;
  float status_age_ = 0;
  float watch_age_ = 0;              // seconds since the course files were last looked at
  std::int64_t watched_stamp_ = 0;   // their newest modification time then
};

}  // namespace gemmlab::app
