// Exercise 14-implicit-gemm/im2col: long long im2col_offset(int row, int col), the NHWC offset of
// the input element that GEMM element A(row, col) reads, or -1 where it falls into the padding,
// for a strided 3x3 convolution (n 2, 7 x 7 x 8 input, 16 filters, pad 1, stride 2: a 32 x 72
// GEMM A). Graded against the simulator's address function (gemmlab/conv_problem.h), the one
// the conv stages and the Conv view use.
#include "gemmlab/conv_problem.h"
#include "grader.h"

namespace gemmlab::exercise {
namespace {

constexpr conv::Shape kShape{2, 7, 7, 8, 16, 3, 3, 1, 2, 1};
static_assert(kShape.p() == 4 && kShape.q() == 4 && kShape.gemm_m() == 32 && kShape.gemm_k() == 72);
constexpr int kRows = static_cast<int>(kShape.gemm_m()), kCols = static_cast<int>(kShape.gemm_k());

std::string pixel_words(int row, int col) {
  const conv::Npq o = conv::row_pixel(kShape, row);
  const conv::Rsc tap = conv::k_tap(kShape, col);
  return "A(" + std::to_string(row) + ", " + std::to_string(col) + ") = pixel (n " + std::to_string(o.n) + ", p " +
         std::to_string(o.p) + ", q " + std::to_string(o.q) + ") x tap (r " + std::to_string(tap.r) + ", s " +
         std::to_string(tap.s) + ", c " + std::to_string(tap.c) + ")";
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
      const std::string input = "input (n " + std::to_string(x.n) + ", h " + std::to_string(x.h) + ", w " +
                                std::to_string(x.w) + ", c " + std::to_string(x.c) + ")";
      if (!inside)
        v.reason = pixel_words(row, col) + " falls into the padding (" + input + " is outside the 7 x 7 image): "
                   "return -1, not " + std::to_string(got);
      else if (got < 0 || got >= kShape.input_elements())
        v.reason = pixel_words(row, col) + ": offset " + std::to_string(got) + " is outside the input (0 .. " +
                   std::to_string(kShape.input_elements() - 1) + "); the convolution reads " + input +
                   " at offset " + std::to_string(want);
      else
        v.reason = pixel_words(row, col) + ": you read offset " + std::to_string(got) + ", the convolution reads " +
                   input + " at offset " + std::to_string(want);
      return v;
    }
  v.pass = true;
  v.passed.push_back("all 2304 elements of A read the input the convolution reads");
  v.reason = "every A(row, col) of the 32 x 72 GEMM reads the right input element, and the " +
             std::to_string(padding) + " that fall into the padding are -1";
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
