// Exercise 09-swizzle/smem-offset: the shipped reference passes, the stub fails on the ldmatrix
// phase, and each rule's failure names the elements that break it.
#include <gtest/gtest.h>

#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::exercise {
namespace {

HostVerdict judge(const std::string& source) {
  const auto g = grade_on_host(*find_grader("smem-offset"), source);
  EXPECT_EQ(g.stage, HostGrade::Stage::Evaluate) << g.verdict.reason << g.compiler_output;
  return g.verdict;
}

TEST(SmemOffset, ReferencePasses) {
  const auto ex = find_exercise(GEMMLAB_COURSE_DIR, "09-swizzle/smem-offset");
  ASSERT_TRUE(ex) << ex.error();
  const auto v = judge(ex->reference);
  EXPECT_TRUE(v.pass) << v.reason;
  EXPECT_EQ(v.passed.size(), 5u);
}

TEST(SmemOffset, StubFailsOnTheLdmatrixPhase) {
  const auto ex = find_exercise(GEMMLAB_COURSE_DIR, "09-swizzle/smem-offset");
  ASSERT_TRUE(ex) << ex.error();
  const auto v = judge(ex->stub);
  EXPECT_FALSE(v.pass);
  // Row-major: rows 0, 2, 4, 6 of matrix 0 start at bytes 0, 128, 256, 384, all bank 0.
  EXPECT_EQ(v.reason, "rows 0, 2, 4 and 6 of the ldmatrix phase (matrix 0 of the ldmatrix.x4 of A rows 0-15 at k 0) "
                      "hit bank 0: 4 wavefronts where 1 is possible (16 for the .x4 where 4 are)")
      << v.reason;
  EXPECT_EQ(v.passed.size(), 4u);  // the stores of the raked thread map are conflict-free row-major
}

TEST(SmemOffset, CollisionNamesBothElements) {
  // Rows 3 and 11 land on each other: the offset ignores bit 3 of the row.
  const auto v = judge("int smem_offset(int row, int k) { return ((row & ~8) * 32 + k) ^ ((row & 8) ? 0 : 0); }\n");
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "offsets of rows 0 and 8 collide: (row 0, k 0) and (row 8, k 0) both go to offset 0");
}

TEST(SmemOffset, AVectorThatIsNotContiguous) {
  // A bijection that reverses k inside each vector.
  const auto v = judge("int smem_offset(int row, int k) { return row * 32 + (k & ~7) + (7 - (k & 7)); }\n");
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason, "the 16-byte vector of row 0 at k 0 starts at half 7, not at a multiple of 8: "
                      "a 16-byte store needs 16-byte alignment");
}

TEST(SmemOffset, AVectorSwizzledAtHalfGranularity) {
  // XOR into bits 0-2: a bijection, aligned starts for row 0, but halves move inside vectors.
  const auto v = judge("int smem_offset(int row, int k) { int l = row * 32 + k; return l ^ ((l >> 6) & 7); }\n");
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason.rfind("the 16-byte vector of row 2 at k 0 starts at half 65", 0), 0u) << v.reason;
}

TEST(SmemOffset, StoresThatConflict) {
  // Column-major chunks: vector (row, k/8) at chunk index (k/8) * 128 + row. A bijection of whole
  // vectors, but the raked stores (4 lanes along k per row) land 2 KB apart: same banks.
  const auto v = judge("int smem_offset(int row, int k) { return ((k / 8) * 128 + row) * 8 + k % 8; }\n");
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.reason.rfind("the 16-byte stores (STS.128) of warp 0, access 0: lanes 0 (row 0, k 0) and 1 (row 0, k 8) "
                           "hit bank 0 in one quarter-warp phase", 0), 0u)
      << v.reason;
}

}  // namespace
}  // namespace gemmlab::exercise
