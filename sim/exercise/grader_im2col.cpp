// Exercise 14-implicit-gemm/im2col: long long im2col_offset(int row, int col), the NHWC offset of
// the input element that GEMM element A(row, col) reads, or -1 where it falls into the padding,
// for a strided 3x3 convolution (n 2, 7 x 7 x 8 input, 16 filters, pad 1, stride 2: a 32 x 72
// GEMM A). Graded against the simulator's address function (gemmlab/conv_problem.h), the one
// the conv stages and the Conv view use.
#include <algorithm>

#include "exercise_pictures.h"
#include "gemmlab/conv_picture.h"
#include "gemmlab/conv_problem.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

constexpr conv::Shape kShape{2, 7, 7, 8, 16, 3, 3, 1, 2, 1};
static_assert(kShape.p() == 4 && kShape.q() == 4 && kShape.gemm_m() == 32 && kShape.gemm_k() == 72);
constexpr int kRows = static_cast<int>(kShape.gemm_m()), kCols = static_cast<int>(kShape.gemm_k());

Words pixel_words(int row, int col) {
  const conv::Npq o = conv::row_pixel(kShape, row);
  const conv::Rsc tap = conv::k_tap(kShape, col);
  return words("A(%s, %s) = pixel (n %s, p %s, q %s) x tap (r %s, s %s, c %s)", row, col, o.n, o.p, o.q, tap.r, tap.s,
               tap.c);
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  long long padding = 0;
  for (int row = 0; row < kRows; ++row)
    for (int col = 0; col < kCols; ++col) {
      const conv::Nhwc x = conv::input_of(kShape, conv::row_pixel(kShape, row), conv::k_tap(kShape, col));
      const bool inside = conv::in_tensor(kShape, x);
      const long long want = inside ? conv::activation_offset(kShape, x) : -1;
      const long long got = t.at(static_cast<long long>(row) * kCols + col);
      padding += !inside;
      if (got == want) continue;
      const Words input = words("input (n %s, h %s, w %s, c %s)", x.n, x.h, x.w, x.c);
      if (!inside)
        v.say(words("%s falls into the padding (%s is outside the 7 x 7 image): return -1, not %s", pixel_words(row, col),
                    input, got));
      else if (got < 0 || got >= kShape.input_elements())
        v.say(words("%s: offset %s is outside the input (0 .. %s); the convolution reads %s at offset %s",
                    pixel_words(row, col), got, kShape.input_elements() - 1, input, want));
      else
        v.say(words("%s: you read offset %s, the convolution reads %s at offset %s", pixel_words(row, col), got, input,
                    want));
      return v;
    }
  v.pass = true;
  v.hold(words("all 2304 elements of A read the input the convolution reads"));
  v.say(words("every A(row, col) of the 32 x 72 GEMM reads the right input element, and the %s that fall into the "
              "padding are -1", padding));
  return v;
}

}  // namespace

Grader make_im2col_grader() {
  Grader g;
  g.kind = "im2col";
  g.signature = "long long im2col_offset(int row, int col)";
  g.declarations = "long long im2col_offset(int row, int col);\n";
  g.driver_body = "for (int row = 0; row < 32; ++row)\n  for (int col = 0; col < 72; ++col) emit(im2col_offset(row, col));";
  g.points = static_cast<long long>(kRows) * kCols;
  g.describe_point = [](long long p) {
    return "im2col_offset(" + std::to_string(p / kCols) + ", " + std::to_string(p % kCols) + ")";
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise

namespace gemmlab::exercise {
namespace {

// The convolution's reads of A(row, col): the offset, or -1 in the padding.
long long want_offset(int row, int col) {
  const conv::Nhwc x = conv::input_of(kShape, conv::row_pixel(kShape, row), conv::k_tap(kShape, col));
  return conv::in_tensor(kShape, x) ? conv::activation_offset(kShape, x) : -1;
}

Im2colPicture frame_of(int row) {
  Im2colPicture p;
  p.image_h = kShape.h;
  p.image_w = kShape.w;
  p.row = row;
  const conv::Npq o = conv::row_pixel(kShape, row);
  p.n = o.n, p.p = o.p, p.q = o.q;
  p.rows = kRows;
  p.cols = kCols;
  return p;
}

}  // namespace

Im2colPicture im2col_picture_conv(int row) {
  Im2colPicture p = frame_of(row);
  for (const conv::WindowCell& c : conv::window_of(kShape, row))
    p.taps.push_back({c.r, c.s, c.h, c.w, true, !c.in_tensor, true});
  for (int m = 0; m < kRows; ++m)
    for (int col = 0; col < kCols; ++col)
      p.cells.push_back(want_offset(m, col) < 0 ? Im2colCell::Padding : Im2colCell::Right);
  return p;
}

Im2colPicture im2col_picture(const ValueTable& t) {
  if (t.values_per_point != 1 || static_cast<long long>(t.values.size()) != static_cast<long long>(kRows) * kCols)
    return frame_of(0);
  int first_wrong = -1, wrong = 0;
  std::vector<Im2colCell> cells;
  for (int m = 0; m < kRows; ++m)
    for (int col = 0; col < kCols; ++col) {
      const long long want = want_offset(m, col), got = t.at(static_cast<long long>(m) * kCols + col);
      const bool right = got == want;
      cells.push_back(!right ? Im2colCell::Wrong : want < 0 ? Im2colCell::Padding : Im2colCell::Right);
      wrong += !right;
      if (!right && first_wrong < 0) first_wrong = m;
    }
  Im2colPicture p = frame_of(std::max(first_wrong, 0));
  p.cells = std::move(cells);
  p.wrong = wrong;
  // Each tap where its channel-0 column reads; right when all C channels are.
  for (const conv::WindowCell& c : conv::window_of(kShape, p.row)) {
    Im2colTap tap{c.r, c.s, c.h, c.w, false, false, true};
    const int col0 = (c.r * kShape.s + c.s) * kShape.c;
    for (int ch = 0; ch < kShape.c; ++ch)
      tap.right &= p.cells[static_cast<size_t>(p.row * kCols + col0 + ch)] != Im2colCell::Wrong;
    const long long got = t.at(static_cast<long long>(p.row) * kCols + col0);
    const long long pixel = got / kShape.c, w = pixel % kShape.w, h = pixel / kShape.w % kShape.h,
                    n = pixel / (kShape.w * kShape.h);
    if (got == -1) {
      tap.placed = tap.padding = true;  // drawn on the window's own pixel
    } else if (got >= 0 && got < kShape.input_elements() && n == p.n) {
      tap.h = static_cast<int>(h), tap.w = static_cast<int>(w);
      tap.placed = true;
    }
    p.taps.push_back(tap);
  }
  return p;
}

}  // namespace gemmlab::exercise
