// 15-tma/box-coords: one block's eight k-tile boxes on A and on B, where the learner's coordinates
// put them beside where stage 15 puts them. A box past the tensor hangs over its edge (the TMA
// fills that part with zeros).
#include <algorithm>
#include <string>
#include <vector>

#include "exercise/exercise_picture_parts.h"
#include "exercise_pictures.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

using exercise::TmaOperandPicture;

// The tensor (inner across, outer down) in a square with a margin for boxes past its edges.
void draw_operand(const char* title, const TmaOperandPicture& p, const std::string& caption) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const float side = ImGui::GetFontSize() * 5.5f, margin = side / 10;
  const float sx = side / static_cast<float>(p.dims[0]), sy = side / static_cast<float>(p.dims[1]);
  const ImVec2 c = ImGui::GetCursorScreenPos();
  const ImVec2 o{c.x + margin, c.y + margin};  // element (0, 0)
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(c, {c.x + side + 2 * margin, c.y + side + 2 * margin}, true);
  dl->AddRectFilled(o, {o.x + side, o.y + side}, kBlankColour);
  const float digits = ImGui::GetFontSize() * 0.7f;
  for (size_t k = 0; k < p.boxes.size(); ++k) {
    const auto& b = p.boxes[k];
    const ImVec2 a{o.x + static_cast<float>(b.inner) * sx, o.y + static_cast<float>(b.outer) * sy};
    const ImVec2 z{a.x + p.box[0] * sx, a.y + p.box[1] * sy};
    const ImU32 fill = b.right ? kRightColour : kWrongColour;
    dl->AddRectFilled(a, z, k % 2 ? fill : (fill & 0x00FFFFFF) | 0xB0000000);
    dl->AddRect(a, z, IM_COL32(20, 20, 20, 255));
    dl->AddText(ImGui::GetFont(), digits, {a.x + 2, a.y + 1}, IM_COL32(15, 15, 15, 255), std::to_string(k).c_str());
  }
  dl->AddRect(o, {o.x + side, o.y + side}, IM_COL32(170, 170, 170, 255));
  dl->PopClipRect();
  ImGui::Dummy({side + 2 * margin, side + 2 * margin});
  ImGui::TextUnformatted(caption.c_str());
  ImGui::EndGroup();
}

std::string caption_of(const TmaOperandPicture& p) {
  int right = 0;
  long long past = 0;
  for (const auto& b : p.boxes) right += b.right, past += static_cast<long long>(p.box[0]) * p.box[1] - b.in_bounds;
  if (past > 0) return trf("%d of %d right, %s zeros", right, static_cast<int>(p.boxes.size()), fmt_int(past).c_str());
  return trf("%d of %d right", right, static_cast<int>(p.boxes.size()));
}

}  // namespace

void draw_tma_box_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade) {
  // The TMA model copies each of the 32 boxes element by element (about 0.2 s): once per grade.
  static std::vector<long long> drawn;
  static exercise::TmaBoxPicture mine, stage;
  if (drawn != grade.table.values || mine.a.boxes.empty()) {
    drawn = grade.table.values;
    mine = exercise::tma_box_picture(grade.table);
    stage = exercise::tma_box_picture_stage(mine.m_block, mine.n_block);
  }
  if (mine.a.boxes.empty()) return;
  ImGui::TextWrapped("%s", trf("The boxes of block (m %d, n %d), k-tiles 0-%d, on A (%lld x %lld: K across, m down) and "
                               "B (stored %lld x %lld: K across, n down)",
                               mine.m_block, mine.n_block, static_cast<int>(mine.a.boxes.size()) - 1, mine.a.dims[1],
                               mine.a.dims[0], mine.b.dims[1], mine.b.dims[0]).c_str());
  const float gap = ImGui::GetFontSize();
  draw_operand(tr("A, yours"), mine.a, caption_of(mine.a));
  ImGui::SameLine(0, gap);
  draw_operand(trf("A, stage %s's", stage_number(ex.stage).c_str()).c_str(), stage.a, caption_of(stage.a));
  draw_operand(tr("B, yours"), mine.b, caption_of(mine.b));
  ImGui::SameLine(0, gap);
  draw_operand(trf("B, stage %s's", stage_number(ex.stage).c_str()).c_str(), stage.b, caption_of(stage.b));
  picture_legend({{kRightColour, tr("where the stage's box starts (the number: its k-tile)")},
                  {kWrongColour, tr("elsewhere")}});
}

}  // namespace gemmlab::app
