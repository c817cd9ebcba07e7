#include "exercise/exercise_picture.h"

#include <imgui.h>

#include <algorithm>

#include "exercise/exercise_picture_parts.h"
#include "model/stage_labels.h"
#include "model/ui_text.h"
#include "exercise_pictures.h"

namespace gemmlab::app {
namespace {

// 8 rows x 32 banks; row r fills the four banks its 16 bytes use, in row r's colour. A bank
// column with two colours is a conflict.
void draw_banks(const char* title, const exercise::LdsmMatrixBanks& b) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const float cell = ImGui::GetFontSize() * 0.45f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int r = 0; r < 8; ++r)
    for (int bank = 0; bank < 32; ++bank) {
      const ImVec2 a{o.x + bank * cell, o.y + r * cell}, z{a.x + cell - 1, a.y + cell - 1};
      const int first = b.first_bank[static_cast<size_t>(r)];
      const bool used = b.ok && ((bank - first + 32) % 32) < 4;
      const ImU32 colour = used ? static_cast<ImU32>(ImColor::HSV(r / 8.f, 0.55f, 0.9f)) : IM_COL32(60, 60, 60, 255);
      dl->AddRectFilled(a, z, colour);
    }
  ImGui::Dummy({32 * cell, 8 * cell});
  if (b.ok) ImGui::TextUnformatted(trf("%d wavefronts per matrix, %d per .x4", b.matrix_wavefronts, b.x4_wavefronts).c_str());
  else ImGui::TextUnformatted(tr("(offsets outside the tile)"));
  ImGui::EndGroup();
}

// The 128 x 8 tile, the 32 elements of warp 0's access 0 filled.
void draw_warp_access(const char* title, const exercise::WarpAccessPicture& p) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const float w = ImGui::GetFontSize() * 0.11f, h = ImGui::GetFontSize() * 0.5f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(o, {o.x + 128 * w, o.y + 8 * h}, IM_COL32(60, 60, 60, 255));
  for (long long e : p.elements) {
    const ImVec2 a{o.x + (e % 128) * w, o.y + (e / 128) * h};
    dl->AddRectFilled(a, {a.x + std::max(w, 1.f), a.y + h - 1}, IM_COL32(240, 170, 60, 255));
  }
  ImGui::Dummy({128 * w, 8 * h});
  if (!p.elements.empty()) ImGui::TextUnformatted(trf("%d sectors of 32 bytes", p.sectors).c_str());
  ImGui::EndGroup();
}

// The grid of C tiles (n down, m across), the first wave's tiles filled.
void draw_first_wave(const char* title, const exercise::FirstWavePicture& p) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const float w = std::max(1.f, ImGui::GetFontSize() * 0.06f), h = ImGui::GetFontSize() * 0.45f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(o, {o.x + p.tiles_m * w, o.y + p.tiles_n * h}, IM_COL32(60, 60, 60, 255));
  for (long long t : p.tiles) {
    const ImVec2 a{o.x + (t / p.tiles_n) * w, o.y + (t % p.tiles_n) * h};
    dl->AddRectFilled(a, {a.x + w, a.y + h - 1}, IM_COL32(90, 170, 240, 255));
  }
  ImGui::Dummy({p.tiles_m * w, p.tiles_n * h});
  ImGui::EndGroup();
}

}  // namespace

void picture_legend(std::initializer_list<LegendItem> items) {
  const float s = ImGui::GetFontSize() * 0.7f, gap = ImGui::GetStyle().ItemSpacing.x;
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  for (const LegendItem& item : items) {
    const float width = s + gap + ImGui::CalcTextSize(item.meaning).x;
    if (!first) {
      ImGui::SameLine(0, 2 * gap);
      if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
    }
    first = false;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float y = o.y + (ImGui::GetTextLineHeight() - s) / 2;
    ImGui::GetWindowDrawList()->AddRectFilled({o.x, y}, {o.x + s, y + s}, item.colour);
    ImGui::Dummy({s, s});
    ImGui::SameLine();
    ImGui::TextWrapped("%s", item.meaning);
  }
}

std::string stage_number(const std::string& stage_id) {
  const std::string label = stage_label(stage_id);
  return label.substr(0, label.find(' '));
}

void draw_exercise_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade) {
  if (grade.stage != exercise::HostGrade::Stage::Evaluate) return;
  ImGui::Spacing();
  if (ex.grader == "im2col") return draw_im2col_picture(ex, grade);
  if (ex.grader == "tma-box") return draw_tma_box_picture(ex, grade);
  if (ex.grader == "mbarrier-parity") return draw_parity_plan_picture(ex, grade);
  if (ex.grader == "coalesced-map") {
    ImGui::TextWrapped("%s", tr("Warp 0's first access in the 128 x 8 tile"));
    draw_warp_access(tr("Yours"), exercise::warp_access_picture(grade.table));
    draw_warp_access(tr("Stripmined (the lesson's map)"), exercise::warp_access_picture_stripmined());
    return;
  }
  if (ex.grader == "block-order") {
    ImGui::TextWrapped("%s", tr("The C tiles of the first wave (m across, n down)"));
    draw_first_wave(tr("Yours"), exercise::first_wave_picture(grade.table));
    draw_first_wave(trf("Stage %s's order", stage_label(ex.stage).c_str()).c_str(), exercise::first_wave_picture_stage());
    return;
  }
  if (ex.grader != "smem-offset") return;
  ImGui::TextWrapped("%s", tr("The first ldmatrix matrix (A rows 0-7 at k 0): the 4 banks each row's 16 bytes use"));
  draw_banks(tr("Yours"), exercise::ldsm_matrix_banks(grade.table));
  draw_banks(trf("Stage %s's (Swizzle<3,3,3>)", stage_label(ex.stage).c_str()).c_str(), exercise::ldsm_matrix_banks_stage());
}

}  // namespace gemmlab::app
