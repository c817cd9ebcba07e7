// Lesson 5's picture of the SIMT block (gemmlab/simt_block_picture.h): every accumulator of the
// 128 x 128 tile has one owner, each thread owns 64, warps own their 32 x 64 tiles, and the
// numbers the header and lesson 5 quote.
#include <gtest/gtest.h>

#include <map>

#include "gemmlab/simt_block_picture.h"

using namespace gemmlab;

TEST(SimtBlockPicture, EachThreadOwnsSixtyFourAccumulatorsInItsWarpTile) {
  const SimtBlockPicture p = simt_block_picture();
  ASSERT_EQ(p.rows, 128);
  ASSERT_EQ(p.cols, 128);
  std::map<int, int> count;
  for (int m = 0; m < p.rows; ++m)
    for (int n = 0; n < p.cols; ++n) {
      const int t = p.owner(m, n);
      ASSERT_GE(t, 0) << m << "," << n;
      ++count[t];
      // Warp w holds warp tile (w % 4, w / 4) of 32 x 64.
      EXPECT_EQ(t / 32, (m / p.warp_m) + 4 * (n / p.warp_n)) << m << "," << n;
    }
  EXPECT_EQ(count.size(), 256u);
  for (const auto& [t, c] : count) EXPECT_EQ(c, 64) << "thread " << t;
}

TEST(SimtBlockPicture, TheLanesBlocksAreSixteenRowsAndThirtyTwoColumnsApart) {
  const SimtBlockPicture p = simt_block_picture();
  // Thread 37 = warp 1 (rows 32..63), lane 5 -> lane grid (m 1, n 2): rows 36..39 and 52..55,
  // columns 8..11 and 40..43.
  for (int m : {36, 39, 52, 55})
    for (int n : {8, 11, 40, 43}) EXPECT_EQ(p.owner(m, n), 37) << m << "," << n;
  EXPECT_NE(p.owner(40, 8), 37);
  EXPECT_NE(p.owner(36, 12), 37);
  // Lane 0 and lane 1 of warp 0 (RowMajorInterleaved<2>): the same columns, rows 4 apart.
  EXPECT_EQ(p.owner(0, 0), 0);
  EXPECT_EQ(p.owner(4, 0), 1);
  EXPECT_EQ(p.owner(0, 4), 2);
  // The last thread: warp 7, lane 31 at (96 + 12, 64 + 28).
  EXPECT_EQ(p.owner(108, 92), 255);
}
