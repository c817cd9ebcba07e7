#include "ui_util.h"

#include <imgui_internal.h>  // FindRenderedTextEnd: a label's text before "##"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/predict_rules.h"
#include "model/ui_text.h"
#include "palette.h"
#include "view_lesson.h"

namespace gemmlab::app {

float field_width(float chars) { return ImGui::GetFontSize() * 0.6f * chars + 16.f; }

namespace {

// A control `width` wide (its label included) that would run past the panel's right edge after a
// SameLine() starts the next line instead ("tile TM,TN,T" was cut there).
void wrap_if_past_edge(const char* label, float field) {
  const char* end = ImGui::FindRenderedTextEnd(label);
  const float text = end > label ? ImGui::CalcTextSize(label, end).x + ImGui::GetStyle().ItemInnerSpacing.x : 0;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float left = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x;
  const float x = ImGui::GetCursorScreenPos().x;
  if (x > left + 1 && x + field + text > right) ImGui::NewLine();
}

}  // namespace

bool input_int(const char* label, int* v, int lo, int hi, float width_chars) {
  wrap_if_past_edge(label, field_width(width_chars));
  ImGui::SetNextItemWidth(field_width(width_chars));
  const bool changed = ImGui::InputInt(label, v, 0, 0);
  *v = std::clamp(*v, lo, hi);
  return changed;
}

bool input_int2(const char* label, int v[2], int lo, int hi, float width_chars) {
  wrap_if_past_edge(label, field_width(width_chars) * 2);
  ImGui::SetNextItemWidth(field_width(width_chars) * 2);
  const bool changed = ImGui::InputInt2(label, v);
  for (int i = 0; i < 2; ++i) v[i] = std::clamp(v[i], lo, hi);
  return changed;
}

bool input_int3(const char* label, int v[3], int lo, int hi, float width_chars) {
  wrap_if_past_edge(label, field_width(width_chars) * 3);
  ImGui::SetNextItemWidth(field_width(width_chars) * 3);
  const bool changed = ImGui::InputInt3(label, v);
  for (int i = 0; i < 3; ++i) v[i] = std::clamp(v[i], lo, hi);
  return changed;
}

bool combo_string(const char* label, std::string* value, const std::vector<std::string>& items,
                  float width_chars) {
  bool changed = false;
  // Wide enough for the longest value (and the arrow): a value is never cut.
  // Values are names the lessons and the CLI use ("serpentine:8"); the few in words ("(own
  // settings)") are shown in the UI language.
  float widest = ImGui::CalcTextSize(tr_known(*value)).x;
  for (const auto& item : items) widest = std::max(widest, ImGui::CalcTextSize(tr_known(item)).x);
  const float width = std::max(field_width(width_chars), widest + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
  wrap_if_past_edge(label, width);
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, tr_known(*value))) {
    for (const auto& item : items) {
      const bool selected = item == *value;
      if (ImGui::Selectable(tr_known(item), selected) && !selected) {
        *value = item;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

void error_box(const std::string& message) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(90, 30, 30, 255));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 210, 210, 255));
  const float wrap = ImGui::GetContentRegionAvail().x - 16;
  const ImVec2 text = ImGui::CalcTextSize(message.c_str(), nullptr, false, wrap);
  ImGui::BeginChild("##error", ImVec2(0, text.y + ImGui::GetStyle().WindowPadding.y * 2 + 2), true);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopStyleColor(2);
}

void hidden_until_reveal(const char* fact, float height) {
  const PredictFact* f = predict_fact(fact);
  const std::string what = tr(f ? f->text : std::string(fact));
  const std::string text = std::string(tr("Hidden until you press Reveal: ")) + what;
  const float h = std::max(height, ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y * 2);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(34, 36, 44, 255));
  ImGui::PushStyleColor(ImGuiCol_Border, IM_COL32(110, 110, 130, 255));
  ImGui::PushID(fact);
  ImGui::PushID(int(ImGui::GetCursorScreenPos().y));  // two boxes of one fact stay two windows
  ImGui::BeginChild("##hidden", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
  ImGui::PopID();
  ImGui::PopID();
  ImGui::PopStyleColor(2);
}

void note_text(const std::string& message) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void help_marker(const char* text) {
  same_line_if_fits(ImGui::CalcTextSize("(?)").x);
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void tooltip_row(const char* key, const std::string& value) {
  ImGui::TextDisabled("%s", key);
  ImGui::SameLine(ImGui::GetFontSize() * 7);
  ImGui::TextUnformatted(value.c_str());
}

void same_line_if_fits(float next_width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + next_width <= right) ImGui::SameLine();
}

std::string fmt_mb(double bytes) {
  const double mb = bytes / 1e6;
  if (!std::isfinite(mb) || std::abs(mb) >= 100) return fmt_int(std::llround(std::isfinite(mb) ? mb : 0));
  char buf[32];
  std::snprintf(buf, sizeof buf, std::abs(mb) < 1 ? "%.2f" : "%.1f", mb);
  return buf;
}

namespace {
// A swatch the height of a text line, then its label: on the current line where it fits, else
// on the next (a narrow panel wraps the legend rather than cutting it).
void swatch(Rgba c, const std::string& label) {
  const float h = ImGui::GetTextLineHeight();
  // Short labels go on the current line when they fit; a long one stays on it and wraps at the
  // panel's edge if about a dozen characters still fit there, else starts the next line (it had
  // wrapped a word or less per line beside three short swatches).
  const float need = h * 1.1f + ImGui::CalcTextSize(label.c_str()).x;
  if (need < ImGui::GetContentRegionAvail().x * 0.6f) same_line_if_fits(need);
  else same_line_if_fits(std::min(need, h * 7.f));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + h * 0.1f}, {p.x + h * 0.8f, p.y + h * 0.9f}, c, 2);
  ImGui::Dummy({h * 0.85f, h});
  if (!label.empty()) {
    ImGui::SameLine(0, h * 0.25f);
    ImGui::PushTextWrapPos(0);  // a long label wraps at the panel's edge
    ImGui::TextUnformatted(label.c_str());
    ImGui::PopTextWrapPos();
  }
}
}  // namespace

void legend_ids(const char* title, int count, int first, int shown) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s:", title);
  ImGui::PopTextWrapPos();
  const int n = std::max(0, std::min(count, shown));
  for (int i = 0; i < n; ++i) swatch(id_color(first + i), std::to_string(first + i));
  if (count > n) {
    same_line_if_fits(ImGui::CalcTextSize(tr("... 00000 in all")).x);
    ImGui::TextDisabled(tr("... %d in all"), count);
  }
  ui_trace((std::string("legend ") + title).c_str());
}

void legend_heat(const char* title, const std::string& low, const std::string& high) {
  // Each part on this line while it fits, else on the next ("131,07" of "131,072" was cut).
  const float h = ImGui::GetTextLineHeight(), w = h * 8;
  ImGui::TextDisabled("%s:", title);
  same_line_if_fits(ImGui::CalcTextSize(low.c_str()).x);
  ImGui::TextUnformatted(low.c_str());
  same_line_if_fits(w);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  constexpr int kSteps = 32;
  for (int i = 0; i < kSteps; ++i)
    dl->AddRectFilled({p.x + w * i / kSteps, p.y + h * 0.15f}, {p.x + w * (i + 1) / kSteps, p.y + h * 0.85f},
                      heat_color((i + 0.5) / kSteps));
  ImGui::Dummy({w, h});
  same_line_if_fits(ImGui::CalcTextSize(high.c_str()).x);
  ImGui::TextUnformatted(high.c_str());
  ui_trace((std::string("legend ") + title).c_str());
}

void legend_swatches(const char* title, const std::vector<std::pair<std::uint32_t, std::string>>& entries) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s:", title);
  ImGui::PopTextWrapPos();
  for (const auto& [c, label] : entries) swatch(c, label);
  ui_trace((std::string("legend ") + title).c_str());
}

}  // namespace gemmlab::app
