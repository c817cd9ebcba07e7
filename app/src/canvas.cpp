#include "canvas.h"

#include <algorithm>
#include <cmath>

#include "palette.h"

namespace gemmlab::app {

Canvas::Canvas(const char* id, CanvasState& st, float content_w, float content_h, ImVec2 size,
               float margin) {
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

  content_w = std::max(content_w, 1e-3f);
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
  if (scale_ < min_px) return;
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

void Canvas::label(float x0, float y0, float x1, float y1, const char* text, ImU32 color) const {
  const ImVec2 p0 = to_screen(x0, y0), p1 = to_screen(x1, y1);
  if (p1.x < min_.x || p0.x > max_.x || p1.y < min_.y || p0.y > max_.y) return;
  const ImVec2 ts = ImGui::CalcTextSize(text);
  if (ts.x + 2 > p1.x - p0.x || ts.y > p1.y - p0.y) return;
  dl_->AddText({(p0.x + p1.x - ts.x) / 2, (p0.y + p1.y - ts.y) / 2}, color, text);
}

}  // namespace gemmlab::app
