// The grid view's L2 plot: the hit rate of reads over time from the L2 replay.
#include "views/grid/grid_view.h"

namespace gemmlab::app::grid {

void GridView::draw_l2(float height) {
  const GridModel& m = *model_;
  if (!l2_) {
    if (l2_too_large_) {
      note_text(l2_error_);
    } else if (!l2_error_.empty()) {
      error_box("L2: " + l2_error_);
    } else {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - l2_started_).count();
      ImGui::TextWrapped(tr("L2 replay running on a worker thread... %.1f s"), secs);
    }
    return;
  }
  const L2Report& r = *l2_;
  if (!shows("grid.l2")) {
    hidden_until_reveal("grid.l2", height);
    return;
  }
  const float top = ImGui::GetCursorScreenPos().y;
  ImGui::TextWrapped(tr("L2 hit rate %.1f%% (with far-partition look-ups %.1f%%)"), 100 * r.hit_rate,
              100 * r.hit_rate_with_far);
  ImGui::TextWrapped(tr("DRAM read %s MB (compulsory %s MB), written %s MB"),
              fmt_mb(double(r.dram_bytes_read)).c_str(), fmt_mb(double(r.compulsory_read_bytes)).c_str(),
              fmt_mb(double(r.dram_bytes_written_total())).c_str());
  if (!shows("grid.timeline")) {  // the hit rate over time draws the launch's length (its box is above)
    ImGui::TextDisabled(tr("hit rate of reads over time: ?"));
    return;
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const double span = std::max(1e-9, m.timeline.makespan);
  // The plot takes what the lines above (wrapped in a narrow column) and the caption below leave.
  const std::string caption = trf("hit rate of reads over time (x axis: 0 .. %.0f k iterations)", span);
  const float below = ImGui::CalcTextSize(caption.c_str(), nullptr, false, w).y + ImGui::GetStyle().ItemSpacing.y * 2;
  const float font = ImGui::GetFontSize();
  // Half a line above the plot: the "100%" label is centred on its top edge.
  const float h = std::max(40.f, height - (p0.y - top) - below - font / 2);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = font * 2.5f;
  const ImVec2 a{p0.x + left, p0.y + font / 2}, b{p0.x + w, p0.y + font / 2 + h};
  dl->AddRectFilled(a, b, IM_COL32(24, 24, 28, 255));
  for (int pct = 0; pct <= 100; pct += 50) {
    const float y = b.y - (b.y - a.y) * pct / 100.f;
    dl->AddLine({a.x, y}, {b.x, y}, IM_COL32(70, 70, 80, 255));
    const std::string t = std::to_string(pct) + "%";
    dl->AddText({p0.x, y - font / 2}, IM_COL32(160, 160, 170, 255), t.c_str());
  }
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
  ImGui::Dummy({w, h + font / 2});
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
  note_text(caption);
}

}  // namespace gemmlab::app::grid
