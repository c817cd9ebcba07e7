// What every view provides to the window, the lesson panel and `gemmlab shot`. A view keeps its
// UI state in its own struct, asks the simulator for results and draws them; it never computes
// the model itself.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmlab/expected.h"
#include "model/lesson_format.h"
#include "model/predict_rules.h"
#include "model/results_file.h"

namespace gemmlab::app {

using Json = nlohmann::json;

struct AppPaths {
  std::string root;    // the project folder (lessons/, assets/)
  std::string course;  // the course folder shown
  std::string assets;  // run-time assets (images, reference results)
};

// What a view may use while drawing.
struct ViewContext {
  const AppPaths& paths;
  float dt = 0;          // seconds since the last frame (animations)
  bool headless = false; // `gemmlab shot`: no animation, deterministic frame
  std::string lang = "en";
  void (*log)(const std::string& level, const std::string& message) = nullptr;
  // Another view's answer to a predict quantity ("banks.wavefronts"), for views that compare.
  std::function<Expected<double>(const std::string& quantity)> ask;
  // Brings another view to the front with these (valid) settings, as a lesson step would.
  std::function<void(const std::string& view, const Json& settings)> open_view;
  // Draws a private copy of another view with these settings into the current region (the Code
  // view's picture of what a line moves); the learner's own view keeps its state.
  std::function<void(const std::string& view, const Json& settings)> draw_preview;
};

class View {
 public:
  virtual ~View() = default;
  virtual const char* id() const = 0;     // as in lesson files: "threadmap", "banks", ...
  virtual const char* title() const = 0;  // tab label

  // A lesson step: reset to the defaults, then apply the (already validated) keys.
  virtual void apply(const Json& settings) = 0;
  virtual void draw(ViewContext& ctx) = 0;
  // The data the view shows, for "Export JSON".
  virtual Json export_data() const = 0;

  // The simulator's answer to a predict quantity of this view ("banks.wavefronts"), or why not.
  virtual Expected<double> predict(const PredictSpec& spec) const {
    return Error{"the " + std::string(id()) + " view has no quantity " + spec.quantity};
  }

  // A setting of the step that shows the answer of its own predict question in the view's controls
  // (a highlighted lane that is the asked lane): the lesson checker refuses the step with this message.
  virtual std::optional<std::string> answer_in_settings(const PredictSpec& spec, double answer) const {
    (void)spec, (void)answer;
    return std::nullopt;
  }

  // Results this view holds beyond the shipped assets/results/ (a Run's, a results JSON the user
  // opened), oldest first: the lesson text's placeholders prefer the newest that has their rows.
  virtual std::vector<const BenchResults*> own_results() const { return {}; }

  // A file the user opened for this view (results JSON, ncu CSV); problems go to the view.
  virtual void load_file(const std::string& path) { (void)path; }
  // Loads what apply() named (a file under assets/) as the next draw would, without drawing:
  // the lesson checker calls it before asking export_data() whether the step can be shown.
  virtual void prepare(const AppPaths& paths) { (void)paths; }

  // While a step's predict question is open, the view leaves out the step's hidden facts
  // (model/predict_rules.h: the numbers, colours and labels that give the answer away); the
  // learner reasons from the rest, then presses Reveal. nullptr: nothing hidden.
  void set_masked(const PredictSpec* spec) {
    masked_ = spec ? std::optional<PredictSpec>(*spec) : std::nullopt;
    hidden_ = spec ? hidden_facts(*spec) : std::vector<std::string>{};
  }
  // The facts this view drew since begin_frame() (the GUI walk checks them against the step's).
  void begin_frame() { drawn_.clear(); }
  const std::vector<std::string>& facts_drawn() const { return drawn_; }

  // Waits for work the view started on a worker thread (the frame-time benchmark measures
  // drawing, not the L2 replay running beside it).
  virtual void wait_idle() {}

  // Space plays / pauses the view's animation, if it has one.
  virtual bool has_animation() const { return false; }
  virtual bool playing() const { return false; }
  virtual void set_playing(bool) {}

 protected:
  bool masked(const char* quantity) const { return masked_ && masked_->quantity == quantity; }
  const std::optional<PredictSpec>& mask() const { return masked_; }
  // True while the open predict step hides `fact`: draw a "?" or the placeholder instead.
  bool hides(const char* fact) const {
    for (const auto& f : hidden_)
      if (f == fact) return true;
    return false;
  }
  // The gate every drawing of a fact goes through: false while hidden, else true and the fact is
  // noted as drawn this frame.
  bool shows(const char* fact) const {
    if (hides(fact)) return false;
    for (const auto& f : drawn_)
      if (f == fact) return true;
    drawn_.emplace_back(fact);
    return true;
  }

 private:
  std::optional<PredictSpec> masked_;
  std::vector<std::string> hidden_;
  mutable std::vector<std::string> drawn_;
};

// All views, in tab order (the order of known_view_ids()).
std::vector<std::unique_ptr<View>> make_views();
// The tab title of a view id ("fragments" -> "Fragments"), English (tr() it to show).
const char* view_title(const std::string& id);

// Factories, one per view file.
std::unique_ptr<View> make_thread_map_view();
std::unique_ptr<View> make_fragments_view();
std::unique_ptr<View> make_smem_banks_view();
std::unique_ptr<View> make_grid_l2_view();
std::unique_ptr<View> make_pipeline_view();
std::unique_ptr<View> make_kernels_view();
std::unique_ptr<View> make_measured_view();
std::unique_ptr<View> make_conv_view();
std::unique_ptr<View> make_gmma_layout_view();
std::unique_ptr<View> make_code_view();

}  // namespace gemmlab::app
