// The Kernels view's shape sweep (kernels_sweep.h): a heat map of the sweep's ratios, the
// geometric means, and the launch facts that say why, all from the simulator.
#include "views/kernels/kernels_sweep.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "label_placer.h"
#include "model/results_sweep.h"
#include "model/stage_labels.h"
#include "palette.h"
#include "ui_util.h"

namespace gemmlab::app {
namespace {

std::string shape_text(GemmCoord s) {
  return std::to_string(s.m) + " x " + std::to_string(s.n) + " x " + std::to_string(s.k);
}

std::string percent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100 * ratio);
  return buf;
}

bool same(GemmCoord a, GemmCoord b) { return a.m == b.m && a.n == b.n && a.k == b.k; }

std::string cache_key(const std::string& stage, GemmCoord shape, const BenchDevice& device) {
  return stage + "|" + shape_text(shape) + "|" + device.name + "|" + std::to_string(device.sms);
}

// Green at or above the reference (brighter up to 110%), amber just below it, red at half its
// speed or less: "where does the stage lose" reads at a glance, and 99% is never green.
Rgba ratio_colour(double r) {
  auto mix = [](int a, int b, double t) { return int(a + (b - a) * std::clamp(t, 0.0, 1.0)); };
  if (r >= 1) {
    const double t = (r - 1) / 0.1;
    return rgba(mix(40, 50, t), mix(110, 170, t), mix(60, 80, t));
  }
  const double t = (1 - r) / 0.5;
  return rgba(mix(150, 170, t), mix(115, 45, t), mix(40, 45, t));
}
const Rgba kNotMeasured = rgba(60, 60, 66), kWrongCell = rgba(120, 30, 30);
constexpr size_t kMaxCached = 4096;  // launches kept: a sweep has tens; hovering a huge file, more

}  // namespace

// Column geometry: the shape labels, one column per stage, the best column.
struct SweepPanel::Layout {
  float shape_w = 0, best_w = 0, row_h = 0, header_h = 0;
  bool ids = true;  // the header's second line: the stage ids
  std::vector<float> col_w;
  float width() const {
    float w = shape_w + best_w;
    for (float c : col_w) w += c;
    return w;
  }
};

// Columns as wide as their widest text; where that is wider than the view (a file of many
// stages), the stage ids are left out of the header and the numbers name the columns.
SweepPanel::Layout SweepPanel::layout(const ShapeSweep& sw) const {
  Layout l;
  const float font = ImGui::GetFontSize(), pad = font * 0.6f;
  for (const GemmCoord& s : sw.shapes) l.shape_w = std::max(l.shape_w, ImGui::CalcTextSize(shape_text(s).c_str()).x);
  l.shape_w = std::max(l.shape_w, ImGui::CalcTextSize(tr("geometric mean")).x) + pad;
  l.best_w = std::max(ImGui::CalcTextSize(tr("best")).x, ImGui::CalcTextSize("13b 100.0%").x) + pad;
  l.row_h = font * 1.2f;
  l.header_h = font * 2.3f;
  for (const bool ids : {true, false}) {
    l.ids = ids;
    l.col_w.clear();
    for (const SweepStage& st : sw.stages) {
      const StageDesc* d = find_stage_desc(st.stage);
      const float w = std::max({ids ? ImGui::CalcTextSize(st.stage.c_str()).x : 0.f, ImGui::CalcTextSize("100.0").x,
                                ImGui::CalcTextSize(d ? d->number : st.stage.c_str()).x});
      l.col_w.push_back(w + pad);
    }
    if (l.width() <= ImGui::GetContentRegionAvail().x) break;
  }
  return l;
}

void SweepPanel::draw(const std::vector<const BenchResults*>& sets, const std::vector<std::string>& stages) {
  if (sets.empty()) return;
  const std::vector<SweepRow> rows = sweep_rows(sets, stages);
  // cuBLAS fp16 first; a file with fp32 stages too offers their sweep against cuBLAS fp32.
  const std::vector<std::string> refs = sweep_references(rows);
  if (std::find(refs.begin(), refs.end(), reference_) == refs.end()) reference_ = sweep_reference(rows);
  if (refs.size() > 1) combo_string(tr("against"), &reference_, refs, 14);
  const ShapeSweep sw = reference_.empty() ? ShapeSweep{} : shape_sweep(rows, {}, reference_);
  if (sw.stages.empty()) {
    note_text(tr("No GEMM stage was timed against a reference in these results: nothing to sweep."));
    return;
  }
  const ReferenceDesc* ref = find_reference(reference_);
  legend_swatches(trf("%% of %s, timed in turns", ref ? ref->name : reference_.c_str()).c_str(),
                  {{ratio_colour(1.05), tr("faster")},
                   {ratio_colour(0.9), tr("slower")},
                   {ratio_colour(0.4), tr("half as fast or less")},
                   {kHighlight, tr("best at the shape")}});
  draw_table(sw, layout(sw));
  draw_summary(sw);
  draw_why(sw, sets.back()->device);
}

void SweepPanel::draw_table(const ShapeSweep& sw, const Layout& l) {
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const size_t rows = sw.shapes.size() + 1;  // the shapes, then the geometric means
  ImDrawList* dl = ImGui::GetWindowDrawList();
  LabelPlacer labels(dl, o, {o.x + std::max(l.width(), ImGui::GetContentRegionAvail().x), o.y + l.header_h + rows * l.row_h});
  const Rgba text = ImGui::GetColorU32(ImGuiCol_Text), dim_text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  labels.text({o.x, o.y + font * 1.1f}, tr("M x N x K"), dim_text);
  float x = o.x + l.shape_w;
  for (size_t s = 0; s < sw.stages.size(); ++s) {
    const StageDesc* d = find_stage_desc(sw.stages[s].stage);
    labels.text_centred(x + l.col_w[s] / 2, o.y, d ? d->number : sw.stages[s].stage.c_str(), text);
    if (l.ids) labels.text_centred(x + l.col_w[s] / 2, o.y + font * 1.1f, sw.stages[s].stage.c_str(), text);
    x += l.col_w[s];
  }
  labels.text_centred(x + l.best_w / 2, o.y + font * 1.1f, tr("best"), text);
  hovered_stage_ = hovered_shape_ = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t r = 0; r < rows; ++r) {
    const bool means = r == sw.shapes.size();
    const float y = o.y + l.header_h + r * l.row_h;
    if (!ImGui::IsRectVisible({o.x, y}, {o.x + l.width(), y + l.row_h})) continue;  // a file of many shapes
    if (!means && same(sw.shapes[r], selected_))
      dl->AddRectFilled({o.x, y}, {o.x + l.width(), y + l.row_h}, rgba(255, 255, 255, 28));
    labels.text({o.x, y + (l.row_h - font) / 2}, means ? tr("geometric mean") : shape_text(sw.shapes[r]).c_str(),
                means ? dim_text : text);
    x = o.x + l.shape_w;
    for (size_t s = 0; s < sw.stages.size(); ++s) {
      const SweepStage& st = sw.stages[s];
      const double v = means ? st.geomean : st.ratio[r];
      const bool wrong = !means && st.wrong[r];
      const ImVec2 a{x + 1, y + 1}, b{x + l.col_w[s] - 1, y + l.row_h - 1};
      dl->AddRectFilled(a, b, wrong ? kWrongCell : v > 0 ? ratio_colour(v) : kNotMeasured);
      labels.in_box(a, b, wrong ? tr("wrong") : v > 0 ? percent(v).c_str() : "-", IM_COL32_WHITE);
      if (!means && sw.best[r] == int(s)) dl->AddRect(a, b, kHighlight, 0, 0, 2.f);
      if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) hovered_stage_ = int(s);
      x += l.col_w[s];
    }
    const int best = means ? -1 : sw.best[r];
    const double best_ratio = means ? sw.best_geomean : best >= 0 ? sw.stages[size_t(best)].ratio[r] : 0;
    const StageDesc* d = best >= 0 ? find_stage_desc(sw.stages[size_t(best)].stage) : nullptr;
    const std::string cell = best_ratio <= 0 ? "-" : (d ? std::string(d->number) + " " : "") + percent(best_ratio) + "%";
    labels.in_box({x + 1, y + 1}, {x + l.best_w - 1, y + l.row_h - 1}, cell.c_str(), means ? text : dim_text);
    if (mouse.y >= y && mouse.y < y + l.row_h && !means) hovered_shape_ = int(r);
  }
  ImGui::InvisibleButton("##sweep", {l.width(), l.header_h + rows * l.row_h});
  if (!ImGui::IsItemHovered()) hovered_stage_ = hovered_shape_ = -1;
  if (ImGui::IsItemClicked() && hovered_shape_ >= 0) selected_ = sw.shapes[size_t(hovered_shape_)];
}

void SweepPanel::draw_summary(const ShapeSweep& sw) {
  size_t top = 0;  // the stage with the highest geometric mean
  for (size_t s = 1; s < sw.stages.size(); ++s)
    if (sw.stages[s].geomean > sw.stages[top].geomean) top = s;
  const SweepStage& t = sw.stages[top];
  // Two short lines: a wrapped line may break inside "84.8%" in Chinese text.
  note_text(trf("The best stage per shape reaches %.1f%% of the reference (geometric mean over %d shapes).",
                100 * sw.best_geomean, sw.shapes_measured));
  note_text(trf("The best single stage, %s: %.1f%%, at least as fast at %d of %d. Click a shape for why.",
                stage_label(t.stage).c_str(), 100 * t.geomean, t.wins, t.measured));
}

const SweepLaunch* SweepPanel::launch_of(const std::string& stage, GemmCoord shape, const BenchDevice& device) {
  const std::string key = cache_key(stage, shape, device);
  auto it = launches_.find(key);
  if (it == launches_.end()) {
    if (launches_.size() >= kMaxCached) launches_.clear(), launch_errors_.clear();  // a file of endless shapes
    std::optional<SweepLaunch> value;
    const StageDesc* d = find_stage_desc(stage);
    auto dev = sweep_device(device);
    if (!dev) {
      launch_errors_[key] = dev.error();
    } else if (d) {
      auto s = sweep_launch(*d, shape, *dev);
      if (s) value = *s;
      else launch_errors_[key] = s.error();
    }
    it = launches_.emplace(key, value).first;
  }
  return it->second ? &*it->second : nullptr;
}

const Dispatch* SweepPanel::dispatch_of(GemmCoord shape, const BenchDevice& device) {
  const std::string key = cache_key("dispatch", shape, device);
  auto it = dispatches_.find(key);
  if (it == dispatches_.end()) {
    if (dispatches_.size() >= kMaxCached) dispatches_.clear();
    std::optional<Dispatch> value;
    if (auto dev = sweep_device(device))
      if (auto d = dispatch_fp16(shape, *dev)) value = *d;
    it = dispatches_.emplace(key, value).first;
  }
  return it->second ? &*it->second : nullptr;
}

// "16 wgmma  128x128: 64 tiles, 64 blocks, 48% busy; 16 of 128 rows used"
std::string SweepPanel::launch_line(const std::string& stage, GemmCoord shape, const BenchDevice& device) {
  const SweepLaunch* l = launch_of(stage, shape, device);
  const std::string name = stage_label(stage);
  if (!l) {
    const std::string& why = launch_errors_[cache_key(stage, shape, device)];
    return trf("%s: no launch to show (%s)", name.c_str(), why.c_str());
  }
  std::string line =
      l->persistent
          ? trf("%s  %dx%d: %lld tiles, %lld resident blocks", name.c_str(), l->tile_m, l->tile_n, l->tiles, l->blocks)
          : trf("%s  %dx%d: %lld tiles, %lld blocks", name.c_str(), l->tile_m, l->tile_n, l->tiles, l->blocks);
  if (!l->persistent && l->waves > 1) line += trf(" (%.2f waves)", l->waves);  // below 1, "busy" says it
  line += trf(", %.0f%% busy", 100 * l->busy);
  if (l->tiles_m == 1 && l->rows_used < l->tile_m) line += trf("; %d of %d rows used", l->rows_used, l->tile_m);
  // Stage 18's rows rounded up to whole clusters (a split-K launch has more blocks than tiles too).
  if (!l->persistent && l->cluster_m > 1 && l->blocks > l->tiles) line += tr("; each tile's cluster peer only loads B");
  if (l->pieces > 0) line += trf("; the tiles' K split into %lld pieces in all (stream-k)", l->pieces);
  if (l->split_k > 1) line += trf("; K split into %d slices", l->split_k);
  if (l->launched) line += trf("; the launch of %s, which its rule picks here", l->launched->name);
  return line;
}

void SweepPanel::draw_why(const ShapeSweep& sw, const BenchDevice& device) {
  const int shown = hovered_shape_ >= 0 ? hovered_shape_ : [&] {
    for (size_t r = 0; r < sw.shapes.size(); ++r)
      if (same(sw.shapes[r], selected_)) return int(r);
    return -1;
  }();
  if (shown < 0) return;
  const GemmCoord shape = sw.shapes[size_t(shown)];
  if (hovered_stage_ >= 0 && hovered_shape_ >= 0) {
    ImGui::BeginTooltip();
    const SweepStage& st = sw.stages[size_t(hovered_stage_)];
    tooltip_row(tr("stage"), stage_label(st.stage));
    tooltip_row(tr("size"), shape_text(shape));
    tooltip_row(tr("launch"), launch_line(st.stage, shape, device));
    ImGui::EndTooltip();
  }
  ImGui::Spacing();
  ImGui::TextUnformatted(trf("Why, at %s on %d SMs: each stage's launch (the simulator's plan of it)",
                             shape_text(shape).c_str(), device.sms).c_str());
  ImGui::PushTextWrapPos(0);
  for (const SweepStage& st : sw.stages) ImGui::TextUnformatted(launch_line(st.stage, shape, device).c_str());
  ImGui::PopTextWrapPos();
  if (const Dispatch* d = dispatch_of(shape, device)) {
    std::string line = trf("A kernel picked for this shape (gemmlab sim dispatch): %dx%d tiles, %lld blocks, %.0f%% busy",
                           d->tile_m, d->tile_n, d->blocks, 100 * d->fill);
    if (d->split == KSplit::SplitK) line += trf("; K split %d ways", d->splits);
    if (d->split == KSplit::StreamK) line += tr("; stream-k over K");
    note_text(line + tr(". cuBLAS picks its kernel per shape; each stage here has one tile."));
  }
}

}  // namespace gemmlab::app
