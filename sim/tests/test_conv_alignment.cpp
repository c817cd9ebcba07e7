// `sim conv` maps every valid problem (gemmlab/conv_alignment.h): the alignment rule, and the
// (n, h, w, c) of every load against an independent model of CUTLASS 2.x's analytic fprop
// activation iterator (Conv2dFpropActivationTileAccessIteratorAnalytic): rows split into (n, p, q)
// from offset_npq, taps walked s fastest, then r, then the next block of kColumn channels; at()
// is (n, p*stride - pad + r*dilation, q*stride - pad + s*dilation, c) and valid() tests n, h, w
// and the access's first channel against the tensor.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gemmlab/conv_alignment.h"

using namespace gemmlab::conv;

namespace {

// The analytic iterator's coordinate for one access, written from its formulas (not our code).
struct AnalyticCoord {
  int n, h, w, c;
  bool valid;
};
AnalyticCoord analytic_at(const Shape& sh, long long offset_npq, int filter_r, int filter_s, int filter_c) {
  const long long pq = 1ll * sh.p() * sh.q();
  const int n = int(offset_npq / pq);
  const long long residual = offset_npq % pq;
  const int p = int(residual / sh.q()), q = int(residual % sh.q());
  const int h = p * sh.stride - sh.pad + filter_r * sh.dilation;
  const int w = q * sh.stride - sh.pad + filter_s * sh.dilation;
  const bool valid = n < sh.n && h >= 0 && h < sh.h && w >= 0 && w < sh.w && filter_c < sh.c;
  return {n, h, w, filter_c, valid};
}

// Walks the analytic iterator over a block of `tile_m` rows from m0 for the whole K loop (k-tiles
// of tile_k channels, accesses of `alignment`), and checks every access against access_of and
// every element of a valid access against input_of. Returns the valid accesses it checked.
long long check_walk(const Shape& sh, long long m0, int tile_m, int tile_k, int alignment) {
  long long checked = 0;
  std::vector<int> seen(size_t(sh.gemm_k()), 0);  // columns of row m0 the walk loads
  for (int c_block = 0; c_block < sh.c; c_block += tile_k)   // advance(): filter_c_ += kColumn
    for (int r = 0; r < sh.r; ++r)                            // after S steps of s
      for (int s = 0; s < sh.s; ++s)
        for (int row = 0; row < tile_m; ++row)
          for (int cc = 0; cc < tile_k; cc += alignment) {
            const long long m = m0 + row;
            const AnalyticCoord x = analytic_at(sh, m, r, s, c_block + cc);
            if (x.c >= sh.c || m >= sh.gemm_m()) {  // channels past C, rows past M: zero fill
              EXPECT_FALSE(x.valid && m < sh.gemm_m());
              continue;
            }
            const int kk = (r * sh.s + s) * sh.c + x.c;
            const Access a = access_of(sh, m, kk, alignment);
            EXPECT_EQ(a.first_col, kk);
            EXPECT_EQ(a.in_tensor, x.valid) << "m " << m << " kk " << kk;
            EXPECT_EQ(a.input.n, x.n);
            EXPECT_EQ(a.input.h, x.h);
            EXPECT_EQ(a.input.w, x.w);
            EXPECT_EQ(a.input.c, x.c);
            for (int j = 0; j < alignment; ++j) {  // the vector's elements: one tap, consecutive channels
              const Nhwc e = input_of(sh, row_pixel(sh, m), k_tap(sh, kk + j));
              EXPECT_EQ(e.h, x.h);
              EXPECT_EQ(e.w, x.w);
              EXPECT_EQ(e.c, x.c + j);
              if (x.valid) {
                EXPECT_EQ(activation_offset(sh, e), activation_offset(sh, Nhwc{x.n, x.h, x.w, x.c}) + j);
              }
              if (row == 0) ++seen[size_t(kk + j)];
            }
            ++checked;
          }
  for (size_t kk = 0; kk < seen.size(); ++kk) EXPECT_EQ(seen[kk], 1) << "column " << kk << " of row " << m0;
  return checked;
}

std::uint32_t next(std::uint32_t& state) { return state = state * 1664525u + 1013904223u; }

TEST(ConvAlignment, DefaultIsTheLargestThatDividesC) {
  const int expected[] = {0, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4};  // C = 1..12
  for (int c = 1; c <= 12; ++c)
    EXPECT_EQ(default_alignment(Shape{1, 8, 8, c, 8, 3, 3, 1, 1, 1}, Element::F16), expected[c]) << c;
  EXPECT_EQ(default_alignment(Shape{1, 8, 8, 96, 8, 3, 3, 1, 1, 1}, Element::F16), 8);
  EXPECT_EQ(default_alignment(Shape{1, 8, 8, 48, 8, 3, 3, 1, 1, 1}, Element::S8), 16);
  EXPECT_EQ(default_alignment(Shape{1, 8, 8, 96, 8, 3, 3, 1, 1, 1}, Element::S4), 32);
  EXPECT_EQ(default_alignment(Shape{1, 8, 8, 6, 8, 3, 3, 1, 1, 1}, Element::S4), 2);
  EXPECT_EQ(default_alignment(Shape{1, 8, 8, 3, 8, 3, 3, 1, 1, 1}, Element::S4), 0);
  EXPECT_EQ(access_bytes(Element::F16, 8), 16);
  EXPECT_EQ(access_bytes(Element::F16, 1), 2);
  EXPECT_EQ(access_bytes(Element::S4, 2), 1);
}

TEST(ConvAlignment, RulesNameTheProblem) {
  const Shape c12{1, 8, 8, 12, 8, 3, 3, 1, 1, 1};
  EXPECT_EQ(check_problem(c12), nullptr);  // the mapping takes any C
  EXPECT_EQ(check_alignment(c12, Element::F16, 4), nullptr);
  EXPECT_EQ(check_alignment(c12, Element::F16, 1), nullptr);
  EXPECT_STREQ(check_alignment(c12, Element::F16, 8),
               "the alignment must divide C: a load would cross into the next filter tap");
  EXPECT_STREQ(check_alignment(c12, Element::F16, 3), "the alignment must be 1, 2, 4, 8, 16 or 32 elements");
  EXPECT_STREQ(check_alignment(Shape{1, 8, 8, 32, 8, 3, 3, 1, 1, 1}, Element::F16, 16),
               "the alignment of fp16 is at most 8 elements (one 16-byte load)");
  EXPECT_STREQ(check_alignment(Shape{1, 8, 8, 32, 8, 3, 3, 1, 1, 1}, Element::S4, 1),
               "the alignment of int4 is at least 2 elements (one byte)");
  EXPECT_NE(check_alignment(Shape{1, 2, 2, 8, 8, 5, 5, 0, 1, 1}, Element::F16, 8), nullptr);  // P would be 0
  // The kernels keep their 16-byte rule: it is the alignment rule at the widest load.
  EXPECT_STREQ(check_shape(c12, Element::F16), "C must be a multiple of 8 for 16-byte fp16 loads");
  for (int c = 1; c <= 40; ++c) {
    const Shape sh{1, 8, 8, c, 8, 3, 3, 1, 1, 1};
    EXPECT_EQ(check_shape(sh, Element::F16) == nullptr, check_alignment(sh, Element::F16, 8) == nullptr) << c;
  }
}

// Why the alignment must divide C: with C = 3 a 2-element load at column 2 would read channel 2 of
// tap (0, 0) and, as its second element, channel 0 of tap (0, 1), another pixel.
TEST(ConvAlignment, ALoadThatDoesNotDivideCCrossesATap) {
  const Shape stem{1, 16, 16, 3, 8, 7, 7, 3, 2, 1};
  EXPECT_EQ(k_tap(stem, 2).s, 0);
  EXPECT_EQ(k_tap(stem, 3).s, 1);
  EXPECT_EQ(access_of(stem, 0, 3, 2).first_col, 2);  // the load that holds column 3 starts in tap s = 0
  EXPECT_NE(check_alignment(stem, Element::F16, 2), nullptr);
}

TEST(ConvAlignment, ResNet50StemMatchesTheAnalyticIterator) {
  const Shape stem{32, 224, 224, 3, 64, 7, 7, 3, 2, 1};
  ASSERT_EQ(check_alignment(stem, Element::F16, default_alignment(stem, Element::F16)), nullptr);
  EXPECT_EQ(stem.p(), 112);
  EXPECT_EQ(stem.gemm_m(), 32ll * 112 * 112);
  EXPECT_EQ(stem.gemm_k(), 147);
  // Blocks at the first rows (top padding), an image edge, the middle, the last image's end.
  long long checked = 0;
  for (long long m0 : {0ll, 64ll, 112ll * 112 - 32, 5ll * 112 * 112 + 56 * 112, stem.gemm_m() - 64})
    checked += check_walk(stem, m0, 64, 32, 1);
  EXPECT_EQ(checked, 5ll * 64 * 147);
  // Row 113 = (n 0, p 1, q 1), column 100 = tap (r 4, s 5, c 1): input (0, 2 - 3 + 4, 2 - 3 + 5, 1).
  const Access a = access_of(stem, 113, 100, 1);
  EXPECT_EQ(a.tap.r, 4);
  EXPECT_EQ(a.tap.s, 5);
  EXPECT_EQ(a.tap.c, 1);
  EXPECT_EQ(a.input.h, 3);
  EXPECT_EQ(a.input.w, 4);
  EXPECT_TRUE(a.in_tensor);
}

// Generated problems: every C from 1 to 24 (and some larger), every alignment that divides it,
// strides, paddings, dilations, non-square images; every row block of small problems.
TEST(ConvAlignment, GeneratedProblemsMatchTheAnalyticIterator) {
  std::uint32_t state = 51;
  int problems = 0;
  long long checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Shape sh;
    sh.n = 1 + int(next(state) % 3);
    sh.h = 1 + int(next(state) % 12);
    sh.w = 1 + int(next(state) % 12);
    sh.c = trial < 24 ? trial + 1 : 1 + int(next(state) % 72);
    sh.k = 1 + int(next(state) % 8);
    sh.r = 1 + int(next(state) % 5);
    sh.s = 1 + int(next(state) % 5);
    sh.pad = int(next(state) % 4);
    sh.stride = 1 + int(next(state) % 3);
    sh.dilation = 1 + int(next(state) % 2);
    if (check_problem(sh) != nullptr) continue;
    ++problems;
    const int tile_k = 8 << (next(state) % 3);  // 8, 16 or 32 channels per k-tile
    for (int a = 1; a <= max_alignment(Element::F16); a *= 2) {
      if (check_alignment(sh, Element::F16, a) != nullptr) {
        EXPECT_NE(sh.c % a, 0);
        continue;
      }
      for (long long m0 = 0; m0 < sh.gemm_m(); m0 += 16) checked += check_walk(sh, m0, 16, tile_k, a);
    }
  }
  EXPECT_GT(problems, 100);
  EXPECT_GT(checked, 100000);
}

}  // namespace
