// What the exercise panel draws beside the stage's version comes from the simulator: checked
// against the layouts and maps it stands for.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "exercise_pictures.h"

namespace gemmlab::exercise {
namespace {

ValueTable table(long long points, int per_point, const std::function<long long(long long, int)>& f) {
  ValueTable t{points, per_point, {}};
  for (long long p = 0; p < points; ++p)
    for (int i = 0; i < per_point; ++i) t.values.push_back(f(p, i));
  return t;
}

TEST(ExercisePictures, StageSwizzleSpreadsTheEightRowsOverTheBanks) {
  const auto s = ldsm_matrix_banks_stage();
  ASSERT_TRUE(s.ok);
  // Swizzle<3,3,3>: row r starts in chunk 4 (r % 2) ^ ... -> banks 0, 16, 4, 20, 8, 24, 12, 28.
  EXPECT_EQ(s.first_bank, (std::array<int, 8>{0, 16, 4, 20, 8, 24, 12, 28}));
  EXPECT_EQ(s.matrix_wavefronts, 1);
  EXPECT_EQ(s.x4_wavefronts, 4);
}

TEST(ExercisePictures, RowMajorPutsEvenRowsInBankZero) {
  const auto r = ldsm_matrix_banks(table(4096, 1, [](long long p, int) { return p; }));
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.first_bank, (std::array<int, 8>{0, 16, 0, 16, 0, 16, 0, 16}));
  EXPECT_EQ(r.matrix_wavefronts, 4);
  EXPECT_EQ(r.x4_wavefronts, 16);
  EXPECT_FALSE(ldsm_matrix_banks(table(10, 1, [](long long p, int) { return p; })).ok);
}

TEST(ExercisePictures, StripminedWarpReadsOneRowOfThirtyTwo) {
  const auto s = warp_access_picture_stripmined();
  ASSERT_EQ(s.elements.size(), 32u);
  EXPECT_EQ(s.elements.front(), 0);
  EXPECT_EQ(s.elements.back(), 31);
  EXPECT_EQ(s.sectors, 4);
  // Thread t on a column: lanes walk s first -> 8 rows x 4 columns, 8 sectors.
  const auto col = warp_access_picture(table(1024, 1, [](long long p, int) {
    const long long t = p / 4, a = p % 4;
    return (t % 8) * 128 + t / 8 + 32 * a;
  }));
  EXPECT_EQ(col.sectors, 8);
}

TEST(ExercisePictures, FirstWaveOfTheStagesOrderIsOneSlotPerTile) {
  const auto s = first_wave_picture_stage();
  EXPECT_EQ(s.tiles_m, 256);
  EXPECT_EQ(s.tiles_n, 8);
  ASSERT_FALSE(s.tiles.empty());
  EXPECT_EQ(std::set<long long>(s.tiles.begin(), s.tiles.end()).size(), s.tiles.size());
  // Launch order (m fastest): the first wave is the first tiles of n column 0.
  const auto launch = first_wave_picture(table(2048, 2, [](long long b, int i) { return i == 0 ? b % 256 : b / 256; }));
  ASSERT_EQ(launch.tiles.size(), s.tiles.size());
  EXPECT_EQ(launch.tiles[1], 1 * 8 + 0);
}


// The stub's address: no stride, no padding (h = p + r, w = q + s), NHWC 2 x 7 x 7 x 8.
long long im2col_no_stride(long long point) {
  const long long row = point / 72, col = point % 72;
  const long long n = row / 16, p = row / 4 % 4, q = row % 4, r = col / 24, s = col / 8 % 3, c = col % 8;
  return ((n * 7 + p + r) * 7 + q + s) * 8 + c;
}

TEST(ExercisePictures, TheConvolutionsWindowOfRowZeroHangsIntoThePadding) {
  const auto c = im2col_picture_conv(0);
  EXPECT_EQ(c.image_h, 7);
  EXPECT_EQ(c.rows * c.cols, 32 * 72);
  ASSERT_EQ(c.taps.size(), 9u);
  // Pixel (0, 0, 0), stride 2, pad 1: the window is h, w = -1 .. 1; r = 0 or s = 0 is padding.
  int padding = 0;
  for (const auto& t : c.taps) {
    EXPECT_EQ(t.h, t.r - 1);
    EXPECT_EQ(t.w, t.s - 1);
    padding += t.padding;
  }
  EXPECT_EQ(padding, 5);
  // Per image, p = 0 and p = 3 lose one filter row each (same for q): (2+3+3+2)^2 = 100 of the
  // 144 taps inside, so 2 images x 44 taps x 8 channels read the padding.
  EXPECT_EQ(std::count(c.cells.begin(), c.cells.end(), Im2colCell::Padding), 704);
  EXPECT_EQ(std::count(c.cells.begin(), c.cells.end(), Im2colCell::Wrong), 0);
}

TEST(ExercisePictures, TheStubsWindowStartsAtTheCornerWithoutStride) {
  const auto l = im2col_picture(table(32 * 72, 1, [](long long p, int) { return im2col_no_stride(p); }));
  EXPECT_EQ(l.row, 0);
  ASSERT_EQ(l.taps.size(), 9u);
  for (const auto& t : l.taps) {
    EXPECT_TRUE(t.placed);
    EXPECT_FALSE(t.padding);
    EXPECT_EQ(t.h, t.r);  // the convolution's is r - 1: every tap wrong
    EXPECT_EQ(t.w, t.s);
    EXPECT_FALSE(t.right);
  }
  // Right only where p * 2 - 1 == p and q * 2 - 1 == q: pixel (1, 1) of each image, all 72 columns.
  EXPECT_EQ(l.wrong, 32 * 72 - 2 * 72);
  EXPECT_EQ(l.cells[static_cast<size_t>(5 * 72 + 40)], Im2colCell::Right);
  // Everything -1: the five padding taps of row 0 are right, the four inside wrong.
  const auto pad = im2col_picture(table(32 * 72, 1, [](long long, int) { return -1; }));
  int right = 0;
  for (const auto& t : pad.taps) right += t.right && t.padding;
  EXPECT_EQ(right, 5);
  EXPECT_TRUE(im2col_picture(table(5, 1, [](long long, int) { return 0; })).cells.empty());
}

TEST(ExercisePictures, StageFifteensBoxesWalkAlongK) {
  const auto s = tma_box_picture_stage(1, 1);
  ASSERT_EQ(s.a.boxes.size(), 8u);
  ASSERT_EQ(s.b.boxes.size(), 8u);
  EXPECT_EQ(s.a.dims[0], 512);
  EXPECT_EQ(s.a.box[0], 64);
  EXPECT_EQ(s.a.box[1], 128);
  EXPECT_EQ(s.b.box[1], 256);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(s.a.boxes[static_cast<size_t>(k)].inner, 64 * k);
    EXPECT_EQ(s.a.boxes[static_cast<size_t>(k)].outer, 128);
    EXPECT_EQ(s.a.boxes[static_cast<size_t>(k)].in_bounds, 64 * 128);
    EXPECT_EQ(s.b.boxes[static_cast<size_t>(k)].outer, 256);
    EXPECT_EQ(s.b.boxes[static_cast<size_t>(k)].in_bounds, 64 * 256);
  }
}

// The tma-box table's point p is (operand, m_block, n_block, k_tile), k fastest: 2 x 4 x 2 x 8.
TEST(ExercisePictures, TheLearnersBoxesGoWhereTheCoordinatesSay) {
  // The stub counts in tiles: block (0, 0) is the first wrong, its boxes piled at k 0..7.
  const auto stub = tma_box_picture(table(128, 2, [](long long p, int i) {
    const long long k = p % 8, n = p / 8 % 2, m = p / 16 % 4, op = p / 64;
    return i == 0 ? k : (op == 0 ? m : n);
  }));
  EXPECT_EQ(stub.m_block, 0);
  EXPECT_EQ(stub.n_block, 0);
  ASSERT_EQ(stub.a.boxes.size(), 8u);
  EXPECT_TRUE(stub.a.boxes[0].right);
  EXPECT_FALSE(stub.a.boxes[3].right);
  EXPECT_EQ(stub.a.boxes[3].inner, 3);
  // Half a box too far along K: the last box hangs 32 columns past the tensor (zeros).
  const auto far = tma_box_picture(table(128, 2, [](long long p, int i) {
    const long long k = p % 8, n = p / 8 % 2, m = p / 16 % 4, op = p / 64;
    return i == 0 ? 64 * k + 32 : (op == 0 ? 128 * m : 256 * n);
  }));
  EXPECT_EQ(far.a.boxes[7].inner, 480);
  EXPECT_EQ(far.a.boxes[7].in_bounds, 32 * 128);
  EXPECT_EQ(far.b.boxes[7].in_bounds, 32 * 256);
  // All right: the block in the middle, each box the stage's.
  const auto ref = tma_box_picture(table(128, 2, [](long long p, int i) {
    const long long k = p % 8, n = p / 8 % 2, m = p / 16 % 4, op = p / 64;
    return i == 0 ? 64 * k : (op == 0 ? 128 * m : 256 * n);
  }));
  EXPECT_EQ(ref.m_block, 1);
  EXPECT_EQ(ref.n_block, 1);
  for (const auto& b : ref.b.boxes) EXPECT_TRUE(b.right);
}

// (stages, k_tile) -> point of the mbarrier table: stages 2..8, 32 k-tiles each.
ValueTable parity_table(const std::function<int(int k, int s)>& full, const std::function<int(int k, int s)>& empty) {
  return table(7 * 32, 2, [&](long long p, int i) {
    const int s = static_cast<int>(p / 32) + 2, k = static_cast<int>(p % 32);
    return static_cast<long long>(i == 0 ? full(k, s) : empty(k, s));
  });
}

TEST(ExercisePictures, TheStubsPlanRacesAtKTileTwoOfTheTwoStageRing) {
  const auto p = parity_plan_picture(parity_table([](int, int) { return 0; }, [](int, int) { return 1; }));
  EXPECT_EQ(p.stages, 2);
  EXPECT_EQ(p.verdict, ParityPlanPicture::Verdict::Race);
  EXPECT_EQ(p.failed_k, 2);
  EXPECT_EQ(p.first_k, 0);
  EXPECT_EQ(p.full, std::vector<int>(8, 0));
  EXPECT_EQ(p.empty, std::vector<int>(8, 1));
  // The pipeline simulator's trace of warp-specialized:2: full flips every 2 k-tiles, empty is
  // the other parity one round later and not waited on in the first round.
  EXPECT_EQ(p.stage_full, (std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(p.stage_empty, (std::vector<int>{-1, -1, 0, 0, 1, 1, 0, 0}));
}

TEST(ExercisePictures, AHoldingPlanShowsThreeStagesAndAWaitingProducerDeadlocks) {
  const auto ok = parity_plan_picture(parity_table([](int k, int s) { return (k / s) & 1; },
                                                   [](int k, int s) { return ((k / s) & 1) ^ 1; }));
  EXPECT_EQ(ok.stages, 3);
  EXPECT_EQ(ok.verdict, ParityPlanPicture::Verdict::Ok);
  EXPECT_EQ(ok.failed_k, -1);
  EXPECT_EQ(ok.full, ok.stage_full);
  EXPECT_EQ(ok.empty, (std::vector<int>{1, 1, 1, 0, 0, 0, 1, 1}));
  EXPECT_EQ(ok.stage_empty, (std::vector<int>{-1, -1, -1, 0, 0, 0, 1, 1}));
  // The producer waits for parity 0 on a fresh empty[0]: nothing ever completes that phase.
  const auto dead = parity_plan_picture(parity_table([](int k, int s) { return (k / s) & 1; },
                                                     [](int k, int s) { return (k / s) & 1; }));
  EXPECT_EQ(dead.stages, 2);
  EXPECT_EQ(dead.verdict, ParityPlanPicture::Verdict::Deadlock);
  EXPECT_EQ(dead.failed_k, 0);
  // One wrong empty parity at k-tile 20: the window moves to show it.
  const auto late = parity_plan_picture(parity_table([](int k, int s) { return (k / s) & 1; },
                                                     [](int k, int s) { return (((k / s) & 1) ^ 1) ^ (k == 20); }));
  EXPECT_EQ(late.stages, 2);
  EXPECT_EQ(late.failed_k, 20);
  EXPECT_EQ(late.verdict, ParityPlanPicture::Verdict::Race);
  EXPECT_EQ(late.first_k, 15);
  EXPECT_EQ(late.empty[5], 0);
}

}  // namespace
}  // namespace gemmlab::exercise
