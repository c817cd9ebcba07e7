// View 5, "Pipeline stepper": one warp's main loop in time (every warp runs the same sequence)
// for CUTLASS's MmaPipelined (2 stages), the kStage cp.async loop and the hand-written mma_base HGEMM: which
// unit is busy, which shared-memory stage each event writes or reads, where barriers and
// cp.async waits hold the warp. For the Hopper kinds (warp-specialized:K, ping-pong:K) one row per
// warpgroup (producer, consumers) and the mbarrier phases on the stage rows.
// gemmlab::trace_pipeline computes the events; this file draws.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/pipeline_trace.h"
#include "gemmlab/pipeline_counts.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct PipelineUiState {
  std::string kind = "pipelined2";
  int k_iterations = 4;
  int tiles = 0;  // 0: the kind's default (warp-specialized 1, ping-pong 4)
  int cursor = 0;
  // A lesson's `event = [kind, k_tile]`: the cursor starts at the first such event (k_tile -1: any).
  std::string event_kind;
  int event_k_tile = -1;
  float global_latency = 8, shared_latency = 1, math_cost = 1;
  bool playing = false;
  float play_clock = 0;
  CanvasState canvas;
};

// Gantt rows: what unit an event keeps busy.
enum Row { kRowGlobal, kRowSts, kRowLds, kRowMath, kRowSync, kRowEpilogue, kRows };
const char* kRowNames[kRows] = {"global loads", "STS (regs->smem)", "LDS / ldmatrix", "MMA",
                                "barrier / wait", "epilogue STG"};

Row row_of(TraceEventKind k) {
  switch (k) {
    case TraceEventKind::MbarrierWait:
    case TraceEventKind::MbarrierArrive:
    case TraceEventKind::LoadGlobal: return kRowGlobal;
    case TraceEventKind::StoreShared: return kRowSts;
    case TraceEventKind::LoadShared: return kRowLds;
    case TraceEventKind::Math: return kRowMath;
    case TraceEventKind::Barrier:
    case TraceEventKind::Wait:
    case TraceEventKind::Commit: return kRowSync;
    case TraceEventKind::StoreGlobal: return kRowEpilogue;
  }
  return kRowSync;
}

// Warp-specialized kinds: one row per warpgroup instead of one per unit.
int unit_rows(const PipelineTrace& t) { return t.spec.warp_specialized() ? 1 + t.spec.consumers : kRows; }
int row_of(const PipelineTrace& t, const TraceEvent& e) {
  return t.spec.warp_specialized() ? std::max(0, e.role) : row_of(e.kind);
}
std::string row_name(const PipelineTrace& t, int r) {
  if (!t.spec.warp_specialized()) return tr(kRowNames[r]);
  return r == 0 ? std::string(tr("producer WG (TMA)")) : trf("consumer WG %d (wgmma)", r - 1);
}

class PipelineView final : public View {
 public:
  const char* id() const override { return "pipeline"; }

  void apply(const Json& s) override {
    ui_ = PipelineUiState{};
    if (s.contains("kind")) ui_.kind = s["kind"];
    if (s.contains("k_iterations")) ui_.k_iterations = s["k_iterations"];
    if (s.contains("tiles")) ui_.tiles = s["tiles"];
    if (s.contains("global_latency")) ui_.global_latency = s["global_latency"].get<float>();
    if (s.contains("cursor")) ui_.cursor = s["cursor"];
    if (s.contains("event")) ui_.event_kind = s["event"][0], ui_.event_k_tile = s["event"][1];
    if (auto t = compute(); t && !ui_.event_kind.empty())
      if (auto at = event_index(*t)) ui_.cursor = *at;
  }

  bool has_animation() const override { return true; }
  bool playing() const override { return ui_.playing; }
  void set_playing(bool on) override { ui_.playing = on; }

  Expected<double> predict(const PredictSpec& spec) const override {
    if (spec.quantity != "pipeline.stages_in_flight") return View::predict(spec);
    auto t = compute();
    if (!t) return Error{t.error()};
    auto n = stages_in_flight_at_first_math(*t);
    if (!n) return Error{n.error()};
    return double(*n);
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    out["kind"] = ui_.kind;
    out["k_iterations"] = ui_.k_iterations;
    out["tiles"] = ui_.tiles;
    auto t = compute();
    if (!t) {
      out["error"] = t.error();
      return out;
    }
    if (!ui_.event_kind.empty() && !event_index(*t)) {
      out["error"] = "this trace has no " + ui_.event_kind + " event" +
                     (ui_.event_k_tile >= 0 ? " of k-tile " + std::to_string(ui_.event_k_tile) : std::string()) +
                     " (pipeline.event)";
      return out;
    }
    out["cursor"] = ui_.cursor;
    out["stages"] = t->spec.stages;
    out["warp_k_steps"] = t->spec.warp_k_steps;
    out["total_time"] = t->total_time;
    out["math_busy"] = t->math_busy;
    Json ev = Json::array();
    for (const auto& e : t->events)
      ev.push_back({trace_event_kind_name(e.kind), e.label, e.k_tile, e.k_group, e.smem_read,
                    e.smem_write, e.start, e.end});
    out["events_columns"] = {"kind", "label", "k_tile", "k_group", "smem_read", "smem_write", "start", "end"};
    out["events"] = ev;
    return out;
  }

  void draw(ViewContext& ctx) override {
    draw_controls();
    auto t = compute();
    if (!t) {
      error_box(t.error());
      return;
    }
    const int n = static_cast<int>(t->events.size());
    ui_.cursor = std::clamp(ui_.cursor, 0, std::max(0, n - 1));
    if (ui_.playing && !ctx.headless) {
      ui_.play_clock += ctx.dt;
      if (ui_.play_clock > 0.25f) {
        ui_.play_clock = 0;
        if (++ui_.cursor >= n) ui_.cursor = 0;
      }
    }
    // While a predict step asks what is in flight, the timeline that shows it is left out.
    const bool timeline = shows("pipeline.timeline");
    if (timeline)
      ImGui::TextWrapped(tr("%d shared stages, %d warp k groups per tile, %zu events: time %.0f, MMA busy %.0f%%"),
                  t->spec.stages, t->spec.warp_k_steps, t->events.size(), t->total_time,
                  100 * math_busy_share(*t));
    else
      ImGui::TextWrapped(tr("%d shared stages, %d warp k groups per tile"), t->spec.stages, t->spec.warp_k_steps);
    if (t->spec.warp_specialized())
      note_text(tr("One row per warpgroup: they run apart and meet only at the mbarriers. Green ticks on a stage row: "
                "full[s] completed a phase (the TMA bytes are in); orange: empty[s] completed one (every consumer "
                "gave the stage back). The tensor cores are shared: one wgmma group at a time."));
    else
      note_text(tr("Every warp of the block runs this sequence (the barriers keep them in step). "
                "Times are relative: a global load takes the global latency, an STS 1."));
    // The legend names only what this trace draws: mbarriers only where the pipeline has them,
    // faint bars only where a load is issued past the last k tile with its guard off.
    auto has = [&](auto pred) { return std::any_of(t->events.begin(), t->events.end(), pred); };
    std::vector<std::pair<std::uint32_t, std::string>> legend = {
        {id_color(0), tr("k-tile 0")}, {id_color(1), tr("k-tile 1")}, {id_color(2), "2 ..."}};
    if (has([](const TraceEvent& e) { return e.kind == TraceEventKind::Wait || e.kind == TraceEventKind::MbarrierWait; }))
      legend.push_back({rgba(200, 60, 60), tr("wait")});
    if (has([](const TraceEvent& e) { return e.kind == TraceEventKind::Barrier; }))
      legend.push_back({rgba(240, 240, 240), tr("block barrier")});
    if (has([](const TraceEvent& e) { return e.kind == TraceEventKind::MbarrierArrive; })) {
      legend.push_back({rgba(120, 220, 120), tr("full mbarrier arrive")});
      legend.push_back({rgba(240, 150, 60), tr("empty arrive")});
    }
    if (has([](const TraceEvent& e) { return e.predicated_off; }))
      legend.push_back({with_alpha(id_color(0), 70), tr("faint: past the last k tile, guard off")});
    legend_swatches(tr("timeline"), legend);
    if (!timeline) {
      hidden_until_reveal("pipeline.timeline", ImGui::GetContentRegionAvail().y);
      return;
    }
    draw_cursor_bar(*t);
    const float h = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("##gantt", {0, h * 0.62f}, false, ImGuiWindowFlags_NoScrollWithMouse);
    draw_gantt(*t);
    ImGui::EndChild();
    draw_event_table(*t);
  }

 private:
  // The first event of the lesson's `event` kind (and k-tile), or nullopt.
  std::optional<int> event_index(const PipelineTrace& t) const {
    for (size_t i = 0; i < t.events.size(); ++i)
      if (ui_.event_kind == trace_event_kind_name(t.events[i].kind) &&
          (ui_.event_k_tile < 0 || t.events[i].k_tile == ui_.event_k_tile))
        return static_cast<int>(i);
    return std::nullopt;
  }

  Expected<PipelineTrace> compute() const {
    auto spec = parse_pipeline_kind(ui_.kind);
    if (!spec) return Error{spec.error()};
    PipelineSpec s = *spec;
    s.k_iterations = ui_.k_iterations;
    s.global_latency = ui_.global_latency;
    s.shared_latency = ui_.shared_latency;
    s.math_cost = ui_.math_cost;
    if (s.warp_specialized() && ui_.tiles > 0) s.tiles = ui_.tiles;
    return trace_pipeline(s);
  }

  void draw_controls() {
    static const std::vector<std::string> kinds = {"pipelined2",         "multistage:2",       "multistage:3",
                                                   "multistage:4",       "multistage:5",       "multistage:6",
                                                   "multistage:8",       "mma-base",           "warp-specialized:2",
                                                   "warp-specialized:4", "warp-specialized:6", "ping-pong:4"};
    combo_string(tr("pipeline"), &ui_.kind, kinds, 14);
    help_marker(tr("pipelined2: CUTLASS MmaPipelined (LDG to registers, STS to the other of 2 stages). "
                "multistage:K: the kStage cp.async loop of the CuTe GEMM tutorial. mma-base: the hand-written mma_base HGEMM. "
                "warp-specialized:K: the Hopper stages' producer warpgroup (TMA) and two cooperative consumer "
                "warpgroups (wgmma) handing K stages over through full/empty mbarriers. ping-pong:K: the same ring, "
                "the consumers taking turns on output tiles so one stores while the other computes."));
    ImGui::SameLine();
    input_int(tr("k tiles"), &ui_.k_iterations, 1, kMaxTraceKIterations, 4);
    if (ui_.kind.rfind("warp-specialized", 0) == 0 || ui_.kind.rfind("ping-pong", 0) == 0) {
      ImGui::SameLine();
      input_int(tr("output tiles"), &ui_.tiles, 0, 64, 3);
      help_marker(tr("Output tiles the block computes one after another (0: the kind's default, 1 for "
                  "warp-specialized, 4 for ping-pong). With several, see where the epilogue leaves the tensor cores idle."));
    }
    // Each on this line while it fits, else on the next ("shared" was cut at the panel's edge).
    auto latency = [](const char* label, float* v, float speed, float lo, const char* format) {
      same_line_if_fits(field_width(4) + ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x);
      ImGui::SetNextItemWidth(field_width(4));
      ImGui::DragFloat(label, v, speed, lo, 1000, format);
    };
    latency(tr("global latency"), &ui_.global_latency, 0.5f, 0, "%.0f");
    latency(tr("shared"), &ui_.shared_latency, 0.1f, 0, "%.1f");
    latency("MMA", &ui_.math_cost, 0.1f, 0.1f, "%.1f");
  }

  void draw_cursor_bar(const PipelineTrace& t) {
    if (ImGui::Button(ui_.playing ? tr("Pause") : tr("Play"))) ui_.playing = !ui_.playing;
    ImGui::SameLine();
    if (ImGui::Button("<")) ui_.cursor = std::max(0, ui_.cursor - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) ui_.cursor = std::min(int(t.events.size()) - 1, ui_.cursor + 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field_width(12));
    ImGui::SliderInt(tr("event"), &ui_.cursor, 0, std::max(0, int(t.events.size()) - 1));
    ImGui::SameLine();
    const TraceEvent& e = t.events[ui_.cursor];
    ImGui::Text("t=%.0f..%.0f  %s", e.start, e.end, e.label.c_str());
  }

  void draw_gantt(const PipelineTrace& t) {
    const float font = ImGui::GetFontSize();
    const int stages = t.spec.stages;
    const int units = unit_rows(t);
    const int rows = units + 1 + stages;  // units (or warpgroups), a gap, then the shared stages
    const double span = std::max(1.0, t.total_time);
    // Row names in a gutter left of the canvas: zooming and panning move the bars, never over
    // the names.
    float label_w = 0;
    for (int r = 0; r < rows; ++r)
      if (r != units)
        label_w = std::max(label_w, ImGui::CalcTextSize((r < units ? row_name(t, r) : trf("smem stage %d", 10)).c_str()).x);
    label_w += font * 0.8f;
    // Content: time across the canvas's width (one unit per time unit), the rows as tall as its
    // height allows, between 1.2 and 3 lines of text each. The content is centred: 3 lines spare
    // leave 1.5 under it, besides the margin, for the time axis's ticks and title.
    const float margin = font * 2;
    const ImVec2 room = ImGui::GetContentRegionAvail();
    const float width_px = std::max(50.f, room.x - label_w - 2 * margin);
    const float row_px = std::clamp((room.y - 2 * margin - 3 * font) / float(rows), font * 1.2f, font * 3.f);
    const float row_h = float(span) * row_px / width_px;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    Canvas cv("##gantt", ui_.canvas, float(span), rows * row_h, {0, 0}, margin);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(rows * row_h, float(span), 1, tr("time (a global load = the global latency)"));
    auto row_y = [&](int r) { return r * row_h; };
    // Stage occupancy: from the first write of a tile into a stage to its last read.
    for (const StageHold& h : stage_holds(t)) {
      const int r = units + 1 + h.stage;
      const ImVec2 a = cv.to_screen(float(h.from), row_y(r) + row_h * 0.15f),
                   b = cv.to_screen(float(std::max(h.to, h.from + 0.5)), row_y(r) + row_h * 0.85f);
      dl->AddRectFilled(a, b, dim(id_color(h.k_tile), 0.55f), 3);
      const std::string label = "tile " + std::to_string(h.k_tile);
      if (b.x - a.x > ImGui::CalcTextSize(label.c_str()).x + 4)
        dl->AddText({a.x + 3, (a.y + b.y - font) / 2}, IM_COL32(255, 255, 255, 230), label.c_str());
    }
    // Events that overlap in time on one unit (several global loads in flight) stack in
    // sub-rows, first free sub-row first.
    // mbarrier phases: a tick where each phase of full[s] (F) or empty[s] (E) completed.
    for (const BarrierPhase& ph : t.phases) {
      const int r = units + 1 + ph.stage;
      const ImVec2 a = cv.to_screen(float(ph.completed), row_y(r)), b = cv.to_screen(float(ph.completed), row_y(r) + row_h);
      dl->AddLine(a, b, ph.full ? IM_COL32(120, 220, 120, 230) : IM_COL32(240, 150, 60, 230), 2);
      const std::string label = (ph.full ? "F" : "E") + std::to_string(ph.phase);
      if (cv.scale() * row_h > font * 2.2f) dl->AddText({a.x + 2, a.y}, IM_COL32(230, 230, 230, 230), label.c_str());
    }
    std::vector<int> sub(t.events.size(), 0);
    std::vector<int> subs(static_cast<size_t>(units), 1);
    {
      std::vector<std::vector<double>> busy_until(static_cast<size_t>(units));
      for (size_t i = 0; i < t.events.size(); ++i) {
        const TraceEvent& e = t.events[i];
        auto& lanes = busy_until[static_cast<size_t>(row_of(t, e))];
        const double end = std::max(e.end, e.start + 0.15);
        size_t l = 0;
        while (l < lanes.size() && lanes[l] > e.start + 1e-9) ++l;
        if (l == lanes.size()) lanes.push_back(end);
        else lanes[l] = end;
        sub[i] = static_cast<int>(l);
      }
      for (int r = 0; r < units; ++r) subs[r] = std::max<int>(1, static_cast<int>(busy_until[r].size()));
    }
    // Events. Off-screen ones are skipped, and a run of sub-pixel events on one sub-row is drawn
    // once (thousands of k tiles zoomed out).
    int hovered = -1;
    const auto mouse = cv.mouse();
    std::map<std::pair<int, int>, float> last_px;  // (row, sub-row) -> right edge drawn
    for (size_t i = 0; i < t.events.size(); ++i) {
      const TraceEvent& e = t.events[i];
      const int r = row_of(t, e);
      const double end = std::max(e.end, e.start + 0.15);
      const float sub_h = row_h * 0.76f / subs[r];
      const float top = row_y(r) + row_h * 0.12f + sub[i] * sub_h;
      Rgba col = e.k_tile >= 0 ? id_color(e.k_tile) : rgba(180, 180, 180);
      if (e.kind == TraceEventKind::Wait || e.kind == TraceEventKind::MbarrierWait) col = rgba(200, 60, 60);
      if (e.kind == TraceEventKind::MbarrierArrive) col = e.full_barrier ? rgba(120, 220, 120) : rgba(240, 150, 60);
      if (e.kind == TraceEventKind::Barrier) col = rgba(240, 240, 240);
      if (e.predicated_off) col = with_alpha(col, 70);
      const ImVec2 a = cv.to_screen(float(e.start), top + sub_h * 0.05f),
                   b = cv.to_screen(float(end), top + sub_h * 0.95f);
      if (b.x < cv.min().x || a.x > cv.max().x) continue;
      float& edge = last_px[{r, sub[i]}];
      if (b.x - a.x < 1.f && a.x < edge + 1.f && static_cast<int>(i) != ui_.cursor) continue;
      edge = b.x;
      dl->AddRectFilled(a, b, col, 2);
      if (e.kind == TraceEventKind::Barrier)  // a barrier holds every unit
        dl->AddLine(cv.to_screen(float(e.start), 0), cv.to_screen(float(e.start), row_y(units)),
                    IM_COL32(240, 240, 240, 90), 1);
      if (e.k_tile >= 0 && b.x - a.x > font * 1.2f) {
        const std::string label = std::to_string(e.k_tile) + (e.k_group >= 0 ? "." + std::to_string(e.k_group) : "");
        if (b.x - a.x > ImGui::CalcTextSize(label.c_str()).x + 2 && b.y - a.y > font)
          dl->AddText({a.x + 2, (a.y + b.y - font) / 2}, IM_COL32(0, 0, 0, 255), label.c_str());
      }
      if (static_cast<int>(i) == ui_.cursor) {
        dl->AddRect({a.x - 2, a.y - 2}, {b.x + 2, b.y + 2}, kHighlight, 2, 0, 2.5f);
        dl->AddLine(cv.to_screen(float(e.start), 0), cv.to_screen(float(e.start), rows * row_h),
                    IM_COL32(255, 255, 0, 120), 1);
      }
      if (mouse && mouse->x >= e.start && mouse->x <= end && mouse->y >= top && mouse->y < top + sub_h)
        hovered = static_cast<int>(i);
    }
    // Row names in the gutter, at their rows' height (which follows the zoom and pan).
    dl->PushClipRect({cv.min().x - label_w, cv.min().y}, {cv.min().x, cv.max().y}, false);
    for (int r = 0; r < rows; ++r) {
      if (r == units || cv.scale() * row_h <= font * 0.9f) continue;
      const std::string name = r < units ? row_name(t, r) : trf("smem stage %d", r - units - 1);
      const float y = cv.to_screen(0, row_y(r) + row_h / 2).y;
      dl->AddText({cv.min().x - label_w + 2, y - font / 2}, IM_COL32(210, 210, 220, 255), name.c_str());
    }
    dl->PopClipRect();
    if (hovered >= 0) {
      const TraceEvent& e = t.events[hovered];
      ImGui::BeginTooltip();
      tooltip_row(tr("event"), "#" + std::to_string(hovered) + " " + e.label);
      tooltip_row(tr("kind"), trace_event_kind_name(e.kind));
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f .. %.1f", e.start, e.end);
      tooltip_row(tr("time"), buf);
      if (e.k_tile >= 0) tooltip_row(tr("k tile"), std::to_string(e.k_tile) + (e.k_group >= 0 ? trf(", warp k group %d", e.k_group) : std::string()));
      if (e.smem_write >= 0) tooltip_row(tr("writes"), trf("shared stage %d", e.smem_write));
      if (e.smem_read >= 0) tooltip_row(tr("reads"), trf("shared stage %d", e.smem_read));
      if (e.reg_buffer >= 0) tooltip_row(tr("fragment"), trf("register buffer %d", e.reg_buffer));
      if (e.async) tooltip_row("", tr("cp.async: lands in shared memory without registers"));
      if (e.predicated_off) tooltip_row("", tr("past the last k tile: issued with its guard off"));
      if (e.wait_pending >= 0) tooltip_row(tr("waits"), trf("until at most %d groups are pending", e.wait_pending));
      if (e.barrier >= 0)
        tooltip_row(tr("mbarrier"), std::string(e.full_barrier ? "full[" : "empty[") + std::to_string(e.barrier) + "]" +
                                    (e.parity >= 0 ? trf(", parity %d", e.parity) : std::string()) +
                                       (e.tx_bytes > 0 ? trf(", expects %d bytes", int(e.tx_bytes)) : std::string()));
      ImGui::EndTooltip();
      if (cv.clicked()) ui_.cursor = hovered;
    }
  }

  void draw_event_table(const PipelineTrace& t) {
    if (!ImGui::BeginTable("##events", 6,
                           ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                               ImGuiTableFlags_SizingStretchProp))
      return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 2.5f);
    ImGui::TableSetupColumn(tr("time"));
    ImGui::TableSetupColumn(tr("event"), ImGuiTableColumnFlags_WidthStretch, 6);
    ImGui::TableSetupColumn(tr("k tile"));
    ImGui::TableSetupColumn(tr("writes stage"));
    ImGui::TableSetupColumn(tr("reads stage"));
    ImGui::TableHeadersRow();
    static int last_cursor = -1;
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(t.events.size()));
    if (last_cursor != ui_.cursor) clipper.ForceDisplayRangeByIndices(ui_.cursor, ui_.cursor + 1);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const TraceEvent& e = t.events[i];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        char id[16];
        std::snprintf(id, sizeof id, "%d", i);
        if (ImGui::Selectable(id, i == ui_.cursor, ImGuiSelectableFlags_SpanAllColumns)) ui_.cursor = i;
        if (i == ui_.cursor && last_cursor != ui_.cursor) ImGui::SetScrollHereY(0.5f);
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%.0f-%.0f", e.start, e.end);
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(e.label.c_str());
        ImGui::TableSetColumnIndex(3);
        if (e.k_tile >= 0) ImGui::Text("%d", e.k_tile);
        ImGui::TableSetColumnIndex(4);
        if (e.smem_write >= 0) ImGui::Text("%d", e.smem_write);
        ImGui::TableSetColumnIndex(5);
        if (e.smem_read >= 0) ImGui::Text("%d", e.smem_read);
      }
    last_cursor = ui_.cursor;
    ImGui::EndTable();
  }

  PipelineUiState ui_;
};

}  // namespace

std::unique_ptr<View> make_pipeline_view() { return std::make_unique<PipelineView>(); }

}  // namespace gemmlab::app
