// View 1, "Tile & thread map": which thread of a CUTLASS pitch-linear thread map moves each
// element of a tile, access by access (s, c: the order of PredicatedTileIterator::load; an access
// moves a whole vector of kElementsPerAccess elements, v).
// Results come from gemmlab::analyze_thread_map; this file only draws them.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canvas.h"
#include "element_tables.h"
#include "gemmlab/thread_map_analysis.h"
#include "model/settings_schema.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct ThreadMapUiState {
  std::string map = "stripmined";
  int shape[2] = {128, 8};   // (contiguous, strided): the SIMT example's A tile
  int threads = 256;
  int access = 1;
  int warp_arrangement[2] = {8, 4};
  int highlight_thread = -1;
  int highlight_warp = -1;
  int iteration = -1;        // accesses per thread shown; -1 = all
  std::string color_by = "thread";
  bool playing = false;
  float play_clock = 0;
  CanvasState canvas;
};

class ThreadMapView final : public View {
 public:
  const char* id() const override { return "threadmap"; }

  void apply(const Json& s) override {
    ui_ = ThreadMapUiState{};
    if (s.contains("map")) ui_.map = s["map"];
    if (s.contains("shape")) ui_.shape[0] = s["shape"][0], ui_.shape[1] = s["shape"][1];
    if (s.contains("threads")) ui_.threads = s["threads"];
    if (s.contains("access")) ui_.access = s["access"];
    if (s.contains("warp_arrangement"))
      ui_.warp_arrangement[0] = s["warp_arrangement"][0],
      ui_.warp_arrangement[1] = s["warp_arrangement"][1];
    if (s.contains("highlight_thread")) ui_.highlight_thread = s["highlight_thread"];
    if (s.contains("highlight_warp")) ui_.highlight_warp = s["highlight_warp"];
    if (s.contains("iteration")) ui_.iteration = s["iteration"];
    if (s.contains("color_by")) ui_.color_by = s["color_by"];
    dirty_ = true;
  }

  bool has_animation() const override { return true; }
  bool playing() const override { return ui_.playing; }
  void set_playing(bool on) override {
    ui_.playing = on;
    if (on && result_ && ui_.iteration < 0) ui_.iteration = 0;
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    const_cast<ThreadMapView*>(this)->recompute();
    if (!result_) return Error{"the thread map settings are invalid: " + result_.error()};
    const auto& g = result_->geometry;
    if (spec.quantity == "threadmap.iterations_c") return double(g.iterations.c);
    if (spec.quantity == "threadmap.iterations_s") return double(g.iterations.s);
    if (spec.quantity == "threadmap.delta_c") return double(g.delta.c);
    if (spec.quantity == "threadmap.delta_s") return double(g.delta.s);
    return View::predict(spec);
  }

  Json export_data() const override {
    const_cast<ThreadMapView*>(this)->recompute();
    Json out;
    out["view"] = id();
    out["map"] = ui_.map;
    out["shape"] = {ui_.shape[0], ui_.shape[1]};
    out["threads"] = ui_.threads;
    out["access"] = ui_.access;
    if (ui_.map != "stripmined")
      out["warp_arrangement"] = {ui_.warp_arrangement[0], ui_.warp_arrangement[1]};
    if (!result_) {
      out["error"] = result_.error();
      return out;
    }
    const auto& g = result_->geometry;
    out["iterations"] = {g.iterations.c, g.iterations.s};
    out["delta"] = {g.delta.c, g.delta.s};
    tables::put_thread_map_elements(out, *result_);
    return out;
  }

  void draw(ViewContext& ctx) override {
    draw_controls();
    recompute();
    if (!result_) {
      error_box(result_.error());
      return;
    }
    const auto& r = *result_;
    const int per_thread = r.accesses_per_thread();
    if (ui_.playing && !ctx.headless) {
      ui_.play_clock += ctx.dt;
      if (ui_.play_clock > 0.35f) {
        ui_.play_clock = 0;
        ui_.iteration = ui_.iteration >= per_thread ? 0 : ui_.iteration + 1;
      }
    }
    draw_summary(r);
    // Each thread's accesses, drawn or listed, count the iterations and show the deltas.
    if (!shows("threadmap.picture")) {
      hidden_until_reveal("threadmap.picture", ImGui::GetContentRegionAvail().y);
      return;
    }
    draw_highlighted_thread(r);
    draw_iteration_bar(per_thread);
    draw_tile(r);
  }

 private:
  ThreadMapParams params() const {
    ThreadMapParams p;
    p.kind = *parse_thread_map_kind(ui_.map);
    p.shape_c = ui_.shape[0];
    p.shape_s = ui_.shape[1];
    p.threads = ui_.threads;
    p.access = ui_.access;
    if (p.kind != ThreadMapKind::Stripmined) {
      p.warp_c = ui_.warp_arrangement[0];
      p.warp_s = ui_.warp_arrangement[1];
    }
    return p;
  }

  void recompute() {
    const ThreadMapParams p = params();
    if (!dirty_ && computed_for_ == std::vector<int>{int(p.kind), p.shape_c, p.shape_s, p.threads,
                                                     p.access, p.warp_c, p.warp_s})
      return;
    dirty_ = false;
    computed_for_ = {int(p.kind), p.shape_c, p.shape_s, p.threads, p.access, p.warp_c, p.warp_s};
    colors_key_.clear();
    if (static_cast<long long>(p.shape_c) * p.shape_s > kMaxTileElements) {
      result_ = Error{"the tile has " + fmt_int(static_cast<long long>(p.shape_c) * p.shape_s) +
                      " elements; this view draws at most " + fmt_int(kMaxTileElements) +
                      " (a threadblock tile is a few thousand): make the shape smaller"};
      return;
    }
    result_ = analyze_thread_map(p);
    owner_.clear();
    outside_ = 0;
    if (!result_) return;
    ThreadMapOwners owners = thread_map_owners(*result_);
    owner_ = std::move(owners.access);
    outside_ = owners.outside;
  }

  void draw_controls() {
    static const std::vector<std::string> maps = {"stripmined", "warp-raked", "warp-striped"};
    bool changed = combo_string(tr("map"), &ui_.map, maps, 10);
    ImGui::SameLine();
    changed |= input_int2(tr("shape (C,S)"), ui_.shape, 1, 4096);
    ImGui::SameLine();
    changed |= input_int(tr("threads"), &ui_.threads, 1, 4096);
    ImGui::SameLine();
    changed |= input_int(tr("access"), &ui_.access, 1, 64, 3);
    help_marker(tr("kElementsPerAccess: elements one thread moves per access (a vector)."));
    if (ui_.map != "stripmined") {
      ImGui::SameLine();
      changed |= input_int2(tr("warp arrangement (c,s)"), ui_.warp_arrangement, 1, 32, 3);
    }
    static const std::vector<std::string> colorings = {"thread", "warp"};
    combo_string(tr("colour by"), &ui_.color_by, colorings, 6);
    ImGui::SameLine();
    input_int(tr("highlight thread"), &ui_.highlight_thread, -1, 4095);
    ImGui::SameLine();
    input_int(tr("highlight warp"), &ui_.highlight_warp, -1, 127, 3);
    if (changed) dirty_ = true;
  }

  void draw_summary(const ThreadMapResult& r) {
    const auto& g = r.geometry;
    const bool it = shows("threadmap.iterations"), de = shows("threadmap.delta");
    auto num = [&](bool shown, int v) { return shown ? std::to_string(v) : std::string("?"); };
    ImGui::TextWrapped(tr("Iterations (c,s) = (%s,%s)   Delta (c,s) = (%s,%s)   tile in vectors (%d,%d)"),
                num(it, g.iterations.c).c_str(), num(it, g.iterations.s).c_str(), num(de, g.delta.c).c_str(),
                num(de, g.delta.s).c_str(), g.shape_vec.c, g.shape_vec.s);
    if (ui_.map != "stripmined") {
      ImGui::SameLine();
      ImGui::TextWrapped(tr("  warps (c,s) = (%d,%d)"), g.warps.c, g.warps.s);
    }
    if (outside_ > 0) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), tr("  %s accesses fall outside the tile (predicated off)"),
                         fmt_int(outside_).c_str());
    }
  }

  // The highlighted thread's walk, in the iterator's order: what the lesson text talks about.
  void draw_highlighted_thread(const ThreadMapResult& r) {
    const int t = ui_.highlight_thread;
    if (t < 0 || t >= r.params.threads) return;
    const auto& o = r.initial_offsets[t];
    std::string text = trf("thread %d (warp %d, lane %d) starts at (%d,%d) and visits", t, t / 32, t % 32, o.c, o.s);
    const int per_thread = r.elements_per_thread();
    int listed = 0;
    for (int i = 0; i < per_thread && listed < 16; ++i) {
      const auto& a = r.accesses[r.first_element(t, 0) + static_cast<size_t>(i)];
      if (a.v != 0) continue;  // one entry per vector access
      text += " (" + std::to_string(a.element.c) + "," + std::to_string(a.element.s) + ")";
      if (!a.in_tile) text += "[off]";
      ++listed;
    }
    if (listed == 16) text += " ...";
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
  }

  void draw_iteration_bar(int per_thread) {
    if (ImGui::Button(ui_.playing ? tr("Pause") : tr("Play"))) set_playing(!ui_.playing);
    ImGui::SameLine();
    if (ImGui::Button("<")) ui_.iteration = std::max(0, (ui_.iteration < 0 ? per_thread : ui_.iteration) - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) ui_.iteration = ui_.iteration < 0 ? per_thread : std::min(per_thread, ui_.iteration + 1);
    ImGui::SameLine();
    if (ImGui::Button(tr("All"))) ui_.iteration = -1, ui_.playing = false;
    ImGui::SameLine();
    int shown = ui_.iteration < 0 ? per_thread : std::min(ui_.iteration, per_thread);
    ImGui::SetNextItemWidth(field_width(20));
    if (ImGui::SliderInt("##iteration", &shown, 0, per_thread, tr("%d accesses per thread shown")))
      ui_.iteration = shown;
    ImGui::SameLine();
    if (shown > 0 && shown <= per_thread) {
      // Which (s, c) the last shown access is, in the iterator's loop order (thread 0's); each
      // access is a whole vector.
      const ThreadMapAccess& last = result_->accesses[result_->first_element(0, shown - 1)];
      ImGui::TextWrapped(tr("last: s=%d c=%d"), last.s, last.c);
    } else {
      ImGui::TextWrapped("%s", tr("nothing loaded yet"));
    }
  }

  Rgba cell_color(const ThreadMapAccess& a) const {
    const int warp = a.thread / 32, lane = a.thread % 32;
    Rgba c = ui_.color_by == "warp" ? id_color(warp) : lane_color(warp, lane);
    const bool highlighting = ui_.highlight_thread >= 0 || ui_.highlight_warp >= 0;
    const bool hit = a.thread == ui_.highlight_thread || warp == ui_.highlight_warp;
    if (highlighting && !hit) c = dim(c, 0.25f);
    return c;
  }

  void update_texture(const ThreadMapResult& r) {
    const int per_thread = r.accesses_per_thread();
    const int shown = ui_.iteration < 0 ? per_thread : std::min(ui_.iteration, per_thread);
    const std::vector<int> key = {shown, ui_.highlight_thread, ui_.highlight_warp,
                                  ui_.color_by == "warp"};
    if (key == colors_key_ && texture_.valid()) return;
    colors_key_ = key;
    const int w = r.params.shape_c, h = r.params.shape_s;
    pixels_.assign(static_cast<size_t>(w) * h, kEmptyCell);
    for (size_t i = 0; i < owner_.size(); ++i) {
      const int a = owner_[i];
      if (a < 0) continue;
      if (r.index_in_thread(static_cast<size_t>(a)) >= shown) continue;
      pixels_[i] = cell_color(r.accesses[a]);
    }
    texture_.upload(w, h, pixels_);
  }

  void draw_tile(const ThreadMapResult& r) {
    update_texture(r);
    const int w = r.params.shape_c, h = r.params.shape_s;
    const float font = ImGui::GetFontSize();
    if (ui_.color_by == "warp")
      legend_ids(tr("warp"), (r.params.threads + 31) / 32);
    else
      legend_swatches(tr("thread: its warp's hue, lighter by lane"),
                      {{lane_color(0, 0), tr("warp 0 lane 0")}, {lane_color(0, 31), tr("lane 31")},
                       {lane_color(1, 0), tr("warp 1 lane 0")}, {lane_color(1, 31), tr("lane 31")}});
    Canvas cv("##tile", ui_.canvas, float(w), float(h), {0, 0}, font * 3);
    cv.draw_cells(texture_, 0, 0, float(w), float(h));
    cv.draw_grid_lines(0, 0, w, h);
    ImDrawList* dl = cv.draw_list();
    // Axes outside the tile, in elements: contiguous (c) runs right, strided (s) runs down.
    const ImVec2 o = cv.to_screen(0, 0);
    cv.labels().text({o.x, o.y - font * 1.3f}, tr("c (contiguous) \xE2\x86\x92"), IM_COL32(200, 200, 210, 255));
    cv.axis_x(float(h), float(w), 1, tr("c, elements"));
    cv.axis_y(0, float(h), 1, tr("s \xE2\x86\x93"));
    const int per_thread = r.accesses_per_thread();
    const int shown = ui_.iteration < 0 ? per_thread : std::min(ui_.iteration, per_thread);
    // Thread ids in cells large enough to read them; the last access of each thread outlined.
    const float cell_px = cv.scale();
    if (cell_px >= 6) {
      const ImVec2 a = cv.to_content(cv.min()), b = cv.to_content(cv.max());
      const int c0 = std::max(0, int(a.x)), c1 = std::min(w, int(b.x) + 1);
      const int s0 = std::max(0, int(a.y)), s1 = std::min(h, int(b.y) + 1);
      char buf[16];
      std::snprintf(buf, sizeof buf, "%d", std::max(0, ui_.threads - 1));
      const bool thread_numbers = cv.cell_fits(buf);  // on every cell or none
      for (int s = s0; s < s1; ++s)
        for (int c = c0; c < c1; ++c) {
          const int ai = owner_[static_cast<size_t>(s) * w + c];
          if (ai < 0 || r.index_in_thread(static_cast<size_t>(ai)) >= shown) continue;
          const auto& acc = r.accesses[ai];
          if (thread_numbers) {
            std::snprintf(buf, sizeof buf, "%d", acc.thread);
            cv.label(c, s, c + 1, s + 1, buf, IM_COL32(0, 0, 0, 255));
          }
          if (ui_.iteration >= 0 && r.index_in_thread(static_cast<size_t>(ai)) == shown - 1)
            dl->AddRect(cv.to_screen(c, s), cv.to_screen(c + 1, s + 1),
                        IM_COL32(255, 255, 255, 255), 0, 0, 2);
        }
    }
    // The highlighted thread's cells, outlined so they show even when cells are a few pixels.
    if (ui_.highlight_thread >= 0 && ui_.highlight_thread < r.params.threads) {
      const size_t first = r.first_element(ui_.highlight_thread, 0);
      for (int i = 0; i < std::min(shown, per_thread) * r.params.access; ++i) {
        const auto& a = r.accesses[first + i];
        if (!a.in_tile) continue;
        dl->AddRect(cv.to_screen(float(a.element.c), float(a.element.s)),
                    cv.to_screen(a.element.c + 1.f, a.element.s + 1.f), kHighlight, 0, 0, 2);
      }
    }
    if (auto m = cv.mouse()) {
      const int c = int(std::floor(m->x)), s = int(std::floor(m->y));
      if (c >= 0 && c < w && s >= 0 && s < h) {
        const int ai = owner_[static_cast<size_t>(s) * w + c];
        dl->AddRect(cv.to_screen(c, s), cv.to_screen(c + 1, s + 1), kHighlight, 0, 0, 2);
        ImGui::BeginTooltip();
        tooltip_row(tr("element"), "(c=" + std::to_string(c) + ", s=" + std::to_string(s) + ")");
        tooltip_row(tr("offset"), trf("%s elements (s * %d + c)", fmt_int(static_cast<long long>(s) * w + c).c_str(), w));
        if (ai >= 0) {
          const auto& acc = r.accesses[ai];
          tooltip_row(tr("thread"), std::to_string(acc.thread));
          tooltip_row(tr("warp"), std::to_string(acc.thread / 32));
          tooltip_row(tr("lane"), std::to_string(acc.thread % 32));
          tooltip_row(tr("iteration"), trf("s=%d c=%d v=%d (access %d of %d)", acc.s, acc.c, acc.v,
                                            int(r.index_in_thread(static_cast<size_t>(ai))) + 1, per_thread));
          const auto& o = r.initial_offsets[acc.thread];
          tooltip_row(tr("initial"), trf("thread starts at (c=%d, s=%d)", o.c, o.s));
          if (cv.clicked()) ui_.highlight_thread = ui_.highlight_thread == acc.thread ? -1 : acc.thread;
        } else {
          tooltip_row(tr("thread"), tr("none: no thread loads this element"));
        }
        ImGui::EndTooltip();
      }
    }
  }

  ThreadMapUiState ui_;
  bool dirty_ = true;
  std::vector<int> computed_for_;
  Expected<ThreadMapResult> result_ = Error{"not computed"};
  std::vector<int> owner_;  // per element: index into result_->accesses, or -1
  long long outside_ = 0;
  std::vector<int> colors_key_;
  std::vector<Rgba> pixels_;
  CellTexture texture_;
};

}  // namespace

std::unique_ptr<View> make_threadmap_view() { return std::make_unique<ThreadMapView>(); }

}  // namespace gemmlab::app
