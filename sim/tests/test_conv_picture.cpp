// The Conv view's numbers (gemmlab/conv_picture.h) against the address function itself.
#include <gtest/gtest.h>

#include <set>

#include "gemmlab/conv_picture.h"

using namespace gemmlab::conv;

namespace {

constexpr Shape kResnet56{32, 56, 56, 64, 64, 3, 3, 1, 1, 1};

TEST(ConvPicture, WindowOfACornerPixel) {
  const auto cells = window_of(kResnet56, 0);  // output (0, 0, 0): the top-left corner
  ASSERT_EQ(cells.size(), 9u);
  int inside = 0;
  for (const WindowCell& c : cells) inside += c.in_tensor;
  EXPECT_EQ(inside, 4);  // row r = 0 and column s = 0 of the window lie in the padding
  EXPECT_EQ(cells[0].h, -1);
  EXPECT_EQ(cells[0].w, -1);
  EXPECT_EQ(cells[8].h, 1);
  EXPECT_EQ(cells[8].w, 1);
  EXPECT_TRUE(cells[8].in_tensor);
}

TEST(ConvPicture, TileLoadsFollowTheThreadMap) {
  TileLoadRequest q;
  q.shape = kResnet56;
  auto l = tile_loads(q);
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(l->tile, 1);  // 128x64, 128 threads
  EXPECT_EQ(l->threads, 128);
  EXPECT_EQ(l->accesses_per_thread, 4);  // 128 rows x 4 vectors / 128 threads
  EXPECT_EQ(l->k_tiles, 18);             // 576 / 32
  ASSERT_EQ(l->loads.size(), 512u);
  // Thread 5 = warp 0, lane 5 of the 4x8 warp arrangement: vector 1 (k 8) of row 1.
  const TileLoad& t5 = l->loads[5 * 4];
  EXPECT_EQ(t5.row_in_tile, 1);
  EXPECT_EQ(t5.k_in_tile, 8);
  EXPECT_EQ(t5.kk, 8);
  EXPECT_FALSE(t5.in_tensor);  // tap (0, 0) of pixel (0, 0, 1): h = -1
  // Every (row, vector) of the 128 x 4 tile exactly once.
  std::set<std::pair<int, int>> seen;
  for (const TileLoad& x : l->loads) EXPECT_TRUE(seen.insert({x.row_in_tile, x.k_in_tile}).second);
  EXPECT_EQ(seen.size(), 512u);
  // k-tile 8 = kk 256 .. 287 = tap (1, 1), channels 0 .. 31: thread 5 reads input (0, 0, 1, 8).
  q.k_tile = 8;
  auto l8 = tile_loads(q);
  ASSERT_TRUE(l8.ok());
  const TileLoad& u = l8->loads[5 * 4];
  EXPECT_EQ(u.kk, 264);
  EXPECT_TRUE(u.in_tensor);
  EXPECT_EQ(u.input.h, 0);
  EXPECT_EQ(u.input.w, 1);
  EXPECT_EQ(u.input.c, 8);
  EXPECT_EQ(u.offset, 72);  // (0*56 + 1)*64 + 8
  // Every vector read agrees with the direct address function.
  for (const TileLoad& x : l8->loads) {
    const Nhwc in = input_of(kResnet56, row_pixel(kResnet56, x.m), k_tap(kResnet56, x.kk));
    EXPECT_EQ(x.in_tensor, in_tensor(kResnet56, in));
    if (x.in_tensor) {
      EXPECT_EQ(x.offset, activation_offset(kResnet56, in));
    }
  }
}

// A shape the TMA copy cannot take is refused naming the stages by their registry numbers.
TEST(ConvPicture, TmaBoxRefusalsNameTheStagesByNumber) {
  TileLoadRequest q;
  q.shape = Shape{2, 7, 7, 32, 128, 3, 3, 1, 1, 1};  // C 32: not a multiple of 64
  q.tma_box = true;
  auto l = tile_loads(q);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().find("stage 14d loads A with TMA im2col boxes"), std::string::npos) << l.error();
  EXPECT_NE(l.error().find("like stage 14a"), std::string::npos) << l.error();
  q.shape.c = 64;
  q.element = Element::S8;
  auto s8 = tile_loads(q);
  ASSERT_FALSE(s8.ok());
  EXPECT_NE(s8.error().find("stage 14d's copy: fp16 only"), std::string::npos) << s8.error();
}

// A 1x1 layer at stride 1: the box is a 2D one of the input's rows, row i = input row m0 + i.
TEST(ConvPicture, OneByOneBoxIsTheInputsRows) {
  TileLoadRequest q;
  q.shape = Shape{2, 7, 7, 128, 256, 1, 1, 0, 1, 1};  // M = 98, K = 256: 64 x 128 tiles
  q.tma_box = true;
  q.block_m = 1;
  q.k_tile = 1;  // channels 64 .. 127
  auto l = tile_loads(q);
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_TRUE(l->matrix_box);
  EXPECT_EQ(l->k_tiles, 2);
  for (const TileLoad& x : l->loads) {
    if (x.in_tensor) {
      EXPECT_EQ(x.offset, (64 + x.row_in_tile) * 128 + 64) << x.row_in_tile;
    }
  }
  EXPECT_EQ(l->loads[33].offset, (64 + 33) * 128 + 64);  // the last row of image 1
  EXPECT_FALSE(l->loads[34].row_valid);                   // past M = 98: zero-filled
  q.shape.stride = 2;  // the downsample: every other pixel (M = 32, one tile)
  q.block_m = 0;
  auto strided = tile_loads(q);
  ASSERT_TRUE(strided.ok()) << strided.error();
  EXPECT_FALSE(strided->matrix_box);
}

// Stage 14d's copy: one TMA im2col box per k-tile, a row per output pixel, 64 channels.
TEST(ConvPicture, TmaBoxRowsAreTheTilesPixels) {
  TileLoadRequest q;
  q.shape = Shape{2, 7, 7, 64, 128, 3, 3, 1, 1, 1};  // M = 98: 64-row tiles (K = 128), 2 along M
  q.tma_box = true;
  q.block_m = 1;
  q.k_tile = 4;  // tap (1, 1): the window's centre
  auto l = tile_loads(q);
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(l->tile, -1);
  EXPECT_EQ(l->rows, 64);
  EXPECT_EQ(l->threads, 1);
  EXPECT_EQ(l->k_tiles, 9);
  ASSERT_EQ(l->loads.size(), 64u);
  // Row 0 = GEMM row 64 = image 1, output (2, 1): the centre tap reads input (1, 2, 1).
  EXPECT_EQ(l->loads[0].input.n, 1);
  EXPECT_EQ(l->loads[0].input.h, 2);
  EXPECT_EQ(l->loads[0].input.w, 1);
  // Rows 34 .. 63 are past M = 98: the box walks into image 2, which does not exist (zeros).
  EXPECT_TRUE(l->loads[33].row_valid);
  EXPECT_FALSE(l->loads[34].row_valid);
  EXPECT_FALSE(l->loads[34].in_tensor);
  EXPECT_EQ(l->loads[34].input.n, 2);
  for (const TileLoad& x : l->loads) {
    if (!x.row_valid) continue;
    const Nhwc in = input_of(q.shape, row_pixel(q.shape, x.m), k_tap(q.shape, x.kk));
    EXPECT_EQ(x.in_tensor, in_tensor(q.shape, in)) << x.m;
    EXPECT_EQ(x.input.h, in.h);
    EXPECT_EQ(x.input.w, in.w);
    if (x.in_tensor) {
      EXPECT_EQ(x.offset, activation_offset(q.shape, in));
    }
  }
  // Tap (0, 0) puts the top row and the left column of each image in the padding.
  q.k_tile = 0;
  q.block_m = 0;
  auto l0 = tile_loads(q);
  ASSERT_TRUE(l0.ok());
  EXPECT_FALSE(l0->loads[0].in_tensor);  // output (0, 0): input (-1, -1)
  EXPECT_FALSE(l0->loads[7].in_tensor);  // output (1, 0): input (0, -1)
  EXPECT_TRUE(l0->loads[8].in_tensor);   // output (1, 1): input (0, 0)
  // What the box cannot do is named.
  q.shape.c = 32;
  auto refused = tile_loads(q);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("multiple of 64"), std::string::npos) << refused.error();
  q.shape.c = 64;
  q.element = Element::S8;
  EXPECT_FALSE(tile_loads(q).ok());
}

TEST(ConvPicture, Int4VectorsHold32Channels) {
  TileLoadRequest q;
  q.shape = Shape{1, 14, 14, 256, 256, 3, 3, 1, 1, 1};
  q.element = Element::S4;
  q.tile = 2;  // 64x128: 64 rows of the A tile, 128 threads
  auto l = tile_loads(q);
  ASSERT_TRUE(l.ok()) << l.error();
  EXPECT_EQ(l->elements_per_vector, 32);
  EXPECT_EQ(l->k_tile_elements, 128);     // 64 bytes of int4
  EXPECT_EQ(l->k_tiles, 18);              // 2304 / 128
  EXPECT_EQ(l->accesses_per_thread, 2);   // 64 rows x 4 vectors / 128 threads
  EXPECT_EQ(l->loads[1 * 2].k_in_tile, 32);  // lane 1: the second vector of its row
}

TEST(ConvPicture, RefusesWhatTheLaunchDoesNotHave) {
  TileLoadRequest q;
  q.shape = kResnet56;
  q.block_m = 784;  // 100352 / 128 blocks: 0 .. 783
  EXPECT_FALSE(tile_loads(q).ok());
  q.block_m = 0;
  q.k_tile = 18;
  EXPECT_FALSE(tile_loads(q).ok());
  q.k_tile = 0;
  q.shape.c = 12;
  EXPECT_EQ(tile_loads(q).error(), "C must be a multiple of 8 for 16-byte fp16 loads");
}

TEST(ConvPicture, ReadersOfAnInputPixel) {
  // Input (0, 1, 1) of a 3x3 pad-1 layer is read by the 9 output pixels around it, each with one tap;
  // rows 0 .. 127 hold output rows p = 0, 1 and part of 2 (56 pixels per row).
  const auto r = readers_of(kResnet56, 0, 128, 0, 1, 1);
  EXPECT_EQ(r.size(), 9u);
  for (const RowTap& x : r) {
    const Npq o = row_pixel(kResnet56, x.m);
    EXPECT_EQ(o.p - 1 + x.r, 1);
    EXPECT_EQ(o.q - 1 + x.s, 1);
  }
  EXPECT_TRUE(readers_of(kResnet56, 0, 128, 1, 1, 1).empty());  // another image
}

}  // namespace
