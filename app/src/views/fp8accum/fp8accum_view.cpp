// View 11, "FP8 accumulator": the error of an FP8 dot product accumulated the way Hopper's tensor
// cores do (14 significant bits, terms cut at 2^(E-13)) against the exact sum, over K, one line per
// promotion interval (every n k-blocks into FP32, as DeepGEMM) and one for none. Median over the
// columns thick, max thin, both axes logarithmic; bf16's own rounding (2^-9) dashed. Every number
// from gemmlab/fp8_promotion.h.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gemmlab/fp8_promotion.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct Fp8UiState {
  std::vector<int> intervals = {1, 2, 4, 8, 0};
  int k_range[2] = {128, 16384};
  std::string data = "positive";
  std::string error_of = "exact";
  int columns = 64;
  int seed = 1;
  bool max_lines = true;  // the thin lines; off where near-zero exact sums make them noise
};

// 0.06%, 1.4%, 23%: two significant digits; 0 is exact.
std::string fmt_pct(double e) {
  if (e == 0) return tr("0 (exact)");
  char buf[32];
  const double p = 100 * e;
  std::snprintf(buf, sizeof buf, p >= 10 ? "%.0f%%" : p >= 1 ? "%.1f%%" : "%.2g%%", p);
  return buf;
}

std::string interval_name(int every) {
  if (every == 0) return tr("no promotion");
  if (every == 1) return tr("every k-block (128)");
  return trf("every %d k-blocks (%d)", every, every * 128);
}

Rgba line_color(int every, int index) { return every == 0 ? rgba(240, 90, 80) : id_color(index); }

class Fp8AccumView final : public View {
 public:
  const char* id() const override { return "fp8accum"; }

  void apply(const Json& s) override {
    ui_ = Fp8UiState{};
    if (s.contains("intervals")) ui_.intervals = s["intervals"].get<std::vector<int>>();
    if (s.contains("k_range")) ui_.k_range[0] = s["k_range"][0], ui_.k_range[1] = s["k_range"][1];
    if (s.contains("data")) ui_.data = s["data"];
    if (s.contains("error_of")) ui_.error_of = s["error_of"];
    if (s.contains("columns")) ui_.columns = s["columns"];
    if (s.contains("seed")) ui_.seed = s["seed"];
    if (s.contains("max_lines")) ui_.max_lines = s["max_lines"];
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    if (spec.quantity != "fp8accum.none_error_pct") return View::predict(spec);
    auto s = study_spec();
    if (!s) return Error{s.error()};
    fp8::PromotionStudySpec only_none = *s;
    only_none.ks = {s->ks.back()};
    only_none.intervals = {0};
    auto r = fp8::promotion_study(only_none);
    if (!r) return Error{r.error()};
    return 100 * r->points[0].median;
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    out["data"] = ui_.data;
    out["error_of"] = ui_.error_of;
    out["columns"] = ui_.columns;
    out["seed"] = ui_.seed;
    const auto& r = study();
    if (!r) {
      out["error"] = r.error();
      return out;
    }
    for (const auto& p : r->points)
      out["points"].push_back(
          {{"k", p.k}, {"promote_every", p.promote_every}, {"median", p.median}, {"max", p.max}, {"exact_columns", p.exact_columns}});
    return out;
  }

  void draw(ViewContext&) override {
    draw_controls();
    const auto& r = study();
    if (!r) {
      error_box(r.error());
      return;
    }
    const bool none_shown = !hides("fp8accum.none_curve");
    ImGui::TextWrapped(tr("%s data, columns: %d; e4m3 x e4m3; error = |tensor-core result - exact sum| / %s"), ui_.data.c_str(),
                       ui_.columns, ui_.error_of == "exact" ? tr("|exact sum|") : tr("sum of |a b|"));
    std::vector<std::pair<std::uint32_t, std::string>> legend;
    for (size_t i = 0; i < ui_.intervals.size(); ++i)
      legend.push_back({line_color(ui_.intervals[i], int(i)), interval_name(ui_.intervals[i])});
    legend_swatches(ui_.max_lines ? tr("lines (thick: median over the columns, thin: max)") : tr("lines (median over the columns)"),
                    legend);
    const float below = ImGui::GetTextLineHeightWithSpacing() * 3.2f;
    draw_plot(*r, std::max(120.f, ImGui::GetContentRegionAvail().y - below));
    draw_summary(*r, none_shown);
    if (!none_shown) hidden_until_reveal("fp8accum.none_curve");
  }

 private:
  Expected<fp8::PromotionStudySpec> study_spec() const {
    auto data = fp8::parse_fp8_data(ui_.data);
    if (!data) return Error{data.error()};
    auto of = fp8::parse_fp8_error_of(ui_.error_of);
    if (!of) return Error{of.error()};
    if (ui_.k_range[0] > ui_.k_range[1]) return Error{"K min must not exceed K max"};
    fp8::PromotionStudySpec s;
    s.ks = fp8::doubling_ks(ui_.k_range[0], ui_.k_range[1]);
    s.intervals = ui_.intervals;
    s.columns = ui_.columns;
    s.data = *data;
    s.error_of = *of;
    s.seed = std::uint64_t(ui_.seed);
    return s;
  }

  // The study for the current settings, recomputed only when they change.
  const Expected<fp8::PromotionStudy>& study() const {
    const std::string key = settings_key();
    if (key != cached_key_) {
      auto s = study_spec();
      cached_ = s ? fp8::promotion_study(*s) : Expected<fp8::PromotionStudy>(Error{s.error()});
      cached_key_ = key;
    }
    return cached_;
  }
  std::string settings_key() const {
    std::string k = ui_.data + "|" + ui_.error_of + "|" + std::to_string(ui_.k_range[0]) + "|" + std::to_string(ui_.k_range[1]) +
                    "|" + std::to_string(ui_.columns) + "|" + std::to_string(ui_.seed) + "|";
    for (int e : ui_.intervals) k += std::to_string(e) + ",";
    return k;
  }

  void draw_controls() {
    combo_string(tr("data"), &ui_.data, {"normal", "positive", "pm1", "ones"}, 7);
    ImGui::SameLine();
    combo_string(tr("error of"), &ui_.error_of, {"exact", "magnitude"}, 8);
    ImGui::SameLine();
    input_int2(tr("K range"), ui_.k_range, 128, 65536, 6);
    ImGui::SameLine();
    input_int(tr("columns"), &ui_.columns, 1, 1024, 4);
    ImGui::SameLine();
    input_int(tr("seed"), &ui_.seed, 0, 1 << 30, 4);
    ImGui::SameLine();
    help_marker(tr("A k-block is 128 elements of K: 4 wgmma k32 steps, the block one fine-grained scale covers. Each "
                   "column is a dot product of K e4m3 pairs drawn from the seed; normal and positive data are quantized "
                   "per 128-block with scale amax / 448. Promotion every n k-blocks: the tensor core's partial sum is "
                   "added into an FP32 register and the tensor core starts again from zero."));
    // Toggles for the usual intervals; a lesson may set others, which stay listed.
    for (int every : {1, 2, 4, 8, 16, 0}) {
      bool on = std::find(ui_.intervals.begin(), ui_.intervals.end(), every) != ui_.intervals.end();
      const std::string label = every == 0 ? std::string(tr("none")) : std::to_string(every);
      if (ImGui::Checkbox(label.c_str(), &on)) {
        if (on && ui_.intervals.size() < 8) ui_.intervals.push_back(every);
        if (!on && ui_.intervals.size() > 1) ui_.intervals.erase(std::find(ui_.intervals.begin(), ui_.intervals.end(), every));
      }
      ImGui::SameLine();
    }
    ImGui::TextDisabled("%s", tr("promote every n k-blocks"));
    ImGui::SameLine();
    ImGui::Checkbox(tr("max"), &ui_.max_lines);
  }

  void draw_plot(const fp8::PromotionStudy& r, float height) {
    const bool none_shown = !hides("fp8accum.none_curve");
    const auto drawn = [&](const fp8::PromotionPoint& p) { return p.promote_every != 0 || none_shown; };
    // Decades from the smallest nonzero error drawn to the largest; bf16's 2^-9 always inside.
    double lo = fp8::kBf16HalfUlp, hi = fp8::kBf16HalfUlp;
    bool zeros = false;
    for (const auto& p : r.points) {
      if (!drawn(p)) continue;
      for (double v : {p.median, ui_.max_lines ? p.max : p.median}) {
        if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
        zeros |= v == 0;
      }
    }
    const int d_lo = int(std::floor(std::log10(lo))), d_hi = std::max(d_lo + 1, int(std::ceil(std::log10(hi))));
    const auto& ks = r.spec.ks;
    const float font = ImGui::GetFontSize();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 a{p0.x + font * 3.5f, p0.y + font * 0.5f}, b{p0.x + w - font * 1.5f, p0.y + height - font * 2.6f};
    // A row below the lowest decade for errors of exactly 0 (log axes have no 0), where there are any.
    const float zero_y = b.y - font * 0.5f, top_y = a.y, decade_bottom = b.y - (zeros ? font * 2.0f : font * 0.5f);
    const double x_lo = std::log2(double(ks.front())), x_hi = std::log2(double(ks.back()));
    auto to_x = [&](int k) {
      return ks.size() == 1 ? (a.x + b.x) / 2 : a.x + float((std::log2(double(k)) - x_lo) / (x_hi - x_lo)) * (b.x - a.x);
    };
    auto to_y = [&](double v) {
      if (v <= 0) return zero_y;
      return decade_bottom - float((std::log10(v) - d_lo) / double(d_hi - d_lo)) * (decade_bottom - top_y);
    };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(a, b, IM_COL32(24, 24, 28, 255));
    const Rgba axis_text = IM_COL32(170, 170, 180, 255);
    for (int d = d_lo; d <= d_hi; ++d) {
      const float y = to_y(std::pow(10.0, d));
      dl->AddLine({a.x, y}, {b.x, y}, IM_COL32(70, 70, 80, 255));
      char t[16];
      std::snprintf(t, sizeof t, "1e%d", d);
      dl->AddText({p0.x, y - font / 2}, axis_text, t);
    }
    if (zeros) dl->AddText({p0.x, zero_y - font / 2}, axis_text, "0");
    for (int k : ks) {
      const float x = to_x(k);
      dl->AddLine({x, a.y}, {x, b.y}, IM_COL32(55, 55, 64, 255));
      const std::string t = std::to_string(k);
      const float tw = ImGui::CalcTextSize(t.c_str()).x;
      dl->AddText({x - tw / 2, b.y + font * 0.2f}, axis_text, t.c_str());
    }
    dl->AddText({a.x, b.y + font * 1.3f}, axis_text, tr("K (log scale)"));
    // bf16's rounding: an accumulator error under it vanishes in the bf16 output.
    const float bf = to_y(fp8::kBf16HalfUlp);
    for (float x = a.x; x < b.x; x += 12) dl->AddLine({x, bf}, {std::min(x + 6, b.x), bf}, IM_COL32(230, 230, 120, 220), 1.5f);
    // Labelled at the left, on a backing, where the lines are still low (K small).
    const char* bf_label = tr("bf16 rounding (2^-9)");
    const ImVec2 bl{a.x + font * 0.4f, bf - font * 1.2f};
    dl->AddRectFilled({bl.x - 2, bl.y}, {bl.x + ImGui::CalcTextSize(bf_label).x + 2, bl.y + font}, IM_COL32(24, 24, 28, 200));
    dl->AddText(bl, IM_COL32(230, 230, 120, 255), bf_label);
    for (size_t i = 0; i < r.spec.intervals.size(); ++i) {
      const int every = r.spec.intervals[i];
      if (every == 0 && !shows("fp8accum.none_curve")) continue;
      const Rgba col = line_color(every, int(i));
      ImVec2 prev_med{}, prev_max{};
      for (size_t j = 0; j < ks.size(); ++j) {
        const fp8::PromotionPoint* p = r.at(ks[j], every);
        if (!p) continue;
        const ImVec2 med{to_x(ks[j]), to_y(p->median)}, mx{to_x(ks[j]), to_y(p->max)};
        if (j > 0) {
          dl->AddLine(prev_med, med, col, 2.5f);
          if (ui_.max_lines) dl->AddLine(prev_max, mx, with_alpha(col, 150), 1.0f);
        }
        dl->AddCircleFilled(med, 3.5f, col);
        prev_med = med, prev_max = mx;
      }
    }
    ImGui::Dummy({w, height});
    if (ImGui::IsItemHovered()) hover_tooltip(r, to_x, none_shown);
  }

  template <class ToX>
  void hover_tooltip(const fp8::PromotionStudy& r, const ToX& to_x, bool none_shown) {
    const float mx = ImGui::GetIO().MousePos.x;
    int best = r.spec.ks.front();
    for (int k : r.spec.ks)
      if (std::fabs(to_x(k) - mx) < std::fabs(to_x(best) - mx)) best = k;
    ImGui::BeginTooltip();
    tooltip_row("K", fmt_int(best));
    for (int every : r.spec.intervals) {
      const fp8::PromotionPoint* p = r.at(best, every);
      if (!p) continue;
      const std::string v = every == 0 && !none_shown ? std::string("?")
                                                      : trf("median %s, max %s", fmt_pct(p->median).c_str(), fmt_pct(p->max).c_str());
      tooltip_row(interval_name(every).c_str(), v);
    }
    ImGui::EndTooltip();
  }

  // The medians at the largest K: what the lesson text reads off. One item per line of the plot,
  // so that a wrap never splits a number.
  void draw_summary(const fp8::PromotionStudy& r, bool none_shown) {
    const int k = r.spec.ks.back();
    ImGui::TextUnformatted(trf("median error at K = %d:", k).c_str());
    for (int every : r.spec.intervals) {
      const fp8::PromotionPoint* p = r.at(k, every);
      if (!p) continue;
      const std::string item = interval_name(every) + " " + (every == 0 && !none_shown ? std::string("?") : fmt_pct(p->median));
      same_line_if_fits(ImGui::CalcTextSize(item.c_str()).x + ImGui::GetFontSize());
      ImGui::TextUnformatted(item.c_str());
    }
  }

  Fp8UiState ui_;
  mutable std::string cached_key_;
  mutable Expected<fp8::PromotionStudy> cached_ = Error{"not computed"};
};

}  // namespace

std::unique_ptr<View> make_fp8accum_view() { return std::make_unique<Fp8AccumView>(); }

}  // namespace gemmlab::app
