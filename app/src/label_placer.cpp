#include "label_placer.h"

#include <imgui_internal.h>

#include <cmath>

namespace gemmlab::app {
namespace {

std::vector<DroppedLabel>& frame_drops() {
  static std::vector<DroppedLabel> d;
  return d;
}

// Half a pixel of slack: text measured at 12.999 px in a 13 px box fits.
constexpr float kSlack = 0.5f;

}  // namespace

void begin_label_frame() { frame_drops().clear(); }
const std::vector<DroppedLabel>& dropped_labels() { return frame_drops(); }

void record_dropped_label(const std::string& text, const std::string& why) {
  for (const auto& d : frame_drops())
    if (d.text == text && d.why == why) return;  // a label drawn per phase or per picture: once
  frame_drops().push_back({text, why});
}

void record_cut_windows() {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* area = g.CurrentWindow;
  for (ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_HorizontalScrollbar)) continue;
    bool inside = false;
    for (ImGuiWindow* p = w; p && !inside; p = p->ParentWindow) inside = p == area;
    if (!inside) continue;
    const float over = w->DC.CursorMaxPos.x - w->InnerClipRect.Max.x;
    if (over > 1) {
      std::string name = w->Name;  // "Host/view_1234/##tile_5678": the last part, without its id
      name = name.substr(name.rfind('/') + 1);
      name = name.substr(0, name.rfind('_'));
      record_dropped_label(name, "its content runs " + std::to_string(int(std::ceil(over))) +
                                     " px past the right edge of its panel");
    }
  }
}

bool LabelPlacer::refuse(const char* text, const std::string& why) const {
  if (record_) record_dropped_label(text, why);
  return false;
}

bool LabelPlacer::free(ImVec2 at, ImVec2 size) const {
  const ImVec2 end{at.x + size.x, at.y + size.y};
  if (at.x < min_.x - kSlack || at.y < min_.y - kSlack || end.x > max_.x + kSlack || end.y > max_.y + kSlack)
    return false;
  for (const Box& b : placed_)
    if (at.x < b.b.x - kSlack && end.x > b.a.x + kSlack && at.y < b.b.y - kSlack && end.y > b.a.y + kSlack)
      return false;
  return true;
}

bool LabelPlacer::text(ImVec2 at, const char* text, ImU32 color) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 end{at.x + size.x, at.y + size.y};
  if (at.x < min_.x - kSlack || at.y < min_.y - kSlack || end.x > max_.x + kSlack || end.y > max_.y + kSlack)
    return refuse(text, "cut by its space");
  for (const Box& b : placed_)
    if (at.x < b.b.x - kSlack && end.x > b.a.x + kSlack && at.y < b.b.y - kSlack && end.y > b.a.y + kSlack)
      return refuse(text, "overlaps \"" + b.text + "\"");
  placed_.push_back({at, end, text});
  if (dl_) dl_->AddText(at, color, text);
  return true;
}

bool LabelPlacer::text_right(float x, float y, const char* t, ImU32 color) {
  return text({x - ImGui::CalcTextSize(t).x, y}, t, color);
}

bool LabelPlacer::text_centred(float centre_x, float y, const char* t, ImU32 color) {
  return text({centre_x - ImGui::CalcTextSize(t).x / 2, y}, t, color);
}

bool LabelPlacer::in_box(ImVec2 p0, ImVec2 p1, const char* text, ImU32 color) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  if (size.x > p1.x - p0.x + kSlack || size.y > p1.y - p0.y + kSlack) return refuse(text, "does not fit its box");
  const ImVec2 at{(p0.x + p1.x - size.x) / 2, (p0.y + p1.y - size.y) / 2};
  if (at.x < min_.x - kSlack || at.y < min_.y - kSlack || at.x + size.x > max_.x + kSlack ||
      at.y + size.y > max_.y + kSlack)
    return refuse(text, "cut by its space");
  if (dl_) dl_->AddText(at, color, text);
  return true;
}

}  // namespace gemmlab::app
