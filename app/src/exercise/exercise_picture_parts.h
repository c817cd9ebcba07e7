// The exercise pictures of lessons 14, 15 and 17, one file each (exercise_picture_<kind>.cpp),
// called by draw_exercise_picture with the learner's graded table. Each draws the learner's
// version beside the stage's at the lesson panel's width (about 420 pixels at 1280 x 800).
#pragma once
#include <imgui.h>

#include <initializer_list>
#include <string>

#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::app {

void draw_im2col_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade);
void draw_tma_box_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade);
void draw_parity_plan_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade);

// What the pictures share: swatches with their meaning, as many on a line as fit, and the colours
// of right and wrong.
struct LegendItem {
  ImU32 colour;
  const char* meaning;
};
void picture_legend(std::initializer_list<LegendItem> items);
inline constexpr ImU32 kRightColour = IM_COL32(80, 180, 100, 255);
inline constexpr ImU32 kPaddingColour = IM_COL32(80, 130, 220, 255);
inline constexpr ImU32 kWrongColour = IM_COL32(230, 85, 75, 255);
inline constexpr ImU32 kBlankColour = IM_COL32(60, 60, 60, 255);
// "17" of "17 warp-specialized": the stage's number (model/stage_labels.h).
std::string stage_number(const std::string& stage_id);

}  // namespace gemmlab::app
