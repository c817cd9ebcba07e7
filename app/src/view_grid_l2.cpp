// View 4, "Grid, SMs & L2": the C tile grid coloured by launch order, wave, SM or DRAM traffic,
// animated in time; the SM slot timeline with its tail and the split-k / stream-k waits and
// fix-ups; the L2 hit rate over time. Everything comes from the simulator: compute_occupancy,
// make_block_plan, simulate_timeline, summarize_waves and (on a worker thread, it can take
// seconds) replay_l2. Tiles and slots are drawn as textures so 16k tiles stay fluid.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/launch_plan.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"
#include "grid_block_detail.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

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
  CanvasState block_canvas;
  CanvasState grid_canvas, slots_canvas;
};

// Everything derived synchronously (milliseconds even for 16k tiles): gemmlab::plan_launch's result.
using GridModel = LaunchPlan;

const char* phase_label(PhaseKind k) {
  switch (k) {
    case PhaseKind::Mainloop: return "main loop";
    case PhaseKind::Wait: return "wait";
    case PhaseKind::ReadPartials: return "read partials (fix-up)";
    case PhaseKind::StorePartial: return "store partial";
    case PhaseKind::Epilogue: return "epilogue";
  }
  return "?";
}

Rgba phase_color(PhaseKind k, Rgba tile_color) {
  switch (k) {
    case PhaseKind::Mainloop: return tile_color;
    case PhaseKind::Wait: return rgba(150, 30, 30);
    case PhaseKind::ReadPartials: return rgba(170, 90, 230);
    case PhaseKind::StorePartial: return rgba(240, 150, 40);
    case PhaseKind::Epilogue: return rgba(235, 235, 235);
  }
  return tile_color;
}

class GridView final : public View {
 public:
  ~GridView() override {
    if (l2_job_.valid()) l2_job_.wait();
  }
  const char* id() const override { return "grid"; }
  const char* title() const override { return "Grid, SMs & L2"; }

  void apply(const Json& s) override {
    ui_ = GridUiState{};
    auto get3 = [&](const char* k, int* v) {
      if (s.contains(k))
        for (int i = 0; i < 3; ++i) v[i] = s[k][i];
    };
    get3("problem", ui_.problem);
    if (s.contains("stage")) ui_.stage = s["stage"];
    if (s.contains("stage") && s.contains("order")) ui_.stage_order = s["order"];
    get3("tile", ui_.tile);
    if (s.contains("order")) ui_.order = s["order"];
    if (s.contains("split_k")) ui_.split_k = s["split_k"];
    if (s.contains("split_k_mode")) ui_.split_k_mode = s["split_k_mode"];
    if (s.contains("stream_k")) ui_.stream_k = s["stream_k"];
    if (s.contains("device")) ui_.device = s["device"];
    if (s.contains("threads")) ui_.threads = s["threads"];
    if (s.contains("regs")) ui_.regs = s["regs"];
    if (s.contains("smem")) ui_.smem = s["smem"];
    if (s.contains("dtype")) ui_.dtype = s["dtype"];
    if (s.contains("color_by")) ui_.color_by = s["color_by"];
    if (s.contains("block_detail")) ui_.block_detail = s["block_detail"];
    if (s.contains("highlight_warp")) ui_.highlight_warp = s["highlight_warp"];
    if (s.contains("time")) ui_.time = s["time"].get<float>();
    // time = 0 in a lesson means "before launch": show the finished picture until Play.
    if (s.contains("time") && ui_.time <= 0) ui_.time = 1.0f;
    show_stage_values();
  }

  void wait_idle() override { wait_for_l2(); }
  bool has_animation() const override { return true; }
  bool playing() const override { return ui_.playing; }
  void set_playing(bool on) override {
    if (on && ui_.time >= 1.0f) ui_.time = 0;
    ui_.playing = on;
  }

  std::optional<std::string> answer_in_settings(const PredictSpec& spec, double) const override {
    if (spec.quantity == "grid.l2_hit_rate" && ui_.color_by == "reuse")
      return std::string("grid.color_by = \"reuse\" colours the tiles by the DRAM sectors the hit rate comes from (blank "
                         "until Reveal); colour by \"order\", what the answer is computed from");
    if ((spec.quantity == "grid.waves" || spec.quantity == "grid.last_wave_blocks") && ui_.color_by == "wave")
      return std::string("grid.color_by = \"wave\" colours the tiles by the answer (blank until Reveal); colour by \"order\"");
    return std::nullopt;
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    auto* self = const_cast<GridView*>(this);
    self->recompute();
    if (!model_) return Error{error_};
    const GridModel& m = *model_;
    if (spec.quantity == "grid.blocks") return double(m.waves.blocks);
    if (spec.quantity == "grid.waves") return m.waves.waves;
    if (spec.quantity == "grid.blocks_per_sm") return double(m.occupancy.blocks_per_sm);
    if (spec.quantity == "grid.last_wave_blocks") {
      return double(m.waves.last_wave_blocks);
    }
    if (spec.quantity == "grid.l2_hit_rate") {
      self->wait_for_l2();
      if (!l2_) return Error{l2_error_.empty() ? "the L2 replay did not run" : l2_error_};
      return 100.0 * l2_->hit_rate;
    }
    return View::predict(spec);
  }

  Json export_data() const override {
    auto* self = const_cast<GridView*>(this);
    self->recompute();
    Json out;
    out["view"] = id();
    out["problem"] = {ui_.problem[0], ui_.problem[1], ui_.problem[2]};
    if (!ui_.stage.empty()) out["stage"] = ui_.stage;
    out["tile"] = {ui_.tile[0], ui_.tile[1], ui_.tile[2]};
    out["order"] = ui_.order;
    out["device"] = ui_.device;
    if (!model_) {
      out["error"] = error_;
      return out;
    }
    const GridModel& m = *model_;
    if (!ui_.stage.empty()) {
      out["tile"] = {m.spec.tile.m, m.spec.tile.n, m.spec.tile.k};
      out["order"] = order_name(m.plan.order);
    }
    out["blocks_per_sm"] = m.occupancy.blocks_per_sm;
    out["occupancy_limiter"] = m.occupancy.limiter;
    out["blocks"] = m.waves.blocks;
    out["slots"] = m.waves.slots;
    out["waves"] = m.waves.waves;
    out["tiled_shape"] = {m.tiles.tiles_m, m.tiles.tiles_n};
    out["relative_time"] = m.timeline.makespan;
    Json tiles = Json::array();
    for (size_t t = 0; t < m.tiles.first_block.size(); ++t) {
      Json row = {t / m.tiles.tiles_n, t % m.tiles.tiles_n, m.tiles.first_block[t], m.tiles.finishing_block[t],
                  m.tiles.blocks[t], m.tiles.start[t], m.tiles.end[t]};
      if (narrowed()) {  // stage 17's narrowed rows: each tile's columns; a wide row has no last tile
        if (m.tiles.col_count[t] == 0) continue;
        row.push_back(m.tiles.col_first[t]);
        row.push_back(m.tiles.col_count[t]);
      }
      tiles.push_back(row);
    }
    out["tiles_columns"] = {"m_tile", "n_tile", "first_block", "finishing_block", "blocks", "start", "end"};
    if (narrowed()) {
      out["tiles_columns"].push_back("col0");
      out["tiles_columns"].push_back("cols");
      const NarrowedRows& n = m.narrowed;
      out["narrowed"] = {{"rows", n.rows}, {"tiles", n.tiles}, {"cols", n.cols}, {"wider", n.wider},
                         {"longest_cluster_cols", n.longest}, {"longest_cluster_cols_whole", n.longest_whole}};
    }
    out["tiles"] = tiles;
    Json runs = Json::array();
    for (size_t b = 0; b < m.timeline.blocks.size(); ++b) {
      const BlockRun& r = m.timeline.blocks[b];
      runs.push_back({b, r.slot, r.sm, r.start, r.end, r.wait_time});
    }
    out["blocks_columns"] = {"block", "slot", "sm", "start", "end", "wait"};
    out["block_runs"] = runs;
    if (l2_) {
      out["l2_hit_rate"] = l2_->hit_rate;
      out["l2_hit_rate_over_time"] = l2_->hit_rate_over_time;
      out["dram_bytes_read"] = l2_->dram_bytes_read;
      out["c_tile_dram_sectors"] = l2_->c_tile_dram_sectors;
    }
    return out;
  }

  void draw(ViewContext& ctx) override {
    draw_controls();
    recompute();
    if (!model_) {
      error_box(error_);
      return;
    }
    poll_l2(ctx.headless);
    if (ui_.playing && !ctx.headless) {
      // A launch plays in about 8 seconds, whatever its size.
      ui_.time = std::min(1.0f, ui_.time + ctx.dt / 8.0f);
      if (ui_.time >= 1.0f) ui_.playing = false;
    }
    draw_summary();
    draw_time_bar();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // A grid much wider than tall (lesson 18's 2 x 128 tiles) would be a thin strip in half the
    // width: it gets the whole width on top, and the slots and the L2 sit side by side below.
    const bool wide = !ui_.block_detail && grid_aspect() > kStackedAspect;
    const ImVec2 tiles_size = wide ? ImVec2{0, std::floor(avail.y * 0.4f)} : ImVec2{std::floor(avail.x * 0.5f), 0};
    ImGui::BeginChild("##tiles", tiles_size, false, ImGuiWindowFlags_NoScrollWithMouse);
    if (ui_.block_detail)
      draw_simt_block_detail(ui_.block_canvas, ui_.highlight_warp);
    else
      draw_tiles();
    ImGui::EndChild();
    if (wide) {
      const float h = ImGui::GetContentRegionAvail().y;
      ImGui::BeginChild("##slots_below", {std::floor(ImGui::GetContentRegionAvail().x * 0.5f), 0}, false,
                        ImGuiWindowFlags_NoScrollWithMouse);
      draw_slots(h);
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("##l2_below", {0, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
      draw_l2(h);
      ImGui::EndChild();
      return;
    }
    ImGui::SameLine();
    ImGui::BeginChild("##right", {0, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
    const float right_h = ImGui::GetContentRegionAvail().y;
    draw_slots(right_h * 0.6f);
    draw_l2(right_h * 0.4f - ImGui::GetStyle().ItemSpacing.y);
    ImGui::EndChild();
  }

 private:
  std::string key() const {
    std::string k;
    for (int v : ui_.problem) k += std::to_string(v) + ",";
    k += ui_.stage + "|" + ui_.stage_order + "|";
    for (int v : ui_.tile) k += std::to_string(v) + ",";
    k += ui_.order + "|" + std::to_string(ui_.split_k) + ui_.split_k_mode + (ui_.stream_k ? "sk" : "") +
         "|" + ui_.device + "|" + std::to_string(ui_.threads) + "," + std::to_string(ui_.regs) + "," +
         std::to_string(ui_.smem) + "|" + ui_.dtype;
    return k;
  }

  void recompute() {
    const std::string k = key();
    if (k == computed_key_) return;
    computed_key_ = k;
    model_.reset();
    l2_.reset();
    l2_error_.clear();
    l2_too_large_ = false;
    l2_key_.clear();
    tiles_key_.clear();
    slots_key_.clear();
    auto r = build_model();
    if (!r) {
      error_ = r.error();
      return;
    }
    model_ = std::make_shared<const GridModel>(std::move(r.value()));
    start_l2();
  }

  // With a stage, the (disabled) fields show the stage's own values; "(own settings)" starts from them.
  void show_stage_values() {
    const StageDesc* st = find_stage_desc(ui_.stage);
    if (!st || !st->has_tile()) return;
    ui_.tile[0] = st->tile_m, ui_.tile[1] = st->tile_n, ui_.tile[2] = st->tile_k;
    ui_.threads = st->threads, ui_.regs = st->regs, ui_.smem = st->smem;
    ui_.dtype = st->element_bytes() == 4 ? "f32" : "f16";
    ui_.split_k = 1, ui_.stream_k = st->partition == Partition::StreamK;
  }

  // The launch: a stage of the ladder as stages.def describes it, or the learner's own settings.
  Expected<LaunchSpec> launch_spec() const {
    const GemmCoord problem{ui_.problem[0], ui_.problem[1], ui_.problem[2]};
    LaunchSpec spec;
    if (!ui_.stage.empty()) {
      const StageDesc* st = find_stage_desc(ui_.stage);
      if (!st) return Error{"no stage '" + ui_.stage + "' in stages.def"};
      auto s = stage_launch_spec(*st, problem);
      if (!s) return Error{s.error()};
      spec = *s;
      if (!ui_.stage_order.empty()) {
        auto order = parse_order(ui_.stage_order);
        if (!order) return Error{order.error()};
        spec.order = *order;
      }
    } else {
      spec.problem = problem;
      spec.tile = {ui_.tile[0], ui_.tile[1], ui_.tile[2]};
      spec.resources = {ui_.threads, ui_.regs, ui_.smem};
      auto order = parse_order(ui_.order);
      if (!order) return Error{order.error()};
      spec.order = *order;
      if (ui_.stream_k && ui_.split_k > 1)
        return Error{"choose split-k or stream-k, not both (split_k is " + std::to_string(ui_.split_k) + ")"};
      if (ui_.stream_k) {
        spec.partition = Partition::StreamK;
      } else if (ui_.split_k > 1) {
        spec.partition = ui_.split_k_mode == "parallel" ? Partition::SplitKParallel : Partition::SplitKSerial;
        spec.split_k = ui_.split_k;
      }
      // The course's tracks (stages.def): f32 is BLAS NN, f16 is TN; C is f32, column-major.
      StageDesc like{};
      like.track = ui_.dtype == "f32" ? StageTrack::fp32 : StageTrack::fp16;
      spec.l2.element_bytes = like.element_bytes();
      spec.l2.a_order = like.a_order();
      spec.l2.b_order = like.b_order();
      spec.l2.c_element_bytes = like.c_element_bytes();
      spec.l2.c_order = like.c_order();
    }
    spec.l2.buckets = 60;
    return spec;
  }

  Expected<GridModel> build_model() const {
    auto dev = device_preset(ui_.device);
    if (!dev) return Error{dev.error()};
    auto spec = launch_spec();
    if (!spec) return Error{spec.error()};
    return plan_launch(*spec, *dev);
  }

  // ---- L2 replay on a worker thread ----
  void start_l2() {
    if (!model_) return;
    if (model_->l2_lookups > kMaxL2Lookups) {
      // A limit of the simulator, not a fault of the settings: said as a note, not an error.
      l2_too_large_ = true;
      l2_error_ = trf("L2 not replayed: it would take %s look-ups, more than the simulator's %s. A smaller problem "
                      "or larger tiles show it.",
                      fmt_int(static_cast<long long>(model_->l2_lookups)).c_str(),
                      fmt_int(static_cast<long long>(kMaxL2Lookups)).c_str());
      return;
    }
    if (l2_job_.valid()) l2_job_.wait();  // the old one holds its own copy of the model
    auto model = model_;
    l2_key_ = computed_key_;
    l2_started_ = std::chrono::steady_clock::now();
    l2_job_ = std::async(std::launch::async, [model]() { return replay_launch_l2(*model); });
  }

  void poll_l2(bool block) {
    if (!l2_job_.valid()) return;
    if (!block && l2_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    auto r = l2_job_.get();
    if (l2_key_ != computed_key_) return;  // settings changed meanwhile
    if (r) {
      l2_ = std::make_shared<const L2Report>(std::move(r.value()));
      tiles_key_.clear();
    } else {
      l2_error_ = r.error();
    }
  }

  void wait_for_l2() { poll_l2(true); }

  // ---- UI ----
  void draw_controls() {
    // A stage of the ladder fixes tile, resources, raster, partition and operands (stages.def).
    std::vector<std::string> stages = {"(own settings)"};
    for (const StageDesc& st : stage_table())
      if (st.has_tile()) stages.push_back(st.id);
    std::string stage = ui_.stage.empty() ? stages.front() : ui_.stage;
    if (combo_string(tr("stage"), &stage, stages, 10)) {
      ui_.stage = stage == stages.front() ? "" : stage;
      ui_.stage_order.clear();
      show_stage_values();
    }
    help_marker(tr("A stage launches as its kernel does: its tile, threads, registers and shared memory, "
                "block order, split-k / stream-k plan, operand layouts and co-residency (stages.def). "
                "\"(own settings)\" lets you set each of them."));
    ImGui::SameLine();
    input_int3(tr("problem M,N,K"), ui_.problem, 1, kMaxProblemExtent, 6);
    static const std::vector<std::string> orders = {"launch", "identity:1", "identity:2", "identity:4",
                                                    "identity:8", "serpentine", "serpentine:8", "along-m:2",
                                                    "along-m:4", "along-m:8", "along-n:2", "along-n:4", "along-n:8"};
    const bool own = ui_.stage.empty();
    if (!own) {
      ImGui::SameLine();
      std::vector<std::string> with_stage = {"the stage's"};
      with_stage.insert(with_stage.end(), orders.begin(), orders.end());
      std::string order = ui_.stage_order.empty() ? with_stage.front() : ui_.stage_order;
      if (combo_string(tr("order"), &order, with_stage, 10)) ui_.stage_order = order == with_stage.front() ? "" : order;
    }
    ImGui::BeginDisabled(!own);
    if (own) ImGui::SameLine();
    input_int3(tr("tile TM,TN,TK"), ui_.tile, 1, 4096, 4);
    if (own) {
      ImGui::SameLine();
      std::string order = ui_.order;
      if (combo_string(tr("order"), &order, orders, 10)) ui_.order = order;
    }
    help_marker(tr("launch: blockIdx.x along M. identity:N: CUTLASS GemmIdentityThreadblockSwizzle<N>. "
                "serpentine: the hand-written mma_base HGEMM's zig-zag. along-m:S / along-n:S: CUTLASS 3 rasterisation "
                "with swizzle size S."));
    ImGui::EndDisabled();
    same_line_if_fits(field_width(6) + ImGui::CalcTextSize(tr("device")).x + 8);
    static const std::vector<std::string> devices = {"h100", "h200", "a100", "rtx4090"};
    combo_string(tr("device"), &ui_.device, devices, 6);

    ImGui::BeginDisabled(!own);
    input_int(tr("split-k"), &ui_.split_k, 1, 1024, 4);
    if (ui_.split_k > 1) {
      ImGui::SameLine();
      static const std::vector<std::string> modes = {"serial", "parallel"};
      combo_string(tr("mode"), &ui_.split_k_mode, modes, 7);
    }
    ImGui::SameLine();
    ImGui::Checkbox(tr("stream-k"), &ui_.stream_k);
    ImGui::SameLine();
    input_int(tr("threads"), &ui_.threads, 1, 1024, 4);
    ImGui::SameLine();
    input_int(tr("regs"), &ui_.regs, 1, 255, 3);
    same_line_if_fits(field_width(6) + ImGui::CalcTextSize(tr("smem B")).x + 8);
    input_int(tr("smem B"), &ui_.smem, 0, 1 << 20, 6);
    same_line_if_fits(field_width(3) + ImGui::CalcTextSize(tr("dtype")).x + 8);
    static const std::vector<std::string> dtypes = {"f16", "f32"};
    combo_string(tr("dtype"), &ui_.dtype, dtypes, 3);
    ImGui::EndDisabled();
    same_line_if_fits(field_width(5) + ImGui::CalcTextSize(tr("colour by")).x + 8);
    static const std::vector<std::string> colorings = {"order", "wave", "sm", "reuse"};
    combo_string(tr("colour by"), &ui_.color_by, colorings, 5);
    same_line_if_fits(ImGui::CalcTextSize(tr("one block")).x + ImGui::GetFrameHeight() * 2);
    ImGui::Checkbox(tr("one block"), &ui_.block_detail);
    if (ui_.block_detail) {
      ImGui::SameLine();
      input_int(tr("warp (-1: all)"), &ui_.highlight_warp, -1, 7, 3);
    }
  }

  void draw_summary() {
    const GridModel& m = *model_;
    // What a predict step leaves out is named by the facts of model/predict_rules.h.
    const bool hide_blocks = !shows("grid.blocks");
    const bool hide_per_sm = !shows("grid.occupancy");
    const bool hide_waves = !shows("grid.waves");
    const bool hide_tiles = !shows("grid.tiles");
    const std::string waves = trf("%.2f waves, last wave %.0f%% full", m.waves.waves, 100.0 * m.waves.tail_utilisation);
    // The persistent stage launches one block per slot; its "blocks" here are the tiles they take.
    const bool persistent = m.spec.persistent_cluster_m > 0;
    ImGui::TextWrapped(persistent ? tr("%s x %s tiles, %s turns of the resident blocks (%s)   %s per SM (%s) x %d SMs = %s slots   %s")
                           : tr("%s x %s tiles, %s blocks (grid %s)   %s per SM (%s) x %d SMs = %s slots   %s"),
                hide_tiles ? "?" : std::to_string(m.tiles.tiles_m).c_str(),
                hide_tiles       ? "?"
                : m.narrowed.rows ? (std::to_string(m.tiles.tiles_n - 1) + "-" + std::to_string(m.tiles.tiles_n)).c_str()
                                  : std::to_string(m.tiles.tiles_n).c_str(),
                hide_blocks ? "?" : fmt_int(m.waves.blocks).c_str(),
                hide_blocks ? "?"
                : persistent ? tr("the scheduler's list")
                             : (std::to_string(m.plan.grid.x) + "," + std::to_string(m.plan.grid.y) + "," +
                                std::to_string(m.plan.grid.z)).c_str(),
                hide_per_sm ? "?" : std::to_string(m.occupancy.blocks_per_sm).c_str(),
                hide_per_sm ? "?" : tr(m.occupancy.limiter.c_str()), m.timeline.sms,
                hide_per_sm ? "?" : std::to_string(m.waves.slots).c_str(),
                hide_waves ? tr("waves: ?") : waves.c_str());
    if (m.spec.persistent_cluster_m > 0 && !hide_per_sm && !hide_waves)
      note_text(trf("Persistent: %d blocks (%d clusters of %d) stay resident and take the tiles in the scheduler's "
                    "order: here each tile is one of their turns, a 'wave' one round. Where the last round would be "
                    "at most 3/4 full, or there are fewer cluster tiles than clusters and K is long, its tiles run as "
                    "the kernel's stream-k tail (here %lld pieces, each a part of one tile's k-tiles, all in the last "
                    "round).",
                    m.timeline.sms * m.blocks_per_sm, m.timeline.sms * m.blocks_per_sm / m.spec.persistent_cluster_m,
                    m.spec.persistent_cluster_m, m.tail_pieces));
    if (const NarrowedRows& n = m.narrowed; n.rows > 0 && !hide_tiles && !hide_waves)
      note_text(trf("Narrowed tiles: the last %d tile rows hold %d tiles each, of %d columns (%d of them %d), instead "
                    "of tiles of %d, so that every cluster takes as many tiles; the longest cluster computes %s "
                    "columns of C instead of %s.",
                    n.rows, n.tiles, n.cols, n.wider, n.cols + 8, n.tile_cols, fmt_int(n.longest).c_str(),
                    fmt_int(n.longest_whole).c_str()));
    if (m.spec.persistent_cluster_m > 0 && !hide_per_sm && m.timeline.sms < m.device.sms)
      note_text(trf("The scheduler leaves %d of the %d SMs idle: with two clusters spare the tiles still take no "
                    "more rounds, and no stream-k tail is needed.",
                    m.device.sms - m.timeline.sms, m.device.sms));
    if (m.spec.l2.multicast_b > 1)
      note_text(trf("Outlined pairs: the %d blocks of a cluster (neighbouring m tiles, the same n tile). One B load "
                    "per cluster reaches L2; the TMA multicasts it into both blocks' shared memory.",
                    m.spec.l2.multicast_b));
    const double eff = m.timeline.efficiency();
    if (shows("grid.timeline"))
      ImGui::Text(tr("time %.0f (units of one k iteration)   ideal %.0f   slot efficiency %.0f%%"),
                  m.timeline.makespan, m.timeline.ideal_time(), 100 * eff);
    else
      ImGui::TextUnformatted(tr("time ?   ideal ?   slot efficiency ?"));
    if (m.plan.partition != Partition::None && !hide_blocks && !hide_tiles) {
      const long long alone = m.tiles.alone, shared = m.tiles.shared;
      ImGui::SameLine();
      if (m.plan.has_streamk)
        ImGui::Text(tr("   stream-k: %d SK + %d DP blocks; %lld tiles done by one block, %lld shared (fix-up)"),
                    m.plan.streamk.sk_blocks, m.plan.streamk.dp_blocks, alone, shared);
      else
        ImGui::Text(tr("   split-k: %d slices; %lld tiles shared by several blocks"), m.plan.split_k, shared);
    }
  }

  void draw_time_bar() {
    if (ImGui::Button(ui_.playing ? tr("Pause") : tr("Play"))) set_playing(!ui_.playing);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field_width(30));
    const double t = ui_.time * model_->timeline.makespan;
    char fmt[64];
    if (hides("grid.timeline"))
      std::snprintf(fmt, sizeof fmt, "t = ?");
    else
      std::snprintf(fmt, sizeof fmt, "%s", trf("t = %.0f of %.0f", t, model_->timeline.makespan).c_str());
    ImGui::SliderFloat("##time", &ui_.time, 0, 1, fmt);
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(tr("Tiles: grey = not started, white = running. Slot timeline: waits red, "
                        "partial stores orange, fix-ups purple, epilogues white."));
  }

  // Stage 17's narrowed rows (TileSpans::col_first): tiles of different widths, drawn at their
  // columns; the canvas stays in units of tile.n columns.
  bool narrowed() const { return !model_->tiles.col_first.empty(); }
  float grid_width() const {
    const GridModel& m = *model_;
    return narrowed() ? float(m.spec.problem.n) / float(m.spec.tile.n) : float(m.tiles.tiles_n);
  }
  // The C grid's width over its height, in elements (1 for a square problem).
  float grid_aspect() const {
    const GridModel& m = *model_;
    return grid_width() * float(m.spec.tile.n) / std::max(1.f, float(m.tiles.tiles_m) * float(m.spec.tile.m));
  }
  // Tile t's left and right edges in canvas units; {0, 0} for a tile its row does not have.
  ImVec2 tile_x(size_t t) const {
    const GridModel& m = *model_;
    if (!narrowed()) {
      const float c = float(t % static_cast<size_t>(m.tiles.tiles_n));
      return {c, c + 1};
    }
    const float tn = float(m.spec.tile.n);
    return {m.tiles.col_first[t] / tn, (m.tiles.col_first[t] + m.tiles.col_count[t]) / tn};
  }
  // The tile of row r under canvas x, or -1.
  int tile_at(int r, float x) const {
    const GridModel& m = *model_;
    if (!narrowed()) return x >= 0 && x < m.tiles.tiles_n ? int(std::floor(x)) : -1;
    for (int c = 0; c < m.tiles.tiles_n; ++c) {
      const ImVec2 e = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c);
      if (e.y > e.x && x >= e.x && x < e.y) return c;
    }
    return -1;
  }

  // Where M or N is not a multiple of the tile: the part of the last tile row / column past the
  // problem, hatched; its elements are predicated off (no load, no store).
  void draw_partial_tiles(const Canvas& cv) const {
    const GridModel& m = *model_;
    const int tm = m.spec.tile.m, tn = m.spec.tile.n;
    const float rows = float(m.tiles.tiles_m), cols = grid_width();
    const float y_cut = rows - 1 + float(m.tiles.edge_rows) / float(tm);
    const float x_cut = cols - 1 + float(m.tiles.edge_cols) / float(tn);
    ImDrawList* dl = cv.draw_list();
    auto hatch = [&](float x0, float y0, float x1, float y1) {
      const ImVec2 a = cv.to_screen(x0, y0), b = cv.to_screen(x1, y1);
      dl->AddRectFilled(a, b, IM_COL32(15, 15, 18, 200));
      dl->PushClipRect(a, b, true);
      const float step = 6;
      for (float s = a.x - (b.y - a.y); s < b.x; s += step)
        dl->AddLine({s, b.y}, {s + (b.y - a.y), a.y}, IM_COL32(200, 90, 90, 160), 1);
      dl->PopClipRect();
    };
    if (m.tiles.edge_rows < tm) hatch(0, y_cut, cols, rows);
    if (m.tiles.edge_cols < tn) hatch(x_cut, 0, cols, y_cut);
  }

  // What the tile colours mean (tile_color), one line.
  void draw_tile_legend() const {
    const GridModel& m = *model_;
    if (m.tiles.edge_rows < m.spec.tile.m || m.tiles.edge_cols < m.spec.tile.n) {
      legend_swatches(tr("hatched"), {{IM_COL32(200, 90, 90, 255),
                                   trf("past M or N: the last tiles hold %d of %d rows, %d of %d columns; the rest is "
                                       "predicated off",
                                       m.tiles.edge_rows, m.spec.tile.m, m.tiles.edge_cols, m.spec.tile.n)}});
    }
    if (ui_.time < 1.0f) {
      legend_swatches(tr("now"), {{kEmptyCell, tr("not started")}, {rgba(255, 255, 255), tr("running")}});
      ImGui::SameLine(0, ImGui::GetFontSize() * 2);
    }
    if (ui_.color_by == "wave" && shows("grid.waves")) {
      legend_ids(tr("wave"), static_cast<int>(std::ceil(m.waves.waves)));
    } else if (ui_.color_by == "wave") {
      ImGui::TextDisabled(tr("wave: ?"));
    } else if (ui_.color_by == "sm" && shows("grid.occupancy")) {
      legend_ids(tr("SM slot of the block that ends the tile"), m.waves.slots, 0, 8);
    } else if (ui_.color_by == "sm") {
      ImGui::TextDisabled(tr("SM slot of the block that ends the tile (how many slots: ?)"));
    } else if (ui_.color_by == "reuse") {
      // The largest count stays hidden while the hit rate is a prediction.
      if (l2_ && !l2_->c_tile_dram_sectors.empty())
        legend_heat(tr("DRAM sectors"), tr("0 (all from L2)"),
                    hides("grid.l2")
                        ? std::string(tr("the most of any tile"))
                        : fmt_int(*std::max_element(l2_->c_tile_dram_sectors.begin(), l2_->c_tile_dram_sectors.end())));
    } else if (ui_.color_by == "order") {
      legend_heat(tr("launch order"), tr("first block"), tr("last block"));
    } else {
      ImGui::NewLine();
    }
  }

  Rgba tile_color(size_t t) const {
    const GridModel& m = *model_;
    const int first = m.tiles.first_block[t];
    if (first < 0) return kEmptyCell;
    const int finishing = m.tiles.finishing_block[t] >= 0 ? m.tiles.finishing_block[t] : first;
    if (ui_.color_by == "wave")
      return hides("grid.waves") ? kEmptyCell : id_color(static_cast<int>(m.waves.wave_of(first)));
    if (ui_.color_by == "sm") return id_color(m.timeline.blocks[finishing].sm);
    if (ui_.color_by == "reuse") {
      if (!l2_ || l2_->c_tile_dram_sectors.size() != m.tiles.first_block.size() || hides("grid.l2")) return kEmptyCell;
      const auto& v = l2_->c_tile_dram_sectors;
      const double mx = std::max<double>(1, *std::max_element(v.begin(), v.end()));
      return heat_color(v[t] / mx);
    }
    return heat_color(double(first) / std::max<double>(1, m.plan.blocks.size() - 1));
  }

  void draw_tiles() {
    const GridModel& m = *model_;
    if (!shows("grid.tiles")) {
      ImGui::Text(tr("C: %s x %s elements, tile %d x %d"), fmt_int(m.spec.problem.m).c_str(),
                  fmt_int(m.spec.problem.n).c_str(), m.spec.tile.m, m.spec.tile.n);
      hidden_until_reveal("grid.tiles", ImGui::GetContentRegionAvail().y);
      return;
    }
    if (std::max(m.tiles.tiles_m, m.tiles.tiles_n) > CellTexture::max_size()) {
      error_box(trf("The grid is %d x %d tiles; this view draws at most %d along a side (the graphics driver's "
                    "texture limit). Use larger tiles.",
                    m.tiles.tiles_m, m.tiles.tiles_n, CellTexture::max_size()));
      return;
    }
    const double now = ui_.time * m.timeline.makespan;
    // The texture changes with the time (during play) and with the colouring.
    const std::string k = ui_.color_by + std::to_string(ui_.time) + (l2_ ? "l2" : "") +
                          (hides("grid.waves") ? "?" : "") + (hides("grid.l2") ? "?l2" : "");
    if (k != tiles_key_) {
      tiles_key_ = k;
      std::vector<Rgba> px(m.tiles.first_block.size());
      for (size_t t = 0; t < px.size(); ++t) {
        Rgba c = tile_color(t);
        if (ui_.time < 1.0f) {
          if (m.tiles.first_block[t] < 0 || m.tiles.start[t] > now) c = kEmptyCell;
          else if (m.tiles.end[t] > now) c = rgba(255, 255, 255);
        }
        px[t] = c;
      }
      if (narrowed()) {  // a texel per 8 columns, where every tile's edge falls (coarser past the texture limit)
        int texel = 8;
        while (m.spec.problem.n / texel >= CellTexture::max_size()) texel *= 2;
        const int w = (m.spec.problem.n + texel - 1) / texel;
        std::vector<Rgba> wide(static_cast<size_t>(w) * m.tiles.tiles_m, kEmptyCell);
        for (size_t t = 0; t < px.size(); ++t)
          for (int x = m.tiles.col_first[t] / texel; x < (m.tiles.col_first[t] + m.tiles.col_count[t]) / texel; ++x)
            wide[t / static_cast<size_t>(m.tiles.tiles_n) * static_cast<size_t>(w) + static_cast<size_t>(x)] = px[t];
        tiles_tex_.upload(w, m.tiles.tiles_m, wide);
      } else {
        tiles_tex_.upload(m.tiles.tiles_n, m.tiles.tiles_m, px);
      }
    }
    const float font = ImGui::GetFontSize();
    ImGui::PushTextWrapPos(0);  // the reuse caption is longer than a narrow column
    ImGui::Text(tr("C tiles (m down, n across), colour: %s%s"), ui_.color_by.c_str(),
                ui_.color_by == "reuse"
                    ? (l2_ ? tr(" = DRAM sectors its main loop fetched (dark: reused from L2)") : tr(" (L2 replay running...)"))
                    : ui_.color_by == "order" ? tr(" (dark: launched first)") : "");
    ImGui::PopTextWrapPos();
    draw_tile_legend();
    // A cell per tile, drawn tile.n wide by tile.m tall: a square problem stays square. A grid
    // more than kMaxGridRatio times wider than tall (or taller than wide), e.g. 2 x 128 tiles of
    // 256 x 32768, would be a line of pixels: it is drawn at that ratio instead, and says so.
    const float true_stretch = float(m.spec.tile.n) / float(std::max(1, m.spec.tile.m));
    const float ratio = grid_width() * true_stretch / float(std::max(1, m.tiles.tiles_m));
    const float stretch = true_stretch * std::clamp(ratio, 1.f / kMaxGridRatio, kMaxGridRatio) / ratio;
    if (stretch != true_stretch)
      note_text(trf("Not to scale: %d x %d tiles drawn %g times %s than they are.", m.tiles.tiles_m, m.tiles.tiles_n,
                    std::round(10 * std::max(stretch / true_stretch, true_stretch / stretch)) / 10,
                    stretch < true_stretch ? tr("narrower") : tr("wider")));
    Canvas cv("##grid", ui_.grid_canvas, grid_width(), float(m.tiles.tiles_m), {0, 0}, font * 3, stretch);
    cv.draw_cells(tiles_tex_, 0, 0, grid_width(), float(m.tiles.tiles_m));
    if (!narrowed()) {
      cv.draw_grid_lines(0, 0, m.tiles.tiles_n, m.tiles.tiles_m, 5);
    } else if (cv.scale() >= 5) {  // each row's own tile edges
      ImDrawList* dl = cv.draw_list();
      for (int r = 0; r < m.tiles.tiles_m; ++r) {
        dl->AddLine(cv.to_screen(0, float(r)), cv.to_screen(grid_width(), float(r)), IM_COL32(0, 0, 0, 90));
        for (int c = 0; c < m.tiles.tiles_n; ++c) {
          const float x = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c).x;
          if (c > 0 && x > 0) dl->AddLine(cv.to_screen(x, float(r)), cv.to_screen(x, r + 1.f), IM_COL32(0, 0, 0, 90));
        }
      }
    }
    // Ticks at tile edges, labelled in elements of C.
    cv.axis_x(float(m.tiles.tiles_m), grid_width(), m.spec.tile.n, tr("n, elements"));
    cv.axis_y(0, float(m.tiles.tiles_m), m.spec.tile.m, "m");
    draw_partial_tiles(cv);
    // Clusters (stages 16, 17): m tiles 2j and 2j+1 of one n tile form a cluster.
    if (const int cm = m.spec.l2.multicast_b; cm > 1 && cv.scale() * cm >= 6 && cv.scale_x() >= 6) {
      ImDrawList* dl = cv.draw_list();
      for (int r = 0; r < m.tiles.tiles_m; r += cm)
        for (int c = 0; c < m.tiles.tiles_n; ++c) {
          const ImVec2 e = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c);
          if (e.y <= e.x) continue;
          const ImVec2 a = cv.to_screen(e.x + 0.08f, r + 0.08f),
                       b = cv.to_screen(e.y - 0.08f, std::min<float>(float(r + cm), float(m.tiles.tiles_m)) - 0.08f);
          dl->AddRect(a, b, IM_COL32(255, 230, 90, 200), 2, 0, 1.5f);
        }
    }
    if (cv.scale() >= font * 1.6f && shows("grid.blocks")) {
      const ImVec2 v0 = cv.to_content(cv.min()), v1 = cv.to_content(cv.max());
      for (int r = std::max(0, int(v0.y)); r < std::min(m.tiles.tiles_m, int(v1.y) + 1); ++r)
        for (int c = 0; c < m.tiles.tiles_n; ++c) {
          const size_t t = static_cast<size_t>(r) * m.tiles.tiles_n + c;
          const ImVec2 e = tile_x(t);
          if (e.y < v0.x || e.x > v1.x + 1) continue;
          const int b = m.tiles.first_block[t];
          if (b >= 0) cv.label(e.x, float(r), e.y, r + 1.f, std::to_string(b).c_str(), IM_COL32(0, 0, 0, 220));
        }
    }
    if (auto mouse = cv.mouse()) {
      const int r = int(std::floor(mouse->y));
      const int c = r >= 0 && r < m.tiles.tiles_m ? tile_at(r, mouse->x) : -1;
      if (c >= 0) tile_tooltip(cv, r, c);
    }
  }

  void tile_tooltip(const Canvas& cv, int r, int c) {
    const GridModel& m = *model_;
    const size_t t = static_cast<size_t>(r) * m.tiles.tiles_n + c;
    const ImVec2 e = tile_x(t);
    cv.draw_list()->AddRect(cv.to_screen(e.x, float(r)), cv.to_screen(e.y, r + 1.f), kHighlight, 0, 0, 2);
    ImGui::BeginTooltip();
    const long long col0 = narrowed() ? m.tiles.col_first[t] : static_cast<long long>(c) * m.spec.tile.n;
    tooltip_row(tr("tile"), trf("(m %d, n %d): rows %s.., cols %s..", r, c, fmt_int(static_cast<long long>(r) * m.spec.tile.m).c_str(),
                              fmt_int(col0).c_str()));
    if (narrowed()) tooltip_row(tr("width"), trf("%d columns", m.tiles.col_count[t]));
    // Its blocks, SMs, waves and times would answer an open predict question.
    if (hides("grid.blocks") || hides("grid.waves") || hides("grid.occupancy") || hides("grid.timeline")) {
      tooltip_row(tr("blocks"), tr("? (press Reveal)"));
    } else if (m.tiles.first_block[t] < 0) {
      tooltip_row(tr("blocks"), "none");
    } else {
      int shown = 0;
      for (size_t si = 0; si < m.plan.segments.size() && shown < 8; ++si) {
        const WorkSegment& s = m.plan.segments[si];
        if (s.tile_index != static_cast<int>(t)) continue;
        const int b = m.tiles.segment_block[si];
        const BlockWork& w = m.plan.blocks[b];
        const BlockRun& run = m.timeline.blocks[b];
        tooltip_row(shown == 0 ? tr("blocks") : "",
                    "#" + std::to_string(b) + " blockIdx (" + std::to_string(w.block_idx.x) + "," +
                        std::to_string(w.block_idx.y) + "," + std::to_string(w.block_idx.z) + "), k " +
                        std::to_string(s.k_iter_begin) + ".." + std::to_string(s.k_iter_end) + ", " +
                        segment_role_name(s.role) + ", SM " + std::to_string(run.sm) + ", wave " +
                        std::to_string(m.waves.wave_of(b)));
        ++shown;
      }
      if (m.tiles.blocks[t] > shown) tooltip_row("", trf("... %d more", m.tiles.blocks[t] - shown));
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.1f .. %.1f", m.tiles.start[t], m.tiles.end[t]);
      tooltip_row(tr("time"), buf);
      if (l2_ && t < l2_->c_tile_dram_sectors.size() && !hides("grid.l2"))
        tooltip_row(tr("DRAM"), trf("%s sectors (32 B) fetched by its main loop", fmt_int(l2_->c_tile_dram_sectors[t]).c_str()));
    }
    ImGui::EndTooltip();
  }

  // Slots down (slot s on SM s % sms), time across; one texel per (slot, time bin).
  void draw_slots(float height) {
    const GridModel& m = *model_;
    if (m.timeline.slots > CellTexture::max_size()) {
      note_text(trf("%d slots: too many rows to draw the timeline", m.timeline.slots));
      return;
    }
    if (hides("grid.timeline") || hides("grid.occupancy")) {
      hidden_until_reveal(hides("grid.timeline") ? "grid.timeline" : "grid.occupancy", height);
      return;
    }
    shows("grid.timeline"), shows("grid.occupancy");
    const int slots = m.timeline.slots, bins = 1024;
    const double span = std::max(1e-9, m.timeline.makespan);
    const std::string k = ui_.color_by + (l2_ ? "l2" : "") + (hides("grid.waves") ? "?" : "");
    if (k != slots_key_) {
      slots_key_ = k;
      std::vector<Rgba> px(static_cast<size_t>(slots) * bins, IM_COL32(28, 28, 32, 255));
      for (const Phase& ph : m.timeline.phases) {
        const int b = m.tiles.segment_block[ph.segment];
        const int slot = m.timeline.blocks[b].slot;
        if (slot < 0 || slot >= slots) continue;
        const WorkSegment& s = m.plan.segments[ph.segment];
        const Rgba base = s.tile_index >= 0 && static_cast<size_t>(s.tile_index) < m.tiles.first_block.size()
                              ? tile_color(static_cast<size_t>(s.tile_index))
                              : kEmptyCell;
        const Rgba col = phase_color(ph.kind, base);
        const int x0 = std::clamp(int(ph.start / span * bins), 0, bins - 1);
        const int x1 = std::clamp(int(std::ceil(ph.end / span * bins)), x0 + 1, bins);
        for (int x = x0; x < x1; ++x) px[static_cast<size_t>(slot) * bins + x] = col;
      }
      slots_tex_.upload(bins, slots, px);
    }
    ImGui::Text(tr("SM slots (%d per SM x %d SMs) over time"), m.occupancy.blocks_per_sm, m.timeline.sms);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(tr("One row per slot (slot s on SM s %% %d). Blocks start in launch order and "
                        "take the first free slot; the empty area at the end is the tail."), m.timeline.sms);
    ImGui::BeginChild("##slots", {0, height - ImGui::GetTextLineHeightWithSpacing()}, false,
                      ImGuiWindowFlags_NoScrollWithMouse);
    // Content: bins wide; one unit per slot, stretched to a readable height.
    const float aspect = std::max(1.f, float(bins) / float(slots) * 0.5f);
    Canvas cv("##slotcv", ui_.slots_canvas, float(bins), float(slots) * aspect, {0, 0}, ImGui::GetFontSize() * 2.5f);
    ImDrawList* dl = cv.draw_list();
    dl->AddImage(slots_tex_.imgui_id(), cv.to_screen(0, 0), cv.to_screen(float(bins), float(slots) * aspect));
    cv.axis_x(float(slots) * aspect, float(bins), span / bins, tr("time, k iterations"));
    cv.axis_y(0, float(slots) * aspect, 1.0 / aspect, tr("slot"));
    const float x = float(ui_.time * bins);
    dl->AddLine(cv.to_screen(x, 0), cv.to_screen(x, float(slots) * aspect), IM_COL32(255, 255, 0, 255), 2);
    if (auto mouse = cv.mouse()) {
      const int slot = int(std::floor(mouse->y / aspect));
      const double t = mouse->x / bins * span;
      if (slot >= 0 && slot < slots && t >= 0 && t <= span) {
        ImGui::BeginTooltip();
        tooltip_row(tr("slot"), std::to_string(slot) + " on SM " + std::to_string(slot % std::max(1, m.device.sms)));
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", t);
        tooltip_row(tr("time"), buf);
        bool found = false;
        for (size_t b = 0; b < m.timeline.blocks.size() && !found; ++b) {
          const BlockRun& r = m.timeline.blocks[b];
          if (r.slot != slot || t < r.start || t > r.end) continue;
          found = true;
          tooltip_row(tr("block"), trf("#%zu, wave %d", b, int(m.waves.wave_of(b))));
          for (int i = 0; i < r.phase_count; ++i) {
            const Phase& ph = m.timeline.phases[static_cast<size_t>(r.first_phase + i)];
            if (t < ph.start || t > ph.end) continue;
            const WorkSegment& s = m.plan.segments[ph.segment];
            tooltip_row(tr("doing"), trf("%s of tile (%d,%d), k %d..%d", tr(phase_label(ph.kind)), s.m_tile, s.n_tile, s.k_iter_begin, s.k_iter_end));
            break;
          }
        }
        if (!found) tooltip_row(tr("block"), "idle");
        ImGui::EndTooltip();
      }
    }
    ImGui::EndChild();
  }

  void draw_l2(float height) {
    const GridModel& m = *model_;
    if (!l2_) {
      if (l2_too_large_) {
        note_text(l2_error_);
      } else if (!l2_error_.empty()) {
        error_box("L2: " + l2_error_);
      } else {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - l2_started_).count();
        ImGui::Text(tr("L2 replay running on a worker thread... %.1f s"), secs);
      }
      return;
    }
    const L2Report& r = *l2_;
    if (!shows("grid.l2")) {
      hidden_until_reveal("grid.l2", height);
      return;
    }
    ImGui::Text(tr("L2 hit rate %.1f%% (with far-partition look-ups %.1f%%)"), 100 * r.hit_rate,
                100 * r.hit_rate_with_far);
    ImGui::Text(tr("DRAM read %s MB (compulsory %s MB), written %s MB"),
                fmt_mb(double(r.dram_bytes_read)).c_str(), fmt_mb(double(r.compulsory_read_bytes)).c_str(),
                fmt_mb(double(r.dram_bytes_written_total())).c_str());
    if (!shows("grid.timeline")) {  // the hit rate over time draws the launch's length (its box is above)
      ImGui::TextDisabled(tr("hit rate of reads over time: ?"));
      return;
    }
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = std::max(40.f, height - ImGui::GetTextLineHeightWithSpacing() * 3.5f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const float left = font * 2.5f;
    const ImVec2 a{p0.x + left, p0.y}, b{p0.x + w, p0.y + h};
    dl->AddRectFilled(a, b, IM_COL32(24, 24, 28, 255));
    for (int pct = 0; pct <= 100; pct += 50) {
      const float y = b.y - (b.y - a.y) * pct / 100.f;
      dl->AddLine({a.x, y}, {b.x, y}, IM_COL32(70, 70, 80, 255));
      const std::string t = std::to_string(pct) + "%";
      dl->AddText({p0.x, y - font / 2}, IM_COL32(160, 160, 170, 255), t.c_str());
    }
    const double span = std::max(1e-9, m.timeline.makespan);
    ImVec2 prev{0, 0};
    bool have_prev = false;
    double t_prev = 0;
    for (size_t i = 0; i < r.hit_rate_over_time.size(); ++i) {
      const double v = r.hit_rate_over_time[i];
      const double t_end = i < r.bucket_end_time.size() ? r.bucket_end_time[i] : span;
      const double t_mid = (t_prev + t_end) / 2;
      t_prev = t_end;
      if (v < 0) {
        have_prev = false;
        continue;
      }
      const ImVec2 pt{a.x + float(t_mid / span) * (b.x - a.x), b.y - float(v) * (b.y - a.y)};
      if (have_prev) dl->AddLine(prev, pt, IM_COL32(100, 200, 255, 255), 2);
      dl->AddCircleFilled(pt, 2.5f, IM_COL32(100, 200, 255, 255));
      prev = pt;
      have_prev = true;
    }
    const float x = a.x + ui_.time * (b.x - a.x);
    dl->AddLine({x, a.y}, {x, b.y}, IM_COL32(255, 255, 0, 200), 2);
    ImGui::Dummy({w, h});
    if (ImGui::IsItemHovered()) {
      const double t = (ImGui::GetIO().MousePos.x - a.x) / (b.x - a.x) * span;
      double start = 0;
      for (size_t i = 0; i < r.hit_rate_over_time.size(); ++i) {
        const double end = i < r.bucket_end_time.size() ? r.bucket_end_time[i] : span;
        if (t >= start && t < end) {
          ImGui::BeginTooltip();
          char buf[96];
          std::snprintf(buf, sizeof buf, "%.0f .. %.0f", start, end);
          tooltip_row(tr("time"), buf);
          tooltip_row(tr("hit rate"), r.hit_rate_over_time[i] < 0
                                      ? std::string(tr("no reads"))
                                      : std::to_string(int(std::lround(100 * r.hit_rate_over_time[i]))) + "%");
          ImGui::EndTooltip();
          break;
        }
        start = end;
      }
    }
    ImGui::TextDisabled("%s", trf("hit rate of reads over time (x axis: 0 .. %.0f k iterations)", span).c_str());
  }

  GridUiState ui_;
  std::string computed_key_, error_;
  std::shared_ptr<const GridModel> model_;
  std::shared_ptr<const L2Report> l2_;
  std::string l2_error_, l2_key_;
  bool l2_too_large_ = false;  // l2_error_ says the replay was skipped for its size
  std::future<Expected<L2Report>> l2_job_;
  std::chrono::steady_clock::time_point l2_started_;
  std::string tiles_key_, slots_key_;
  CellTexture tiles_tex_, slots_tex_;
};

}  // namespace

std::unique_ptr<View> make_grid_l2_view() { return std::make_unique<GridView>(); }

}  // namespace gemmlab::app
