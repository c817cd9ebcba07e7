// The implicit-GEMM address function of the conv stages (gemmlab/conv_problem.h), on the host:
// sizes, the (m, kk) -> (n, h, w, c) mapping with its padding predicate, the kernels' incremental
// form against the direct one, stage 14d's TMA im2col boxes, int4 packing, the shape rules and the
// tile choices.
#include <gtest/gtest.h>

#include <random>

#include "gemmlab/conv_problem.h"
#include "gemmlab/resnet50_layers.h"

using namespace gemmlab::conv;

namespace {

constexpr Shape kResnet56{32, 56, 56, 64, 64, 3, 3, 1, 1, 1};

TEST(ConvProblem, OutputSizeAndGemm) {
  EXPECT_EQ(kResnet56.p(), 56);
  EXPECT_EQ(kResnet56.q(), 56);
  EXPECT_EQ(kResnet56.gemm_m(), 100352);  // 32 * 56 * 56
  EXPECT_EQ(kResnet56.gemm_n(), 64);
  EXPECT_EQ(kResnet56.gemm_k(), 576);     // 3 * 3 * 64
  EXPECT_DOUBLE_EQ(kResnet56.flops(), 2.0 * 100352 * 64 * 576);
  const Shape ragged{1, 7, 7, 8, 24, 3, 3, 0, 2, 1};
  EXPECT_EQ(ragged.p(), 3);  // (7 - 3) / 2 + 1
  EXPECT_EQ(ragged.gemm_k(), 72);
  const Shape padded{1, 7, 7, 8, 24, 3, 3, 1, 2, 1};
  EXPECT_EQ(padded.p(), 4);  // (7 + 2 - 3) / 2 + 1
  const Shape dilated{1, 9, 9, 8, 8, 3, 3, 0, 2, 2};
  EXPECT_EQ(dilated.p(), 3);  // (9 - 2*2 - 1) / 2 + 1
  const Shape five{2, 10, 12, 16, 8, 5, 5, 2, 1, 1};
  EXPECT_EQ(five.p(), 10);
  EXPECT_EQ(five.q(), 12);
}

TEST(ConvProblem, RowAndTapOrder) {
  // Row m: q fastest, then p, then n (3136 pixels per image).
  const Npq o = row_pixel(kResnet56, 3136 + 121);
  EXPECT_EQ(o.n, 1);
  EXPECT_EQ(o.p, 2);
  EXPECT_EQ(o.q, 9);
  // kk: c fastest, then s, then r (64 channels per tap).
  const Rsc t = k_tap(kResnet56, 4 * 64 + 5);
  EXPECT_EQ(t.r, 1);
  EXPECT_EQ(t.s, 1);
  EXPECT_EQ(t.c, 5);
  const Nhwc x = input_of(kResnet56, o, t);
  EXPECT_EQ(x.h, 2);  // 2*1 - 1 + 1
  EXPECT_EQ(x.w, 9);
  EXPECT_TRUE(in_tensor(kResnet56, x));
  EXPECT_EQ(activation_offset(kResnet56, x), 208453);  // ((1*56 + 2)*56 + 9)*64 + 5
  EXPECT_EQ(filter_offset(kResnet56, 3, t), 3 * 576 + 4 * 64 + 5);
  EXPECT_EQ(output_offset(kResnet56, 3257, 7), 3257 * 64 + 7);
}

TEST(ConvProblem, PaddingIsOutsideTheTensor) {
  // Output pixel (0,0,0), tap (0,0): input (0,-1,-1) is padding; tap (1,1) is the pixel itself.
  EXPECT_FALSE(in_tensor(kResnet56, input_of(kResnet56, row_pixel(kResnet56, 0), k_tap(kResnet56, 0))));
  const Nhwc centre = input_of(kResnet56, row_pixel(kResnet56, 0), k_tap(kResnet56, 4 * 64));
  EXPECT_TRUE(in_tensor(kResnet56, centre));
  EXPECT_EQ(activation_offset(kResnet56, centre), 0);
  // The last pixel of a row, tap s = 2: w = 56 is padding.
  EXPECT_FALSE(in_tensor(kResnet56, input_of(kResnet56, row_pixel(kResnet56, 55), k_tap(kResnet56, 2 * 64))));
  // How many (m, kk) of the 56x56 layer fall into the padding: the border pixels' missing taps.
  long long padded = 0;
  const Shape one{1, 56, 56, 8, 8, 3, 3, 1, 1, 1};
  for (long long m = 0; m < one.gemm_m(); ++m)
    for (int kk = 0; kk < one.gemm_k(); kk += 8)
      padded += !in_tensor(one, input_of(one, row_pixel(one, m), k_tap(one, kk)));
  // 4 edges x 56 pixels x 3 taps, less one per corner (5 padded taps there, counted as 3 + 3).
  EXPECT_EQ(padded, 668);
}

// The kernels' split form (row_origin + tap_step) is the direct address function, padding included.
TEST(ConvProblem, IncrementalFormIsTheAddressFunction) {
  for (const Shape& sh : {Shape{2, 7, 9, 8, 24, 3, 3, 1, 2, 1}, Shape{1, 7, 7, 8, 24, 3, 3, 0, 2, 1},
                          Shape{2, 10, 12, 16, 8, 5, 5, 2, 1, 1}, Shape{1, 9, 9, 8, 8, 3, 3, 1, 2, 2},
                          Shape{3, 5, 5, 32, 16, 1, 1, 0, 1, 1}}) {
    long long checked = 0, padding = 0;
    for (long long m = 0; m < sh.gemm_m(); ++m) {
      const RowOrigin o = row_origin(sh, m);
      for (int kk = 0; kk < sh.gemm_k(); ++kk) {
        const Nhwc x = input_of(sh, row_pixel(sh, m), k_tap(sh, kk));
        const TapStep t = tap_step(sh, kk);
        ASSERT_EQ(tap_in_tensor(sh, o, t), in_tensor(sh, x)) << m << "," << kk;
        if (in_tensor(sh, x)) ASSERT_EQ(o.base + t.delta, activation_offset(sh, x)) << m << "," << kk;
        else ++padding;
        ++checked;
      }
    }
    EXPECT_EQ(checked, sh.gemm_m() * sh.gemm_k());
    EXPECT_EQ(padding > 0, sh.pad > 0) << sh.pad;
  }
}

TEST(ConvProblem, Int4Packing) {
  uint32_t word = 0;
  for (int i = 0; i < 8; ++i) word = s4_set(word, i, i - 4);  // -4 .. 3
  EXPECT_EQ(word, 0x3210FEDCu);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(s4_get(word, i), i - 4);
  for (int v = -8; v <= 7; ++v) EXPECT_EQ(s4_get(s4_set(0xFFFFFFFFu, 5, v), 5), v);
  EXPECT_EQ(elements_per_vector(Element::S4), 32);
  EXPECT_EQ(elements_per_vector(Element::S8), 16);
  EXPECT_EQ(elements_per_vector(Element::F16), 8);
}

TEST(ConvProblem, ShapeRulesNameTheProblem) {
  EXPECT_EQ(check_shape(kResnet56, Element::F16), nullptr);
  EXPECT_STREQ(check_shape(Shape{1, 8, 8, 12, 8, 3, 3, 1, 1, 1}, Element::F16),
               "C must be a multiple of 8 for 16-byte fp16 loads");
  EXPECT_STREQ(check_shape(Shape{1, 8, 8, 8, 8, 3, 3, 1, 1, 1}, Element::S8),
               "C must be a multiple of 16 for 16-byte int8 loads");
  EXPECT_STREQ(check_shape(Shape{1, 8, 8, 16, 8, 3, 3, 1, 1, 1}, Element::S4),
               "C must be a multiple of 32 for 16-byte int4 loads");
  EXPECT_NE(check_shape(Shape{1, 2, 2, 8, 8, 5, 5, 0, 1, 1}, Element::F16), nullptr);  // P would be 0
  EXPECT_NE(check_shape(Shape{0, 2, 2, 8, 8, 1, 1, 0, 1, 1}, Element::F16), nullptr);
  EXPECT_NE(check_shape(Shape{1, 2, 2, 8, 8, 1, 1, 0, 0, 1}, Element::F16), nullptr);  // stride 0
  EXPECT_STREQ(check_shape(Shape{1 << 20, 64, 64, 64, 8, 1, 1, 0, 1, 1}, Element::F16),
               "each tensor must have fewer than 2^31 elements (the kernels index with 32-bit ints)");
}

// Stage 14d's TMA im2col boxes: row i of the box for the tile starting at GEMM row m0 and the k-tile
// of tap (r, s), channels c0.., is input_of(row m0 + i, that tap): padding, stride, dilation,
// h != w, tiles across image edges and past the last image (n == N: read as zero).
TEST(ConvProblem, Im2colBoxIsTheImplicitTile) {
  for (const Shape& sh : {kResnet56, Shape{2, 11, 9, 64, 40, 3, 3, 1, 2, 1}, Shape{1, 10, 13, 64, 24, 3, 3, 2, 1, 2},
                          Shape{3, 37, 41, 128, 100, 3, 3, 1, 2, 1}, Shape{32, 7, 7, 512, 512, 3, 3, 1, 1, 1},
                          Shape{2, 9, 9, 64, 16, 1, 1, 0, 1, 1}}) {
    ASSERT_TRUE(im2col_tma_fits(sh));
    long long checked = 0;
    for (int tile_m : {64, 128}) {
      for (long long m0 = 0; m0 < sh.gemm_m(); m0 += tile_m) {
        const Im2colLoad tile = im2col_tile(sh, m0);
        for (int kk = 0; kk < sh.gemm_k(); kk += 64) {
          const Rsc t = k_tap(sh, kk);
          const Im2colLoad load = im2col_load(sh, tile, kk);
          for (int i = 0; i < tile_m; ++i) {
            const Nhwc got = im2col_box_pixel(sh, load, i);
            if (m0 + i >= sh.gemm_m()) {
              ASSERT_GE(got.n, sh.n) << "rows past M come from past the last image";
              continue;
            }
            const Nhwc want = input_of(sh, row_pixel(sh, m0 + i), t);
            ASSERT_EQ(got.n, want.n) << m0 << "+" << i << " tap " << kk;
            ASSERT_EQ(got.h, want.h) << m0 << "+" << i << " tap " << kk;
            ASSERT_EQ(got.w, want.w) << m0 << "+" << i << " tap " << kk;
            ASSERT_EQ(got.c, want.c);
            ++checked;
          }
        }
      }
    }
    EXPECT_EQ(checked, 2 * sh.gemm_m() * (sh.gemm_k() / 64));
  }
  // The box's corners for the 56x56 layer: origins -1 .. 54 in h and w (56 of them, P = Q = 56).
  EXPECT_EQ(im2col_box(kResnet56).lower_h, -1);
  EXPECT_EQ(im2col_box(kResnet56).upper_w, -1);
  EXPECT_FALSE(im2col_tma_fits(Shape{1, 7, 7, 8, 24, 3, 3, 0, 2, 1}));  // C = 8: the gather
}

// Stage 14d's tiles and split-k (CONV_NOTES.md): per ResNet-50 layer on 132 SMs.
TEST(ConvProblem, WgmmaTileAndWork) {
  EXPECT_EQ(wgmma_tile(kResnet56, 132).m, 128);
  EXPECT_EQ(wgmma_tile(kResnet56, 132).n, 64);
  EXPECT_EQ(wgmma_tile(Shape{32, 28, 28, 128, 128, 3, 3, 1, 1, 1}, 132).m, 256);  // 98 tiles: one wave
  EXPECT_EQ(wgmma_tile(Shape{32, 14, 14, 256, 256, 3, 3, 1, 1, 1}, 132).m, 64);   // 50 tall tiles: too few
  const Shape l4{32, 7, 7, 512, 512, 3, 3, 1, 1, 1};
  const ConvWork w = wgmma_work(l4, 132);
  EXPECT_EQ(w.tiles(), 100);
  EXPECT_EQ(w.splits, 2);
  EXPECT_EQ(w.blocks(), 200);
  // Blocks 2b and 2b + 1 are one cluster: the two halves of tile b's 72 k-tiles.
  EXPECT_EQ(w.block(6).m_tile, 3);
  EXPECT_EQ(w.block(6).k_end, 36);
  EXPECT_EQ(w.block(7).m_tile, 3);
  EXPECT_EQ(w.block(7).k_begin, 36);
  // Gathered (C = 96): 64 x 128 tiles, and split-k only with k-tiles to spare.
  EXPECT_EQ(wgmma_tile(Shape{3, 37, 41, 96, 100, 3, 3, 1, 2, 1}, 132).m, 64);
  EXPECT_EQ(wgmma_work(Shape{3, 37, 41, 96, 100, 3, 3, 1, 2, 1}, 132).splits, 1);
  // One tile with 36 k-tiles: two slices of 18 (a slice keeps at least 16).
  EXPECT_EQ(wgmma_work(Shape{1, 4, 4, 256, 72, 3, 3, 1, 1, 1}, 132).splits, 2);
  // gpu_check's clusters of 3: 3 tiles of 64 x 128, 54 k-tiles in slices of 18.
  const ConvWork three = wgmma_work(Shape{1, 12, 12, 384, 100, 3, 3, 1, 1, 1}, 132);
  EXPECT_EQ(three.tiles(), 3);
  EXPECT_EQ(three.splits, 3);
  EXPECT_EQ(three.block(5).n_tile * three.m_tiles + three.block(5).m_tile, 1);
  EXPECT_EQ(three.block(5).k_begin, 36);
}

// Whether the implicit im2col matrix is the input read as [M][C]: C columns, and every (row m,
// column kk) input element m * C + kk by the address function (row origin + tap step, CUTLASS's
// analytic iterator).
bool im2col_is_the_input(const Shape& sh) {
  if (sh.gemm_k() != sh.c) return false;
  for (long long m = 0; m < sh.gemm_m(); ++m)
    for (int kk = 0; kk < sh.gemm_k(); ++kk) {
      const RowOrigin o = row_origin(sh, m);
      const TapStep t = tap_step(sh, kk);
      if (!tap_in_tensor(sh, o, t) || o.base + t.delta != m * sh.c + kk) return false;
    }
  return true;
}

// Stage 14d loads A as the plain [N*H*W][C] matrix (a 2D TMA box) only where the address function
// says it is one, and wherever it says so with two or more output pixels an image (a single one, e.g.
// a 1x1 filter at stride 2 on a 1 x 2 image, reads a matrix too, which the rule leaves to the im2col
// box): generated small shapes around the rule's edges (1x1 or 3x3, stride 1 or 2, padding 0 or 1,
// any dilation).
TEST(ConvProblem, AIsTheInputMatrixExactlyWhereTheAddressFunctionSaysSo) {
  std::mt19937 rng(51);
  int matrices = 0, others = 0;
  for (int i = 0; i < 300; ++i) {
    const int r = rng() % 2 ? 1 : 3, stride = 1 + int(rng() % 2), pad = int(rng() % 2);
    const Shape sh{1 + int(rng() % 3), r + int(rng() % 6), r + int(rng() % 6), 64 * (1 + int(rng() % 2)),
                   8 + int(rng() % 64), r, r, pad, stride, 1 + int(rng() % 3)};
    if (check_problem(sh)) continue;
    const bool input = im2col_is_the_input(sh);
    if (a_is_matrix(sh) || sh.p() * sh.q() >= 2) {
      EXPECT_EQ(a_is_matrix(sh), input) << sh.n << "," << sh.h << "," << sh.w << "," << sh.c << " r " << r << " pad "
                                        << pad << " stride " << stride;
    }
    // C % 64 == 0: the TMA's boxes; the resident blocks keep the im2col ones.
    EXPECT_EQ(wgmma_work(sh, 132).a_matrix, a_is_matrix(sh) && wgmma_persistent_grid(sh, 132) == 0);
    (a_is_matrix(sh) ? matrices : others)++;
  }
  EXPECT_GT(matrices, 20);
  EXPECT_GT(others, 100);
  EXPECT_FALSE(wgmma_work(Shape{1, 7, 7, 8, 8, 1, 1, 0, 1, 1}, 132).a_matrix);  // C = 8: gathered
  // ResNet-50: the 1x1 layers at stride 1 on the plain launch (not the stem, the 3x3s, the
  // downsamples or the four on resident blocks).
  std::vector<std::string> matrix;
  for (const NetworkLayer& l : resnet50_layers(32))
    if (wgmma_work(l.shape, 132).a_matrix) matrix.push_back(l.name);
  EXPECT_EQ(matrix, (std::vector<std::string>{"conv2_x 1x1 reduce (block 1)", "conv2_x 1x1 reduce", "conv3_x 1x1 reduce",
                                              "conv4_x 1x1 reduce (block 1)", "conv4_x 1x1 reduce",
                                              "conv5_x 1x1 reduce (block 1)", "conv5_x 1x1 expand",
                                              "conv5_x 1x1 reduce"}));
  EXPECT_FALSE(wgmma_work(Shape{1, 130, 131, 64, 136, 1, 1, 0, 1, 1}, 132).a_matrix);  // resident: 534 tiles
}

// Which ResNet-50 layers (N = 32, 132 SMs) stages 14d / 14e launch as resident blocks: the 1x1
// layers with 64 x 128 tiles, more than 264 of them and at most 4 k-tiles (C <= 256).
TEST(ConvProblem, PersistentGridOnResnet50) {
  std::vector<std::string> resident;
  for (const NetworkLayer& l : resnet50_layers(32)) {
    const long long grid = wgmma_persistent_grid(l.shape, 132);
    if (grid == 0) continue;
    EXPECT_EQ(grid, 264) << l.name;
    EXPECT_GT(wgmma_work(l.shape, 132).blocks(), grid) << l.name;  // each block takes several tiles
    resident.push_back(l.name);
  }
  EXPECT_EQ(resident, (std::vector<std::string>{"conv2_x 1x1 expand", "conv3_x 1x1 reduce (block 1)",
                                                "conv3_x 1x1 expand", "conv3_x 1x1 downsample/2",
                                                "conv4_x 1x1 expand"}));
  // gpu_check's small resident case (kernels/tests/gpu_check.cpp): 267 x 2 ragged tiles, 1 k-tile.
  EXPECT_EQ(wgmma_persistent_grid(Shape{1, 130, 131, 64, 136, 1, 1, 0, 1, 1}, 132), 264);
  // Not where K is long (8 k-tiles), nor on the gathered path (C = 96).
  EXPECT_EQ(wgmma_persistent_grid(Shape{32, 28, 28, 512, 256, 1, 1, 0, 1, 1}, 132), 0);
  EXPECT_EQ(wgmma_persistent_grid(Shape{32, 56, 56, 96, 256, 1, 1, 0, 1, 1}, 132), 0);
}

TEST(ConvProblem, TileChoice) {
  // ResNet-50's 3x3 layers at N = 32 on an H100 (132 SMs): see choose_tile.
  EXPECT_EQ(choose_tile(kResnet56, 132), 1);  // 128x64: 784 blocks
  EXPECT_EQ(tile_blocks(kResnet56, kTiles[1]), 784);
  const Shape l4{32, 7, 7, 512, 512, 3, 3, 1, 1, 1};
  EXPECT_EQ(choose_tile(l4, 132), 2);  // 64x128: 100 blocks, one wave
  EXPECT_EQ(tile_blocks(l4, kTiles[2]), 100);
  EXPECT_EQ(choose_tile(l4, 264), 3);  // twice the SMs: 64x64, 200 blocks
  // A 1x1 expand layer (K = 256) at 56x56 has blocks to spare: 128x128 (1568 blocks).
  EXPECT_EQ(choose_tile(Shape{32, 56, 56, 64, 256, 1, 1, 0, 1, 1}, 132), 0);
  EXPECT_EQ(choose_tile(Shape{1, 7, 7, 8, 24, 3, 3, 0, 2, 1}, 132), 1);
}

}  // namespace
