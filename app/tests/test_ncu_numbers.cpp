// Numbers from Nsight Compute CSVs as a hostile or odd export gives them: each refused or clamped
// with no exception and no overflow (issue 15's examples: a block of (99999999999, 1, 1), an
// "MxNxK" preamble past int, (65536, 65536, 1) whose product overflows int, "nan", "inf", 1e300).
#include <gtest/gtest.h>

#include "model/ncu_csv.h"
#include "model/ncu_numbers.h"

using namespace gemmlab;
using namespace gemmlab::app;

TEST(NcuNumbers, Dim3ReadsLaunchShapesAndRefusesTheRest) {
  ASSERT_TRUE(parse_ncu_dim3("(32, 32, 1)"));
  EXPECT_EQ(*parse_ncu_dim3("(32, 32, 1)"), (Dim3{32, 32, 1}));
  EXPECT_EQ(*parse_ncu_dim3("(2147483647,1,1)"), (Dim3{2147483647, 1, 1}));
  EXPECT_FALSE(parse_ncu_dim3("(99999999999, 1, 1)"));
  EXPECT_FALSE(parse_ncu_dim3("(2147483648, 1, 1)"));
  EXPECT_FALSE(parse_ncu_dim3("(0, 1, 1)"));
  EXPECT_FALSE(parse_ncu_dim3("(-1, 1, 1)"));
  EXPECT_FALSE(parse_ncu_dim3("(1, 1)"));
  EXPECT_FALSE(parse_ncu_dim3(std::string(1000, '(')));
}

TEST(NcuNumbers, BlockThreadsWithinCudasLimit) {
  EXPECT_EQ(ncu_block_threads("(256, 1, 1)"), 256);
  EXPECT_EQ(ncu_block_threads("(32, 32, 1)"), 1024);
  EXPECT_FALSE(ncu_block_threads("(65536, 65536, 1)"));  // 2^32 threads: no int overflow, refused
  EXPECT_FALSE(ncu_block_threads("(2147483647, 2147483647, 2147483647)"));
  EXPECT_FALSE(ncu_block_threads("(1025, 1, 1)"));
}

TEST(NcuNumbers, ProblemLineClampsEveryExtent) {
  const auto p = problem_in_line("gemmlab bench 4096x2048x512 (check)", 1 << 20);
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, (GemmCoord{4096, 2048, 512}));
  const auto big = problem_in_line("99999999999999999999999x5x0", 1 << 20);
  ASSERT_TRUE(big);
  EXPECT_EQ(*big, (GemmCoord{1 << 20, 5, 1}));
  EXPECT_FALSE(problem_in_line("no size here", 1 << 20));
}

TEST(NcuNumbers, CounterValuesAreFiniteAndBounded) {
  EXPECT_EQ(parse_ncu_number("1,234.5"), 1234.5);
  EXPECT_EQ(parse_ncu_number("9007199254740992"), 9007199254740992.0);
  EXPECT_FALSE(parse_ncu_number("nan"));
  EXPECT_FALSE(parse_ncu_number("inf"));
  EXPECT_FALSE(parse_ncu_number("-inf"));
  EXPECT_FALSE(parse_ncu_number("1e300"));
  EXPECT_FALSE(parse_ncu_number("n/a"));
}
