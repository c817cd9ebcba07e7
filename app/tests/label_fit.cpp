// The label placer (label_placer.h) and the canvas's labels, in an ImGui frame without a window
// or GPU: a label is drawn only where it fits its space and covers no other, and a label that
// cannot be placed is recorded (the GUI walk fails on any). Label "app": no display needed.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "canvas.h"
#include "label_placer.h"

using namespace gemmlab::app;

namespace {

// One ImGui frame with a window of w x h pixels, the body run inside it.
template <class Body>
void in_frame(float w, float h, Body body) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {w + 40, h + 40};
  unsigned char* px;
  int tw, th;
  io.Fonts->GetTexDataAsRGBA32(&px, &tw, &th);
  ImGui::NewFrame();
  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize({w, h});
  ImGui::Begin("test", nullptr, ImGuiWindowFlags_NoDecoration);
  begin_label_frame();
  body();
  ImGui::End();
  ImGui::EndFrame();
  ImGui::DestroyContext();
}

}  // namespace

TEST(LabelFit, PlacerRefusesCutAndOverlappingLabels) {
  in_frame(400, 300, [] {
    const float font = ImGui::GetFontSize();
    LabelPlacer p(ImGui::GetWindowDrawList(), {10, 10}, {210, 110});
    EXPECT_TRUE(p.text({12, 12}, "16 m0", IM_COL32_WHITE));
    EXPECT_TRUE(dropped_labels().empty());
    // Over the first label: "operand (" over "16 m0" (issue 47).
    EXPECT_FALSE(p.text({14, 12 + font / 2}, "operand (", IM_COL32_WHITE));
    ASSERT_EQ(dropped_labels().size(), 1u);
    EXPECT_EQ(dropped_labels()[0].text, "operand (");
    EXPECT_EQ(dropped_labels()[0].why, "overlaps \"16 m0\"");
    // Past the right edge: "Swiz" of "Swizzle" (issue 47).
    EXPECT_FALSE(p.text_right(230, 60, "Swizzle", IM_COL32_WHITE));
    EXPECT_EQ(dropped_labels().back().why, "cut by its space");
    // A two-digit lane number in a cell one digit wide: "does not fit its box".
    const float one = ImGui::CalcTextSize("8").x;
    EXPECT_TRUE(p.in_box({100, 60}, {100 + one + 1, 60 + font}, "8", IM_COL32_WHITE));
    EXPECT_FALSE(p.in_box({100, 60}, {100 + one + 1, 60 + font}, "31", IM_COL32_WHITE));
    EXPECT_EQ(dropped_labels().back().why, "does not fit its box");
    EXPECT_EQ(dropped_labels().size(), 3u);
    begin_label_frame();
    EXPECT_TRUE(dropped_labels().empty());
  });
}

// A canvas fitted to a small area: every tick of its axes fits (the K axis of the TMA / GMMA view
// showed only "0"), and cell_fits says whether a cell can hold a label before any is drawn.
TEST(LabelFit, CanvasAxesFitTheirSpace) {
  for (const float w : {120.f, 300.f, 900.f})
    in_frame(w, 200, [&] {
      CanvasState st;
      Canvas cv("##c", st, 64, 64, {0, 0}, ImGui::GetFontSize() * 2.5f, 4.f);
      cv.axis_x(64, 64, 1, "K, elements");
      cv.axis_y(0, 64, 1, "row");
      EXPECT_TRUE(dropped_labels().empty()) << "width " << w << ": " << dropped_labels()[0].text << " "
                                            << dropped_labels()[0].why;
      EXPECT_EQ(cv.cell_fits("31"), ImGui::CalcTextSize("31").x + 2 <= cv.scale_x() &&
                                        ImGui::GetFontSize() <= cv.scale());
      // A label that does not fit its cell is recorded, not silently skipped.
      const bool fits = cv.label(0, 0, 1, 1, "12345678", IM_COL32_WHITE);
      EXPECT_EQ(fits, dropped_labels().empty());
    });
}
