// 17-warp-specialized/mbarrier-parity: the phase plan of one ring over eight k-tiles, the
// learner's parities above the stage's, and the k-tile where the ring model finds the learner's
// plan racing or deadlocking.
#include <string>

#include "exercise/exercise_picture_parts.h"
#include "exercise_pictures.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

using exercise::ParityPlanPicture;

std::string parity_text(int parity) { return parity < 0 ? "-" : std::to_string(parity); }

void plan_row(const std::string& label, const std::vector<int>& parities, int first_k, int failed_k) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label.c_str());
  for (size_t i = 0; i < parities.size(); ++i) {
    ImGui::TableNextColumn();
    if (failed_k == first_k + static_cast<int>(i))
      ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, (kWrongColour & 0x00FFFFFF) | 0xA0000000);
    ImGui::TextUnformatted(parity_text(parities[i]).c_str());
  }
}

std::string verdict_text(const ParityPlanPicture& p) {
  switch (p.verdict) {
    case ParityPlanPicture::Verdict::Ok: return tr("no race and no deadlock in this ring");
    case ParityPlanPicture::Verdict::NotAParity: return trf("k-tile %d: a value that is no parity", p.failed_k);
    case ParityPlanPicture::Verdict::Race: return trf("k-tile %d: a race (the verdict above says which wait)", p.failed_k);
    case ParityPlanPicture::Verdict::Deadlock: return trf("k-tile %d: a deadlock, no phase can complete", p.failed_k);
  }
  return {};
}

}  // namespace

void draw_parity_plan_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade) {
  const ParityPlanPicture p = exercise::parity_plan_picture(grade.table);
  if (p.full.empty()) return;
  const int n = static_cast<int>(p.full.size());
  ImGui::TextWrapped("%s", trf("A ring of %d stages, k-tiles %d-%d: the parity the consumer waits for on full[k %% %d] "
                               "and the producer on empty[k %% %d] (-: no wait)",
                               p.stages, p.first_k, p.first_k + n - 1, p.stages, p.stages).c_str());
  const std::string stage = stage_number(ex.stage);
  if (ImGui::BeginTable("##parity_plan", n + 1, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tr("k-tile"));
    for (int k = p.first_k; k < p.first_k + n; ++k) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::to_string(k).c_str());
    }
    plan_row(tr("yours: full"), p.full, p.first_k, p.failed_k);
    plan_row(tr("yours: empty"), p.empty, p.first_k, p.failed_k);
    plan_row(trf("stage %s: full", stage.c_str()), p.stage_full, p.first_k, -1);
    plan_row(trf("stage %s: empty", stage.c_str()), p.stage_empty, p.first_k, -1);
    ImGui::EndTable();
  }
  const bool ok = p.verdict == ParityPlanPicture::Verdict::Ok;
  ImGui::PushStyleColor(ImGuiCol_Text, ok ? kRightColour : kWrongColour);
  ImGui::TextWrapped("%s", verdict_text(p).c_str());
  ImGui::PopStyleColor();
}

}  // namespace gemmlab::app
