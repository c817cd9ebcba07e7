// 14-implicit-gemm/im2col: one row of A (an output pixel) as its window over the input image,
// the learner's reads beside the convolution's, and the whole A coloured right / padding / wrong.
#include <algorithm>
#include <string>

#include "exercise/exercise_picture_parts.h"
#include "exercise_pictures.h"
#include "model/ui_text.h"

namespace gemmlab::app {
namespace {

using exercise::Im2colCell;
using exercise::Im2colPicture;

// The cells drawn: the image and a ring of padding as wide as the window reaches past it.
struct Frame {
  int lo, hi;  // input rows and columns lo .. hi - 1
};

ImU32 tap_colour(const exercise::Im2colTap& t) {
  if (!t.right) return kWrongColour;
  return t.padding ? kPaddingColour : kRightColour;
}

// The input image (n of the row) with the padding ring; each tap filled where it reads, numbered
// 1 .. R*S in the window's order (r, then s), so a tap that lands elsewhere can be followed.
void draw_window(const char* title, const Im2colPicture& p, const Frame& f, const std::string& caption) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const float cell = ImGui::GetFontSize() * 0.95f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int side = f.hi - f.lo;
  auto at = [&](int h, int w) { return ImVec2{o.x + (w - f.lo) * cell, o.y + (h - f.lo) * cell}; };
  for (int h = f.lo; h < f.hi; ++h)
    for (int w = f.lo; w < f.hi; ++w) {
      const bool inside = h >= 0 && h < p.image_h && w >= 0 && w < p.image_w;
      const ImVec2 a = at(h, w);
      dl->AddRectFilled(a, {a.x + cell - 1, a.y + cell - 1}, inside ? kBlankColour : IM_COL32(34, 34, 44, 255));
    }
  const ImVec2 corner = at(0, 0), end = at(p.image_h, p.image_w);
  dl->AddRect({corner.x - 1, corner.y - 1}, {end.x, end.y}, IM_COL32(200, 200, 200, 255));  // the image's edge
  const float digits = ImGui::GetFontSize() * 0.7f;
  for (size_t i = 0; i < p.taps.size(); ++i) {
    const auto& t = p.taps[i];
    if (!t.placed || t.h < f.lo || t.h >= f.hi || t.w < f.lo || t.w >= f.hi) continue;
    const ImVec2 a = at(t.h, t.w);
    dl->AddRectFilled(a, {a.x + cell - 1, a.y + cell - 1}, tap_colour(t));
    const std::string n = std::to_string(i + 1);
    dl->AddText(ImGui::GetFont(), digits, {a.x + (cell - digits * 0.55f) / 2, a.y + (cell - digits) / 2},
                IM_COL32(15, 15, 15, 255), n.c_str());
  }
  ImGui::Dummy({side * cell, side * cell});
  ImGui::TextUnformatted(caption.c_str());
  ImGui::EndGroup();
}

// A, row by row (32 rows down, 72 columns across), the window's row outlined.
void draw_matrix(const Im2colPicture& p) {
  const float w = std::max(2.f, ImGui::GetFontSize() * 0.2f), h = w;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int r = 0; r < p.rows; ++r)
    for (int c = 0; c < p.cols; ++c) {
      const Im2colCell cell = p.cells[static_cast<size_t>(r * p.cols + c)];
      const ImU32 colour = cell == Im2colCell::Wrong     ? kWrongColour
                           : cell == Im2colCell::Padding ? kPaddingColour
                                                         : kRightColour;
      dl->AddRectFilled({o.x + c * w, o.y + r * h}, {o.x + (c + 1) * w, o.y + (r + 1) * h}, colour);
    }
  dl->AddRect({o.x - 1, o.y + p.row * h - 1}, {o.x + p.cols * w + 1, o.y + (p.row + 1) * h + 1},
              IM_COL32(255, 230, 60, 255));
  ImGui::Dummy({p.cols * w, p.rows * h});
}

}  // namespace

void draw_im2col_picture(const exercise::Exercise& ex, const exercise::HostGrade& grade) {
  const Im2colPicture mine = exercise::im2col_picture(grade.table);
  if (mine.cells.empty()) return;
  const Im2colPicture conv = exercise::im2col_picture_conv(mine.row);
  Frame f{0, std::max(mine.image_h, mine.image_w)};
  int window = 0, right = 0, padding = 0;
  for (const auto* p : {&mine, &conv})
    for (const auto& t : p->taps) f.lo = std::min({f.lo, t.h, t.w}), f.hi = std::max({f.hi, t.h + 1, t.w + 1});
  for (const auto& t : conv.taps) window = std::max(window, t.r + 1), padding += t.padding;
  for (const auto& t : mine.taps) right += t.right;
  ImGui::TextWrapped("%s", trf("Row %d of A is output pixel (n %d, p %d, q %d): its %d x %d window over the %d x %d input "
                               "image, padding around it",
                               mine.row, mine.n, mine.p, mine.q, window, window, mine.image_h, mine.image_w).c_str());
  draw_window(tr("Yours"), mine, f, trf("%d of %d taps right", right, static_cast<int>(mine.taps.size())));
  ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
  draw_window(trf("The convolution's (stage %s)", stage_number(ex.stage).c_str()).c_str(), conv, f,
              trf("%d taps in the padding", padding));
  picture_legend({{kRightColour, tr("reads the element the convolution reads")},
                  {kPaddingColour, tr("padding: -1")},
                  {kWrongColour, tr("wrong")}});
  ImGui::Spacing();
  ImGui::TextWrapped("%s", trf("Your A, %d x %d: %d elements wrong (the row above outlined)", mine.rows, mine.cols,
                               mine.wrong).c_str());
  draw_matrix(mine);
}

}  // namespace gemmlab::app
