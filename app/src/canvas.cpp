#include "canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "palette.h"

namespace gemmlab::app {

Canvas::Canvas(const char* id, CanvasState& st, float content_w, float content_h, ImVec2 size,
               float margin, float x_stretch)
    : x_stretch_(x_stretch > 0 && std::isfinite(x_stretch) ? x_stretch : 1.f) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = std::max(avail.x + size.x, 50.f);
  if (size.y <= 0) size.y = std::max(avail.y + size.y, 50.f);
  min_ = ImGui::GetCursorScreenPos();
  max_ = {min_.x + size.x, min_.y + size.y};
  ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft |
                                       ImGuiButtonFlags_MouseButtonRight |
                                       ImGuiButtonFlags_MouseButtonMiddle);
  hovered_ = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  ImGuiIO& io = ImGui::GetIO();

  // From here on x is in units as wide as y's: the fit, zoom and pan below are isotropic.
  content_w = std::max(content_w, 1e-3f) * x_stretch_;
  content_h = std::max(content_h, 1e-3f);
  const float fit = std::min((size.x - 2 * margin) / content_w, (size.y - 2 * margin) / content_h);
  const float fit_scale = std::max(fit, 1e-4f);

  if (hovered_ && io.MouseWheel != 0) {
    // Zoom around the mouse: keep the content point under it fixed.
    const float old_scale = fit_scale * st.zoom;
    const ImVec2 centre{min_.x + (size.x - content_w * old_scale) / 2 + st.pan.x,
                        min_.y + (size.y - content_h * old_scale) / 2 + st.pan.y};
    const ImVec2 under{(io.MousePos.x - centre.x) / old_scale, (io.MousePos.y - centre.y) / old_scale};
    st.zoom = std::clamp(st.zoom * std::pow(1.2f, io.MouseWheel), 0.25f, 400.f);
    const float new_scale = fit_scale * st.zoom;
    const ImVec2 base{min_.x + (size.x - content_w * new_scale) / 2,
                      min_.y + (size.y - content_h * new_scale) / 2};
    st.pan = {io.MousePos.x - under.x * new_scale - base.x, io.MousePos.y - under.y * new_scale - base.y};
  }
  if (active) {
    for (int b = 0; b < 3; ++b)
      if (ImGui::IsMouseDragging(b, 2.f)) {
        st.pan.x += io.MouseDelta.x;
        st.pan.y += io.MouseDelta.y;
        break;
      }
  }
  if (hovered_ && ImGui::IsMouseDoubleClicked(0)) st.reset();
  clicked_ = hovered_ && ImGui::IsMouseReleased(0) &&
             std::abs(io.MouseDragMaxDistanceSqr[0]) < 9.f;

  scale_ = fit_scale * st.zoom;
  origin_ = {std::floor(min_.x + (size.x - content_w * scale_) / 2 + st.pan.x),
             std::floor(min_.y + (size.y - content_h * scale_) / 2 + st.pan.y)};
  dl_ = ImGui::GetWindowDrawList();
  dl_->PushClipRect(min_, max_, true);
  fitted_ = st.zoom == 1.f && st.pan.x == 0 && st.pan.y == 0;
  labels_ = LabelPlacer(dl_, min_, max_, fitted_);
  // No background fill: the window behind is the cleared framebuffer (same colour), and a
  // software renderer pays for every layer.
}

Canvas::~Canvas() {
  dl_->AddRect(min_, max_, IM_COL32(80, 80, 90, 255));
  dl_->PopClipRect();
}

std::optional<ImVec2> Canvas::mouse() const {
  if (!hovered_) return std::nullopt;
  return to_content(ImGui::GetIO().MousePos);
}

void Canvas::draw_cells(const CellTexture& tex, float x, float y, float cols, float rows) const {
  if (!tex.valid()) return;
  dl_->AddImage(tex.imgui_id(), to_screen(x, y), to_screen(x + cols, y + rows));
}

void Canvas::draw_grid_lines(float x, float y, int cols, int rows, float min_px) const {
  if (scale() < min_px) return;
  // Only the lines inside the visible area.
  const ImVec2 a = to_content(min_), b = to_content(max_);
  const int c0 = std::max(0, static_cast<int>(std::floor(a.x - x))),
            c1 = std::min(cols, static_cast<int>(std::ceil(b.x - x)));
  const int r0 = std::max(0, static_cast<int>(std::floor(a.y - y))),
            r1 = std::min(rows, static_cast<int>(std::ceil(b.y - y)));
  for (int c = c0; c <= c1; ++c)
    dl_->AddLine(to_screen(x + c, y + r0), to_screen(x + c, y + r1), kGridLine);
  for (int r = r0; r <= r1; ++r)
    dl_->AddLine(to_screen(x + c0, y + r), to_screen(x + c1, y + r), kGridLine);
}

namespace {

std::string tick_text(double v) {
  char buf[32];
  // Large values are whole (float steps leave them a hair off): never "5e+05".
  std::snprintf(buf, sizeof buf, std::abs(v) >= 100 || std::abs(v - std::round(v)) < 1e-6 ? "%.0f" : "%.3g", v);
  return buf;
}

// The smallest 1, 2 or 5 x 10^k (k >= 0: ticks fall on whole units) at least `units` long.
float nice_step(float units) {
  float p = 1;
  while (p * 10 <= units) p *= 10;
  for (float m : {1.f, 2.f, 5.f, 10.f})
    if (m * p >= units) return m * p;
  return 10 * p;
}

// Ticks on whole units when a unit is a whole number of values (tile edges: 128 elements); else
// on round values (a tap drawn 3 units wide, 1024 time bins over 1032 k iterations).
float tick_step(float min_units, double per_unit) {
  if (per_unit >= 1 && per_unit == std::round(per_unit)) return nice_step(min_units);
  return float(nice_step(float(min_units * per_unit)) / per_unit);
}

constexpr ImU32 kAxisText = IM_COL32(170, 170, 182, 255);

}  // namespace

void Canvas::axis_x(float y_at, float extent, double per_unit, const char* unit, double origin) {
  const float font = ImGui::GetFontSize();
  const float widest = ImGui::CalcTextSize(tick_text(origin + extent * per_unit).c_str()).x;
  const float step = tick_step((widest + font) / scale_x(), per_unit);
  const float y = to_screen(0, y_at).y;
  float last_end = -1e9f;
  for (float u = 0; u <= extent + 1e-3f; u += step) {
    const float x = to_screen(u, 0).x;
    if (x < min_.x - 1 || x > max_.x + 1) continue;
    const std::string t = tick_text(origin + u * per_unit);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    // The first and last values stay inside the canvas: shifted in, not cut at its edge.
    const float left = std::clamp(x - w / 2, min_.x + 1, max_.x - 1 - w);
    if (!labels_.text({left, y + 4}, t.c_str(), kAxisText)) continue;
    dl_->AddLine({x, y}, {x, y + 4}, kAxisText);
    last_end = left + w;
  }
  if (!unit || last_end <= -1e9f) return;
  const float w = ImGui::CalcTextSize(unit).x;
  if (labels_.free({last_end + font * 0.5f, y + 4}, ImGui::CalcTextSize(unit)))
    labels_.text({last_end + font * 0.5f, y + 4}, unit, kAxisText);
  else  // no room after the last value: under the values, ending at the canvas's edge
    labels_.text({std::max(min_.x + 1, std::min(last_end, max_.x - 1) - w), y + 4 + font}, unit, kAxisText);
}

void Canvas::axis_y(float x_at, float extent, double per_unit, const char* unit, double origin) {
  const float font = ImGui::GetFontSize();
  const float step = tick_step(font * 1.6f / scale_, per_unit);
  const float x = to_screen(x_at, 0).x;
  float last_y = -1e9f;
  for (float u = 0; u <= extent + 1e-3f; u += step) {
    const float y = to_screen(0, u).y;
    if (y < min_.y - 1 || y > max_.y + 1) continue;
    const std::string t = tick_text(origin + u * per_unit);
    // The value at the content's bottom edge sits above its tick, clear of the x axis's values.
    const float centred = to_screen(0, extent).y - y < font * 0.75f ? y - font : y - font / 2;
    const float top = std::clamp(centred, min_.y + 1, max_.y - 1 - font);
    if (!labels_.text_right(x - 6, top, t.c_str(), kAxisText)) continue;
    dl_->AddLine({x - 4, y}, {x, y}, kAxisText);
    last_y = y;
  }
  if (unit && last_y > -1e9f) {
    const ImVec2 size = ImGui::CalcTextSize(unit);
    const ImVec2 below{x - 6 - size.x, last_y + font * 0.6f};
    if (labels_.free(below, size))
      labels_.text(below, unit, kAxisText);
    else  // wider than the margin left of the axis: above the first tick, from the left edge
      labels_.text({min_.x + 2, std::max(min_.y + 1, to_screen(0, 0).y - font * 1.7f)}, unit, kAxisText);
  }
}

bool Canvas::label(float x0, float y0, float x1, float y1, const char* text, ImU32 color) {
  const ImVec2 p0 = to_screen(x0, y0), p1 = to_screen(x1, y1);
  if (p1.x < min_.x || p0.x > max_.x || p1.y < min_.y || p0.y > max_.y) return false;
  return labels_.in_box(p0, p1, text, color);
}

bool Canvas::cell_fits(const char* widest, float w, float h) const {
  const ImVec2 ts = ImGui::CalcTextSize(widest);
  return ts.x + 2 <= w * scale_x() && ts.y <= h * scale_;
}

}  // namespace gemmlab::app
