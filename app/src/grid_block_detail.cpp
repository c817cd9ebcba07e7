#include "grid_block_detail.h"

#include <string>

#include "gemmlab/simt_block_picture.h"
#include "palette.h"
#include "ui_util.h"

namespace gemmlab::app {

void draw_simt_block_detail(CanvasState& canvas, int highlight_warp) {
  static const SimtBlockPicture p = simt_block_picture();
  const float font = ImGui::GetFontSize();
  ImGui::TextWrapped("%s", tr("one threadblock: 128 x 128 of C, 8 warps of 32 x 64, 32 lanes of 8 x 8 each"));
  if (highlight_warp < 0)
    legend_ids(tr("warp"), 8);
  else
    legend_swatches(trf("lanes of warp %d", highlight_warp).c_str(),
                    {{lane_color(highlight_warp, 0), tr("lane 0")}, {lane_color(highlight_warp, 31), tr("lane 31")},
                     {dim(id_color(0), 0.3f), tr("the other warps")}});
  Canvas cv("##block", canvas, float(p.cols), float(p.rows), {0, 0}, font * 2.5f);
  ImDrawList* dl = cv.draw_list();
  cv.axis_x(float(p.rows), float(p.cols), 1, tr("n, elements"));
  cv.axis_y(0, float(p.rows), 1, "m");
  // One rectangle per 4 x 4 block (a lane's LaneMmaShape): 1024 of them; lane numbers on all or none.
  const bool lane_numbers = cv.cell_fits("31", 4, 4);
  for (int m = 0; m < p.rows; m += 4)
    for (int n = 0; n < p.cols; n += 4) {
      const int t = p.owner(m, n), warp = t / 32, lane = t % 32;
      const bool lit = highlight_warp < 0 || warp == highlight_warp;
      const Rgba c = highlight_warp < 0 ? dim(id_color(warp), 0.75f) : lit ? lane_color(warp, lane) : dim(id_color(warp), 0.3f);
      const ImVec2 a = cv.to_screen(float(n), float(m)), b = cv.to_screen(float(n + 4), float(m + 4));
      dl->AddRectFilled(a, b, c);
      dl->AddRect(a, b, kGridLine);
      if (lit && highlight_warp >= 0 && lane_numbers) cv.label(float(n), float(m), n + 4.f, m + 4.f, std::to_string(lane).c_str(), IM_COL32(0, 0, 0, 255));
    }
  // Warp tiles, outlined and named.
  for (int wm = 0; wm < p.rows / p.warp_m; ++wm)
    for (int wn = 0; wn < p.cols / p.warp_n; ++wn) {
      const int warp = wm + (p.rows / p.warp_m) * wn;
      const ImVec2 a = cv.to_screen(float(wn * p.warp_n), float(wm * p.warp_m)),
                   b = cv.to_screen(float((wn + 1) * p.warp_n), float((wm + 1) * p.warp_m));
      dl->AddRect(a, b, warp == highlight_warp ? kHighlight : IM_COL32(240, 240, 240, 200), 0, 0, 2);
      if (highlight_warp < 0 && cv.cell_fits("warp 7", float(p.warp_n), float(p.warp_m)))
        cv.label(float(wn * p.warp_n), float(wm * p.warp_m), float((wn + 1) * p.warp_n), float((wm + 1) * p.warp_m),
                 ("warp " + std::to_string(warp)).c_str(), IM_COL32(255, 255, 255, 255));
    }
  if (auto mouse = cv.mouse(); mouse && mouse->x >= 0 && mouse->y >= 0 && mouse->x < p.cols && mouse->y < p.rows) {
    const int m = int(mouse->y), n = int(mouse->x), t = p.owner(m, n);
    ImGui::BeginTooltip();
    tooltip_row(tr("C element"), trf("(%d, %d) of the block tile", m, n));
    tooltip_row(tr("thread"), trf("%d = warp %d, lane %d", t, t / 32, t % 32));
    ImGui::EndTooltip();
  }
}

}  // namespace gemmlab::app
