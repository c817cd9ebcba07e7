// View 6, "Kernels & timings": the stage registry (sim/device/gemmlab/stages.def), results of
// `gemmlab bench --json` as bars of TFLOP/s and % of cuBLAS with their correctness status, or as
// a shape sweep (kernels_sweep.h), and, in a build with the CUDA runner and a GPU, "Run" on a
// worker thread (progress, cancel).
// Without CUDA the view says so and shows the reference results in assets/results/.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "file_dialog.h"
#include "gemmlab/conv_problem.h"
#include "gemmlab/launch_facts.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/roofline.h"
#include "gemmlab/stage_desc.h"
#include "label_placer.h"
#include "model/files.h"
#include "model/result_placeholders.h"  // load_results_dir
#include "model/results_file.h"
#include "model/settings_schema.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"
#include "views/kernels/kernels_sweep.h"

#if GEMMLAB_WITH_RUNNER
#include "model/kernel_run.h"
#include "runner.h"
#endif

namespace gemmlab::app {
namespace fs = std::filesystem;
namespace {

// The stage before, by its number alone ("15"): the bars' names start with it, and the row must
// keep its verdict inside a 1280-pixel window in both languages.
std::string previous_number(const std::string& id) {
  const StageDesc* d = find_stage_desc(id);
  return d && *d->number ? std::string(d->number) : id;
}

struct KernelsUiState {
  std::vector<std::string> stages;  // empty = every stage in the results
  int size[3] = {4096, 4096, 4096};
  std::string shown_key;            // the size (or convolution) whose rows are shown; "" = the step's
  int set = 0;                      // which loaded results set
  std::string device;               // a step's device ("h200"): prefer its results
  bool show_registry = false;
  bool sweep = false;               // the shape sweep instead of one size's bars
};

class KernelsView final : public View {
 public:
  const char* id() const override { return "kernels"; }

  void apply(const Json& s) override {
    const int set = ui_.set;
    ui_ = KernelsUiState{};
    ui_.set = set;
    pick_set_ = true;
    if (s.contains("stages")) ui_.stages = s["stages"].get<std::vector<std::string>>();
    if (s.contains("device")) ui_.device = s["device"];
    if (s.contains("size"))
      for (int i = 0; i < 3; ++i) ui_.size[i] = s["size"][i];
    if (s.contains("sweep")) ui_.sweep = s["sweep"];
    sweep_.select({ui_.size[0], ui_.size[1], ui_.size[2]});
    if (s.contains("conv")) {
      BenchResult key;
      key.is_conv = true;
      key.conv[9] = 1;
      for (size_t i = 0; i < s["conv"].size() && i < 10; ++i) key.conv[i] = s["conv"][i];
      ui_.shown_key = key.size_key();
    }
  }

  std::vector<const BenchResults*> own_results() const override {
    std::vector<const BenchResults*> out;
    for (size_t i = static_cast<size_t>(reference_count_); i < sets_.size(); ++i) out.push_back(&sets_[i]);
    return out;
  }

  void load_file(const std::string& path) override {
    auto r = load_bench_results(path);
    if (!r) {
      load_error_ = r.error();
      return;
    }
    load_error_.clear();
    sets_.push_back(std::move(*r));
    ui_.set = static_cast<int>(sets_.size()) - 1;
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    if (ui_.set >= 0 && ui_.set < static_cast<int>(sets_.size()))
      out["results"] = Json::parse(bench_results_json(sets_[ui_.set]));
    out["size"] = {ui_.size[0], ui_.size[1], ui_.size[2]};
    out["stages"] = ui_.stages;
    out["sweep"] = ui_.sweep;
    return out;
  }

  void draw(ViewContext& ctx) override {
    if (!references_loaded_) load_references(ctx);
    draw_run_panel(ctx);
    ImGui::Separator();
    if (!load_error_.empty()) error_box(load_error_);
    if (ImGui::Button(tr("Open results JSON..."))) {
      file_dialog_open(tr("Open results JSON"), ctx.paths.assets + "/results", ".json",
                       [this](const std::string& p) { load_file(p); });
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(sets_.empty());
    if (ImGui::Button(tr("Save results JSON"))) save_shown_set();
    ImGui::EndDisabled();
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("stage registry")).x + 8);
    ImGui::Checkbox(tr("stage registry"), &ui_.show_registry);
    same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("shape sweep")).x + 8);
    ImGui::Checkbox(tr("shape sweep"), &ui_.sweep);
    if (!save_message_.empty()) note_text(save_message_);
    if (ui_.show_registry) draw_registry();
    if (sets_.empty()) {
      note_text(tr("No results to show: assets/results/ has no results JSON yet, and none was opened. "
                "Make one on a GPU machine with: gemmlab bench --json assets/results/<device>.json"));
      return;
    }
    if (pick_set_) pick_set_for_step();
    ui_.set = std::clamp(ui_.set, 0, static_cast<int>(sets_.size()) - 1);
    draw_set_picker();
    if (ui_.sweep) {
      sweep_.draw(sweep_sets(), ui_.stages);
      return;
    }
    const std::string size = draw_bars(sets_[ui_.set]);
    draw_roofline(sets_[ui_.set], size);
  }

 private:
  // Writes the shown set in `gemmlab bench --json` format (a Run's results survive the session)
  // to the working directory, named after the device and date so runs do not overwrite each other.
  void save_shown_set() {
    if (ui_.set < 0 || ui_.set >= static_cast<int>(sets_.size())) return;
    const BenchResults& r = sets_[ui_.set];
    std::string name = "gemmlab-results-" + r.device.name + "-" + r.date + ".json";
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '-';
    const std::string problem = write_text_file(name, bench_results_json(r));
    save_message_ = problem.empty() ? "saved " + fs::absolute(name).string() : problem;
  }

  // The size (GEMM M x N x K, or convolution) a step asks for.
  std::string step_key() const {
    if (!ui_.shown_key.empty()) return ui_.shown_key;
    BenchResult g;
    g.m = ui_.size[0], g.n = ui_.size[1], g.k = ui_.size[2];
    return g.size_key();
  }
  // A step shows the set (first in load_results_dir's order among equals) with the most rows of its
  // stages at its size, else with any row at its size, on its device before any other; the current
  // set where it qualifies. (A device's dispatcher file holds the sweep's sizes too, but not the
  // ladder's stages a sweep step lists; the -conv file holds stage 14d's ResNet-50 rows, the
  // -resnet50-fused file 14d's, 14e's and cuDNN fused's: a step listing all three shows the latter.)
  void pick_set_for_step() {
    pick_set_ = false;
    auto listed = [&](const std::string& stage) {
      return ui_.stages.empty() || std::find(ui_.stages.begin(), ui_.stages.end(), stage) != ui_.stages.end();
    };
    auto count = [&](int i, bool stage_row) {
      int n = 0;
      for (const auto& x : sets_[i].results)
        n += x.size_key() == step_key() && (!stage_row || (!x.is_reference() && listed(x.stage)));
      return n;
    };
    // A step that names a device shows that device's results where there are any.
    auto on_device = [&](int i) { return ui_.device.empty() || device_matches(sets_[i].device.name, ui_.device); };
    if (ui_.set >= 0 && ui_.set < static_cast<int>(sets_.size()) && count(ui_.set, true) && on_device(ui_.set)) return;
    for (int pass = 0; pass < 4; ++pass) {
      int best = -1, best_n = 0;
      for (int i = 0; i < static_cast<int>(sets_.size()); ++i)
        if (const int n = pass >= 2 || on_device(i) ? count(i, pass % 2 == 0) : 0; n > best_n) best = i, best_n = n;
      if (best >= 0) {
        ui_.set = best;
        return;
      }
    }
  }
  // "h200" matches "NVIDIA H200", "h100" "NVIDIA H100 80GB HBM3" (case and spaces ignored).
  static bool device_matches(const std::string& name, const std::string& preset) {
    std::string n;
    for (char c : name)
      if (c != ' ') n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return n.find(preset) != std::string::npos;
  }

  // In the lesson panel's order (load_results_dir), so that a step shows the file its text quotes.
  void load_references(ViewContext& ctx) {
    references_loaded_ = true;
    std::vector<std::string> problems;
    for (BenchResults& r : load_results_dir((fs::path(ctx.paths.assets) / "results").string(), &problems))
      sets_.push_back(std::move(r));
    if (ctx.log)
      for (const std::string& p : problems) ctx.log("warning", "reference results not shown: " + p);
    reference_count_ = static_cast<int>(sets_.size());
  }

  // The sweep's results: the shown file; for the learner's own runs, every one on the same GPU
  // (each Run times one size: together they are a sweep), oldest first so the newest counts.
  std::vector<const BenchResults*> sweep_sets() const {
    const BenchResults& shown = sets_[ui_.set];
    if (ui_.set < reference_count_) return {&shown};
    std::vector<const BenchResults*> out;
    for (size_t i = size_t(reference_count_); i < sets_.size(); ++i)
      if (sets_[i].device.name == shown.device.name) out.push_back(&sets_[i]);
    return out;
  }

  std::string set_label(int i) const {
    const BenchResults& r = sets_[i];
    std::string label = r.device.name + ", " + r.date.substr(0, 10);
    if (i < reference_count_) label += trf(" (reference, %s)", fs::path(r.source).filename().string().c_str());
    else label += " (" + (r.source == "this run" ? tr(r.source) : fs::path(r.source).filename().string()) + ")";
    return label;
  }

  void draw_set_picker() {
    // As wide as its longest entry where the panel allows ("(reference, nvid" was cut at 40 digits).
    const std::string shown = set_label(ui_.set);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float want = ImGui::CalcTextSize(shown.c_str()).x + ImGui::GetFrameHeight() + style.FramePadding.x * 2,
                room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(tr("results")).x - style.ItemInnerSpacing.x;
    if (want > room) record_dropped_label(shown, "wider than the results picker");
    ImGui::SetNextItemWidth(std::max(field_width(40), std::min(want, room)));
    if (ImGui::BeginCombo(tr("results"), shown.c_str())) {
      for (int i = 0; i < static_cast<int>(sets_.size()); ++i)
        if (ImGui::Selectable(set_label(i).c_str(), i == ui_.set)) ui_.set = i;
      ImGui::EndCombo();
    }
    const BenchResults& r = sets_[ui_.set];
    ImGui::TextWrapped(tr("%s: %d SMs, L2 %lld MiB, %d MHz, driver %s, CUDA %s, measured %s"), r.device.name.c_str(),
                r.device.sms, r.device.l2_bytes >> 20, r.device.clock_mhz, r.device.driver.c_str(),
                r.device.cuda.c_str(), r.date.c_str());
    if (ui_.set < reference_count_)
      note_text(tr("Reference results the project measured (assets/results/). Your GPU will differ."));
  }

  void draw_registry() {
    if (!ImGui::BeginTable("##registry", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                                ImGuiTableFlags_SizingStretchProp))
      return;
    // Tile and threads as wide as their widest value ("128x256x64" wrapped to "12 8x 12 8x" in a
    // proportional column); the names share the rest.
    for (const char* h : {"id", "name", "track", "lesson"}) ImGui::TableSetupColumn(h);
    ImGui::TableSetupColumn("tile", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("128x256x64").x);
    ImGui::TableSetupColumn("threads", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("threads").x);
    ImGui::TableHeadersRow();
    for (const StageDesc& s : stage_table()) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(s.id);
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(s.name);
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(track_name(s.track));
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(s.lesson);
      ImGui::TableSetColumnIndex(4);
      // The dispatcher has no tile of its own: it runs, per shape, one of these stages' launches.
      const std::vector<const StageDesc*> choices = dispatch_choices(s);
      std::string picks;
      for (const StageDesc* c : choices) picks += (picks.empty() ? "" : ", ") + std::string(c->number);
      if (!choices.empty()) ImGui::TextWrapped("%s", trf("per shape: %s", picks.c_str()).c_str());
      else if (s.tile_m) ImGui::TextWrapped(tr("%dx%dx%d"), s.tile_m, s.tile_n, s.tile_k);
      else ImGui::TextUnformatted("-");
      ImGui::TableSetColumnIndex(5);
      if (!choices.empty()) ImGui::TextUnformatted("-");
      else ImGui::Text("%d", s.threads);
    }
    ImGui::EndTable();
  }

  std::string stage_name(const std::string& id) const {
    if (const StageDesc* s = find_stage_desc(id)) return s->name;
    if (const ReferenceDesc* r = find_reference(id)) return r->name;
    return id;
  }

  // The rows of `size` (GEMM M x N x K, or convolution) of the step's stages (every stage when none).
  std::vector<const BenchResult*> rows_of(const BenchResults& r, const std::string& size) const {
    std::vector<const BenchResult*> rows;
    for (const auto& x : r.results) {
      if (x.size_key() != size) continue;
      if (!ui_.stages.empty() && std::find(ui_.stages.begin(), ui_.stages.end(), x.stage) == ui_.stages.end()) continue;
      rows.push_back(&x);
    }
    return rows;
  }

  // Bar and point colours, and the legend that names them.
  enum BarColour { kFp32, kFp16, kHopper, kConv, kReference, kWrong, kFp8 };
  static Rgba bar_colour(BarColour c) {
    static const Rgba colours[] = {rgba(110, 200, 120), rgba(90, 170, 240), rgba(240, 160, 60),
                                   rgba(200, 120, 220), rgba(150, 150, 160), rgba(220, 70, 70),
                                   rgba(240, 220, 80)};
    return colours[c];
  }
  static Rgba track_colour(const BenchResult& x) {
    const TrackDesc* track = find_track(x.track);
    return bar_colour(x.is_reference() ? kReference : !x.ok ? kWrong
                      : x.track == "fp16" ? kFp16
                      : x.track == "hopper" ? kHopper
                      : track && is_fp8(track->track) ? kFp8
                      : x.is_conv ? kConv : kFp32);
  }

  // "cuBLAS" or "cuBLASLt": the library of a track's reference (its tag's first word).
  static std::string reference_library(const TrackDesc* track) {
    const ReferenceDesc* ref = track ? find_reference(track->reference) : nullptr;
    const std::string tag = ref ? ref->tag : "cuBLAS";
    return tag.substr(0, tag.find(' '));
  }

  // Whether a conv track's second reference (its row's "cudnn_ms") is cuDNN's fused graph.
  static bool fused_peer(const TrackDesc* track) {
    const ReferenceDesc* peer = track && track->peer ? find_reference(track->peer) : nullptr;
    return peer && peer->kind == ReferenceKind::CudnnFused;
  }

  // The text right of a stage's bar: rate, ratios and verdict.
  static std::string bar_label(const BenchResult& r) {
    const TrackDesc* track = find_track(r.track);
    const std::string library = reference_library(track);
    const char* unit = track ? track->rate_unit : "TFLOP/s";
    const char* verdict = r.ok ? tr("ok") : tr("WRONG");
    std::string label;
    if (r.is_reference())
      label = trf("%.1f TFLOP/s  %.3f ms  reference (%s)", r.tflops, r.ms, r.track.c_str());
    else if (r.is_conv && r.cudnn_ms > 0 && fused_peer(track))  // stage 14e: timed against cuDNN's fused graph
      label = trf("%.1f %s  %.1f%% of im2col+cuBLAS  %.1f%% of cuDNN fused  %s", r.tflops, unit,
                  100 * r.ratio_to_im2col, 100 * r.ratio_to_cudnn, verdict);
    else if (r.is_conv && r.cudnn_ms > 0)
      label = trf("%.1f %s  %.1f%% of im2col+cuBLAS  %.1f%% of cuDNN  %s", r.tflops, unit, 100 * r.ratio_to_im2col,
                  100 * r.ratio_to_cudnn, verdict);
    else if (r.is_conv)
      label = trf("%.1f %s  %.1f%% of im2col+cuBLAS  %s", r.tflops, unit, 100 * r.ratio_to_im2col, verdict);
    else if (r.speedup_over_previous() > 0)  // the stage before, timed in the same turns
      label = trf("%.1f TFLOP/s  %.1f%% of %s  %.3fx vs %s  %s", r.tflops, 100 * r.ratio_to_cublas, library.c_str(),
                  r.speedup_over_previous(), previous_number(r.previous_stage).c_str(), verdict);
    else  // one decimal: a stage at 99.5% of cuBLAS is not "100%"
      label = trf("%.1f TFLOP/s  %.1f%% of %s  %s (rel err %.1e)", r.tflops, 100 * r.ratio_to_cublas, library.c_str(),
                  verdict, r.rel_err);
    return label;
  }

  // Returns the size shown.
  std::string draw_bars(const BenchResults& r) {
    // Sizes (GEMM M x N x K, or convolutions) in this set, in file order; the step's if it has one.
    std::vector<std::string> sizes;
    for (const auto& x : r.results)
      if (std::find(sizes.begin(), sizes.end(), x.size_key()) == sizes.end()) sizes.push_back(x.size_key());
    BenchResult step_size;
    step_size.m = ui_.size[0], step_size.n = ui_.size[1], step_size.k = ui_.size[2];
    std::string size = ui_.shown_key.empty() ? step_size.size_key() : ui_.shown_key;
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end() && !sizes.empty()) size = sizes.front();
    ImGui::SetNextItemWidth(field_width(38));
    if (ImGui::BeginCombo(tr("size (M x N x K, or convolution)"), size.c_str())) {
      for (const auto& s : sizes)
        if (ImGui::Selectable(s.c_str(), s == size)) ui_.shown_key = size = s;
      ImGui::EndCombo();
    }
    if (!ui_.stages.empty()) {
      ImGui::SameLine();
      if (ImGui::SmallButton(tr("show all stages"))) ui_.stages.clear();
    }
    const std::vector<const BenchResult*> rows = rows_of(r, size);
    double max_tflops = 0;
    for (auto* x : rows) max_tflops = std::max(max_tflops, x->tflops);
    if (rows.empty()) {
      note_text(tr("No results for these stages at this size in this file."));
    }
    legend_swatches(tr("bars"), {{bar_colour(kFp32), tr("fp32")}, {bar_colour(kFp16), tr("fp16 (mma.sync)")},
                             {bar_colour(kHopper), tr("hopper")}, {bar_colour(kConv), tr("conv")},
                             {bar_colour(kFp8), tr("fp8 (e4m3)")},
                             {bar_colour(kReference), tr("reference")}, {bar_colour(kWrong), tr("wrong result")}});
    const float font = ImGui::GetFontSize();
    const float name_w = font * 16;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Every bar ends where the widest label starts, so that no label runs off the window.
    std::vector<std::string> labels;
    float label_w = 0;
    for (auto* x : rows) {
      labels.push_back(bar_label(*x));
      label_w = std::max(label_w, ImGui::CalcTextSize(labels.back().c_str()).x);
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      const BenchResult* x = rows[i];
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float avail = ImGui::GetContentRegionAvail().x;
      const float bar_w = std::max(10.f, avail - name_w - label_w - font);
      const float h = font * 1.5f;
      dl->AddText({p.x, p.y + font * 0.2f}, ImGui::GetColorU32(ImGuiCol_Text), stage_name(x->stage).c_str());
      const float w = max_tflops > 0 ? float(x->tflops / max_tflops) * bar_w : 0;
      const Rgba col = track_colour(*x);
      dl->AddRectFilled({p.x + name_w, p.y + 2}, {p.x + name_w + w, p.y + h - 2}, col, 2);
      const char* buf = labels[i].c_str();
      dl->AddText({p.x + name_w + bar_w + font * 0.5f, p.y + font * 0.2f},
                  x->ok ? ImGui::GetColorU32(ImGuiCol_Text) : IM_COL32(255, 120, 120, 255), buf);
      ImGui::Dummy({avail, h});
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        tooltip_row(tr("stage"), x->stage + " (" + x->track + ")");
        tooltip_row(tr("size"), std::to_string(x->m) + " x " + std::to_string(x->n) + " x " + std::to_string(x->k));
        tooltip_row(tr("time"), trf("%.4f ms median of %d runs", x->ms, x->reps));
        if (!x->is_reference() && !x->is_conv)
          tooltip_row(tr("cuBLAS"), trf("%.4f ms, timed in turns with this stage", x->cublas_ms));
        if (x->speedup_over_previous() > 0)
          tooltip_row(tr("stage before"), trf("%s: %.4f ms, timed in turns with this stage (%.3fx this stage's time)",
                                              stage_name(x->previous_stage).c_str(), x->previous_ms,
                                              x->speedup_over_previous()));
        if (!x->is_reference() && x->is_conv) {
          tooltip_row(tr("im2col+cuBLAS"), trf("%.4f ms, timed in turns with this stage", x->im2col_ms));
          if (x->cudnn_ms > 0)
            tooltip_row(tr(fused_peer(find_track(x->track)) ? "cuDNN fused" : "cuDNN"),
                        trf("%.4f ms, timed in turns with this stage", x->cudnn_ms));
        }
        tooltip_row(tr("error"), trf("%.2e (relative Frobenius error vs %s)", x->rel_err,
                                     x->is_conv ? "im2col + cuBLAS" : "cuBLAS"));
        ImGui::EndTooltip();
      }
    }
    // A stage's bar and its % can disagree: under a power cap the clock moves between runs, and
    // the % compares each stage with cuBLAS timed in turns with it, the cuBLAS row with nothing.
    if (std::any_of(rows.begin(), rows.end(), [](const BenchResult* x) { return !x->is_reference() && !x->is_conv; }))
      note_text(tr("Bars: each run's TFLOP/s. Each percentage is against the stage's reference (cuBLAS; cuBLASLt for FP8) timed in turns with that "
                   "stage, and \"x vs\" the speed against the stage before it on the ladder, timed in the same "
                   "turns: the fairer comparisons where the GPU's clock changed between runs."));
    for (const auto& s : r.skipped) {
      if (s.size_key != size) continue;
      ImGui::TextDisabled(tr("%s: skipped, %s"), stage_name(s.stage).c_str(), s.reason.c_str());
    }
    // Stage 14c beside the others: the tensor cores' own rates say why int4 is slow on Hopper.
    if (std::any_of(rows.begin(), rows.end(), [](const BenchResult* x) {
          const StageDesc* s = find_stage_desc(x->stage);
          return s && s->math == MathOp::MmaSyncS4;
        })) {
      std::string rates = tr("Hopper has no fast int4 path: in a register-only loop on an H100,");
      for (const conv::MmaRate& m : conv::kH100MmaSyncRates)
        rates += std::string(" ") + m.instruction + " " + std::to_string(int(m.tera_ops)) + ",";
      rates.back() = '.';
      note_text(rates + tr(" (TFLOP/s, TOP/s; hardware_rules.md)"));
    }
    return size;
  }

  // The roofline of the set's GPU (gemmlab/roofline.h), log-log: the DRAM bound and the roof of
  // each instruction, every shown GEMM stage at its measured rate above its least-traffic
  // intensity. Hover a point for its numbers.
  void draw_roofline(const BenchResults& r, const std::string& size) {
    if (!ImGui::CollapsingHeader(tr("Roofline"), ImGuiTreeNodeFlags_DefaultOpen)) return;
    auto dev = device_preset_for_gpu(r.device.name);
    if (!dev) {
      note_text(tr("No roofline: ") + dev.error() + ".");
      return;
    }
    struct Shown {
      const BenchResult* x;
      RooflinePoint pt;
      GemmTraffic traffic;
    };
    std::vector<Shown> shown;
    for (const BenchResult* x : rows_of(r, size)) {
      if (x->is_conv) continue;
      const auto ops = gemm_operands(x->stage, *dev);
      if (!ops) continue;
      auto pt = place_on_roofline(*dev, ops->math, {x->m, x->n, x->k}, ops->ab_bytes, ops->c_bytes, x->tflops);
      if (pt) shown.push_back({x, *pt, gemm_traffic({x->m, x->n, x->k}, ops->ab_bytes, ops->c_bytes)});
    }
    if (shown.empty()) {
      note_text(tr("No GEMM results at this size to place (a convolution's traffic is not a GEMM's)."));
      return;
    }
    // Decades: intensity 0.1 .. 10^4 FLOP/B, rate 0.1 .. 10^4 TFLOP/s.
    constexpr double kX0 = -1, kX1 = 4, kY0 = -1, kY1 = 4;
    const float font = ImGui::GetFontSize();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = std::max(font * 20, ImGui::GetContentRegionAvail().x - font * 4), h = font * 15;
    const ImVec2 a{o.x + font * 4, o.y + font * 0.5f}, b{a.x + w - font * 9, a.y + h - font * 2.5f};
    auto px = [&](double v) { return a.x + float((std::log10(v) - kX0) / (kX1 - kX0)) * (b.x - a.x); };
    auto py = [&](double v) { return b.y - float((std::log10(v) - kY0) / (kY1 - kY0)) * (b.y - a.y); };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Rgba grid = rgba(90, 90, 100, 110), text = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddRect(a, b, rgba(120, 120, 130));
    const char* labels[] = {"0.1", "1", "10", "100", "1k", "10k"};
    for (int e = 0; e <= 5; ++e) {
      const double v = std::pow(10.0, e - 1);
      dl->AddLine({px(v), a.y}, {px(v), b.y}, grid);
      dl->AddLine({a.x, py(v)}, {b.x, py(v)}, grid);
      dl->AddText({px(v) - font * 0.6f, b.y + font * 0.2f}, text, labels[e]);
      dl->AddText({a.x - font * 2.2f, py(v) - font * 0.5f}, text, labels[e]);
    }
    dl->AddText({a.x, b.y + font * 1.2f}, text, tr("FLOP per byte of DRAM traffic (A, B read once, C written once)"));
    dl->AddText({o.x, a.y - font * 0.1f}, text, "TF/s");
    // The DRAM bound up to the highest roof, then each roof from its ridge on.
    const double bw = dev->dram_tb_s;
    // The floating-point roofs (the GEMMs here; the integer ones belong to the convolutions),
    // highest first.
    std::vector<Roof> roofs;
    for (const Roof& roof : device_roofs(*dev))
      if (roof.math == MathOp::Ffma || roof.math == MathOp::MmaSyncF16 || roof.math == MathOp::WgmmaF16 ||
          roof.math == MathOp::WgmmaE4m3)
        roofs.push_back(roof);
    std::sort(roofs.begin(), roofs.end(), [](const Roof& l, const Roof& r) { return l.rate > r.rate; });
    const double top = roofs.empty() ? 1.0 : roofs.front().rate;
    const double x_lo = std::pow(10.0, kX0);
    dl->AddLine({px(x_lo), py(bw * x_lo)}, {px(top / bw), py(top)}, rgba(230, 90, 90), 2);
    // Roof labels right of the plot, at least a line apart.
    float label_y = -1e9f;
    for (const Roof& roof : roofs) {
      dl->AddLine({px(roof.rate / bw), py(roof.rate)}, {b.x, py(roof.rate)}, rgba(230, 200, 90), 2);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s %.0f", roof.name.c_str(), roof.rate);
      label_y = std::max(py(roof.rate) - font * 0.5f, label_y + font);
      dl->AddText({b.x + font * 0.3f, label_y}, text, buf);
    }
    // The points (stages of one size share an intensity), labelled by their stage number (cuBLAS
    // by name) in a column left of them, fastest first, a line apart, each joined to its point.
    std::sort(shown.begin(), shown.end(), [](const Shown& l, const Shown& r) { return l.pt.rate > r.pt.rate; });
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const Shown* hovered = nullptr;
    label_y = a.y - font;
    for (const Shown& s : shown) {
      const ImVec2 c{px(s.pt.intensity), py(std::max(s.pt.rate, 0.1))};
      const std::string name = stage_name(s.x->stage);
      const ReferenceDesc* ref = find_reference(s.x->stage);
      const StageDesc* stage = find_stage_desc(s.x->stage);
      const std::string tag = ref ? ref->tag : stage ? stage->number : name;
      label_y = std::max(c.y - font * 0.5f, label_y + font);
      const float tag_w = ImGui::CalcTextSize(tag.c_str()).x;
      const ImVec2 at{c.x - font * 3 - tag_w, label_y};
      dl->AddLine({at.x + tag_w + font * 0.2f, label_y + font * 0.5f}, c, rgba(160, 160, 170, 160));
      dl->AddText(at, text, tag.c_str());
      dl->AddCircleFilled(c, font * 0.3f, track_colour(*s.x));
      const bool near_point = std::abs(mouse.x - c.x) < font * 0.5f && std::abs(mouse.y - c.y) < font * 0.5f;
      const bool on_label = mouse.x >= at.x && mouse.x <= at.x + tag_w && mouse.y >= at.y && mouse.y <= at.y + font;
      if (near_point || on_label) hovered = &s;
    }
    ImGui::Dummy({w, h});
    if (hovered && ImGui::IsItemHovered()) {
      const RooflinePoint& p = hovered->pt;
      char buf[160];
      ImGui::BeginTooltip();
      tooltip_row(tr("stage"), stage_name(hovered->x->stage));
      std::snprintf(buf, sizeof buf, "%.1f FLOP/B (%.1f GFLOP over at least %.1f MB of DRAM traffic)", p.intensity,
                    hovered->traffic.ops / 1e9, hovered->traffic.min_dram_bytes / 1e6);
      tooltip_row(tr("intensity"), buf);
      std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", p.rate);
      tooltip_row(tr("measured"), buf);
      std::snprintf(buf, sizeof buf, "%s, %.1f TFLOP/s (ridge at %.0f FLOP/B)", p.roof.name.c_str(), p.roof.rate, p.ridge);
      tooltip_row(tr("roof"), buf);
      std::snprintf(buf, sizeof buf, "%.1f TFLOP/s, %s: the stage runs at %.0f%% of it", p.attainable,
                    p.memory_bound ? "DRAM-bound" : "compute-bound", 100 * p.of_attainable);
      tooltip_row(tr("attainable"), buf);
      ImGui::EndTooltip();
    }
    const long bound = std::count_if(shown.begin(), shown.end(), [](const Shown& s) { return s.pt.memory_bound; });
    note_text(trf("Red: DRAM bandwidth x intensity (%.2f TB/s); yellow: each instruction's peak. ", bw) +
              (bound == 0 ? std::string(tr("Every point here is right of its ridge: none is bound by DRAM; each sits "
                                           "below its instruction's roof by how well it keeps that unit busy. "))
                          : trf("%ld of these points are left of their ridge: DRAM bounds them before their "
                                "instruction does. ", bound)) +
              tr(dev->rate_notes));
  }

  void draw_run_panel(ViewContext& ctx) {
#if GEMMLAB_WITH_RUNNER
    static const std::string gpu_problem = [] {
      std::string why = kernels::gpu_unavailable_reason();
      while (!why.empty() && (why.back() == '.' || why.back() == ' ')) why.pop_back();
      return why;
    }();
    if (!gpu_problem.empty()) {
      note_text(tr("Run needs an NVIDIA GPU: ") + gpu_problem + tr(". Showing saved results."));
      return;
    }
    if (run_) {
      const KernelRunSnapshot s = run_->snapshot();
      if (s.finished) {
        run_error_ = s.error;
        // Skipped-only runs are shown too: the reasons (unknown id, size refused) are the news.
        if (!s.results.results.empty() || !s.results.skipped.empty()) {
          sets_.push_back(s.results);
          ui_.set = static_cast<int>(sets_.size()) - 1;
        }
        run_.reset();
      } else {
        ImGui::ProgressBar(s.total ? float(s.done) / s.total : 0.f, {field_width(30), 0},
                           (std::to_string(s.done) + "/" + std::to_string(s.total)).c_str());
        ImGui::SameLine();
        ImGui::BeginDisabled(s.cancelling);
        if (ImGui::Button(tr("Cancel"))) run_->cancel();
        ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::TextUnformatted(s.cancelling ? tr("cancelling after this entry...") : s.current.c_str());
        return;
      }
    }
    input_int3(tr("run size M,N,K"), ui_.size, 1, kMaxProblemExtent, 5);
    ImGui::SameLine();
    if (ImGui::Button(tr("Run"))) {
      run_error_.clear();
      run_ = start_kernel_run(ui_.stages.empty() ? built_stage_ids() : ui_.stages,
                              {ui_.size[0], ui_.size[1], ui_.size[2]});
    }
    ImGui::SameLine();
    note_text(ui_.stages.empty() ? tr("checks each stage against cuBLAS, then times it (every built stage)")
                                 : tr("checks each stage against cuBLAS, then times it (this step's stages)"));
    if (!run_error_.empty()) error_box(run_error_);
    (void)ctx;
#else
    (void)ctx;
    note_text(tr("This build has no CUDA kernels (nvcc was not found when it was configured), so "
              "\"Run\" is not available here. Shown: the reference results the project measured, "
              "and any results JSON you open (File > Open results, Ctrl+O)."));
#endif
  }

#if GEMMLAB_WITH_RUNNER
  std::unique_ptr<KernelRun> run_;  // its destructor cancels and waits for the entry in progress
  std::string run_error_;
#endif

  KernelsUiState ui_;
  SweepPanel sweep_;
  std::vector<BenchResults> sets_;
  int reference_count_ = 0;
  bool references_loaded_ = false;
  bool pick_set_ = true;  // after a step is applied: show a set that has its size
  std::string load_error_;
  std::string save_message_;
};

}  // namespace

std::unique_ptr<View> make_kernels_view() { return std::make_unique<KernelsView>(); }

}  // namespace gemmlab::app
