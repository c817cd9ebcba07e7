// The Grid, SMs & L2 view ("grid"): one class whose drawing is split by what it draws:
//   grid_view.cpp     settings, predict answers, export, the layout and the controls
//   grid_model.cpp    the launch it draws (gemmlab::plan_launch) and the L2 replay on a worker thread
//   grid_tiles.cpp    the C tile grid       grid_slots.cpp  the SM slot timeline
//   grid_l2_plot.cpp  the L2 hit rate over time
// The C tile grid coloured by launch order, wave, SM or DRAM traffic,
// animated in time; the SM slot timeline with its tail and the split-k / stream-k waits and
// fix-ups; the L2 hit rate over time. Everything comes from the simulator: compute_occupancy,
// make_block_plan, simulate_timeline, summarize_waves and (on a worker thread, it can take
// seconds) replay_l2. Tiles and slots are drawn as textures so 16k tiles stay fluid.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/launch_facts.h"
#include "gemmlab/launch_plan.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"
#include "grid_block_detail.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app::grid {

// The C tile grid is drawn at most this many times wider than tall, or taller than wide.
constexpr float kMaxGridRatio = 8.f;
// A grid wider than this (width over height, in elements) is drawn across the whole view.
constexpr float kStackedAspect = 3.f;

struct GridUiState {
  std::string stage;        // a stages.def id: the launch is that stage's (tile, resources, raster...)
  std::string stage_order;  // with a stage: another block order to try ("" = the stage's own)
  int problem[3] = {4096, 4096, 4096};
  int tile[3] = {128, 128, 32};
  std::string order = "launch";
  int split_k = 1;
  std::string split_k_mode = "serial";  // as `gemmlab sim schedule --split-k-mode`
  bool stream_k = false;
  std::string device = "h100";
  int threads = 256, regs = 128, smem = 32768;
  std::string dtype = "f16";
  std::string color_by = "order";
  float time = 1.0f;  // 0..1 of the makespan
  bool playing = false;
  bool block_detail = false;  // inside one block (the SIMT stages' warps and lanes) instead of the C tiles
  int highlight_warp = -1;
  int highlight_tile[2] = {-1, -1};  // [m, n] of a C tile the step talks about (-1: none)
  CanvasState block_canvas;
  CanvasState grid_canvas, slots_canvas;
};

// Everything derived synchronously (milliseconds even for 16k tiles): gemmlab::plan_launch's result.
using GridModel = LaunchPlan;

class GridView final : public View {
 public:
  ~GridView() override;
  const char* id() const override { return "grid"; }

  void apply(const Json& s) override;
  void wait_idle() override { wait_for_l2(); }
  bool has_animation() const override { return true; }
  bool playing() const override { return ui_.playing; }
  void set_playing(bool on) override;
  std::optional<std::string> answer_in_settings(const PredictSpec& spec, double) const override;
  Expected<double> predict(const PredictSpec& spec) const override;
  Json export_data() const override;
  void draw(ViewContext& ctx) override;

 private:
  // ---- grid_model.cpp: the launch (gemmlab::plan_launch), recomputed when a setting changes ----
  std::string key() const;
  void recompute();

  // With a stage, the (disabled) fields show its launch's values at the problem (launch_facts: the
  // dispatcher's pick's); "(own settings)" starts from them.
  void show_stage_values();
  void adopt_launch_values(const LaunchFacts& f);

  // The launch: a stage of the ladder as stages.def describes it, or the learner's own settings.
  Expected<LaunchSpec> launch_spec() const;
  Expected<GridModel> build_model() const;

  // ---- grid_model.cpp: the L2 replay on a worker thread ----
  void start_l2();
  void poll_l2(bool block);
  void wait_for_l2() { poll_l2(true); }

  // ---- grid_view.cpp: the controls and the summary ----
  void draw_controls();
  void draw_summary();
  void draw_time_bar();

  // ---- grid_tiles.cpp ----
  // Stage 19's narrowed rows (TileSpans::col_first): tiles of different widths, drawn at their
  // columns; the canvas stays in units of tile.n columns.
  bool narrowed() const { return !model_->tiles.col_first.empty(); }
  float grid_width() const;
  // The C grid's width over its height, in elements (1 for a square problem).
  float grid_aspect() const;
  // The margin around the tiles' canvas (its axis labels).
  static float tiles_margin() { return ImGui::GetFontSize() * 3; }
  // The tiles panel's height in the wide layout (the grid across the whole view).
  float wide_tiles_height(ImVec2 avail) const;
  // Tile t's left and right edges in canvas units; {0, 0} for a tile its row does not have.
  ImVec2 tile_x(size_t t) const;
  // The tile of row r under canvas x, or -1.
  int tile_at(int r, float x) const;

  // Where M or N is not a multiple of the tile: the part of the last tile row / column past the
  // problem, hatched; its elements are predicated off (no load, no store).
  void draw_partial_tiles(const Canvas& cv) const;

  // What the tile colours mean (tile_color), one line.
  void draw_tile_legend() const;
  Rgba tile_color(size_t t) const;
  void draw_tiles();
  void draw_block_numbers(Canvas& cv);
  void draw_highlight_tile(Canvas& cv);
  void tile_tooltip(const Canvas& cv, int r, int c);

  // ---- grid_slots.cpp, grid_l2_plot.cpp ----
  // Slots down (slot s on SM s % sms), time across; one texel per (slot, time bin).
  void draw_slots(float height);
  void draw_l2(float height);

  GridUiState ui_;
  std::string computed_key_, error_;
  std::shared_ptr<const GridModel> model_;
  std::optional<LaunchFacts> facts_;  // the stage's launch as planned (none with own settings)
  std::shared_ptr<const L2Report> l2_;
  std::string l2_error_, l2_key_;
  bool l2_too_large_ = false;  // l2_error_ says the replay was skipped for its size
  std::future<Expected<L2Report>> l2_job_;
  std::chrono::steady_clock::time_point l2_started_;
  std::string tiles_key_, slots_key_;
  CellTexture tiles_tex_, slots_tex_;
};

}  // namespace gemmlab::app::grid
