// The grid view's SM slot timeline: one row per slot, each block's main loop, waits, fix-ups and
// epilogue over time.
#include "views/grid/grid_view.h"

namespace gemmlab::app::grid {

namespace {

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

}  // namespace

void GridView::draw_slots(float height) {
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
  ImGui::TextWrapped(tr("SM slots (%d per SM x %d SMs) over time"), m.occupancy.blocks_per_sm, m.timeline.sms);
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

}  // namespace gemmlab::app::grid
