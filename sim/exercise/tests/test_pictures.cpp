// What the exercise panel draws beside the stage's version comes from the simulator: checked
// against the layouts and maps it stands for.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gemmlab::exercise
