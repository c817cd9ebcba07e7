// The gemmlab CLI's top level: help and usage errors, for every sim command.
#include <gtest/gtest.h>

#include "support.h"

using gemmlab::test::run_gemmlab;

TEST(Cli, TopLevelHelpListsTheCommands) {
  auto r = run_gemmlab({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd : {"gemmlab sim", "gemmlab bench", "gemmlab shot", "gemmlab lessons"})
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, EverySimCommandHasHelp) {
  for (const char* cmd :
       {"threadmap", "layout", "swizzle", "banks", "fragment", "raster", "schedule", "l2",
        "pipeline", "conv"}) {
    auto r = run_gemmlab({"sim", cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    EXPECT_NE(r.out.find(std::string("gemmlab sim ") + cmd + " --"), std::string::npos) << r.out;
  }
}

TEST(Cli, SimWithoutCommandIsAUsageError) {
  auto r = run_gemmlab({"sim"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage: gemmlab sim"), std::string::npos);
  EXPECT_TRUE(r.out.empty());
}

TEST(Cli, OptionWithoutValueIsAnError) {
  auto r = run_gemmlab({"sim", "swizzle", "--bits"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--bits needs a value"), std::string::npos) << r.err;
}

// Integers are decimal and range-checked before they reach the model (issue 15): no silent
// narrowing (2^32 + 128 was taken as 128), no octal (010 was 8), no overflowing product.
TEST(Cli, IntegersAreDecimalAndInRange) {
  auto r = run_gemmlab({"sim", "threadmap", "--map", "warp-raked", "--shape", "4294967424,8", "--threads", "256",
                        "--warp-arrangement", "4,8", "--access", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--shape must be 1..4194304 (got 4294967424)"), std::string::npos) << r.err;
  r = run_gemmlab({"sim", "threadmap", "--map", "warp-raked", "--shape", "64,8", "--threads", "256",
                   "--warp-arrangement", "2147483647,4", "--access", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--warp-arrangement must be 1..32"), std::string::npos) << r.err;
  r = run_gemmlab({"sim", "threadmap", "--map", "stripmined", "--shape", "010,8", "--threads", "010"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // ten threads over a ten-wide tile, one vector each
  EXPECT_NE(r.out.find("[8,0],[9,0]]"), std::string::npos) << r.out;
  r = run_gemmlab({"sim", "threadmap", "--map", "stripmined", "--shape", "0128,8", "--threads", "0256", "--access", "04"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"iterations\":[1,1]"), std::string::npos) << r.out;  // (128,8), 256 threads, 4 per access
  r = run_gemmlab({"sim", "threadmap", "--map", "stripmined", "--shape", "128,8", "--threads", "0x100"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'0x100' is not an integer"), std::string::npos) << r.err;
}

// gemmlab sim conv: the implicit GEMM of a convolution and where one element of A comes from.
TEST(Cli, ConvGivesTheGemmAndTheAddress) {
  auto r = run_gemmlab({"sim", "conv", "--problem", "32,56,56,64,64,3,3,1,1", "--row", "57", "--col", "64", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"gemm\":[100352,64,576]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"output\":[56,56]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"npq\":[0,1,1]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"rsc\":[0,1,0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"input\":[0,0,1,0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"blocks\":784"), std::string::npos) << r.out;
  // Row 0, k 0 of a padded layer: the window's corner is padding.
  auto pad = run_gemmlab({"sim", "conv", "--problem", "1,8,8,8,8,3,3,1,1", "--row", "0", "--col", "0", "--json"});
  ASSERT_EQ(pad.exit_code, 0) << pad.err;
  EXPECT_NE(pad.out.find("\"input\":null"), std::string::npos) << pad.out;
  EXPECT_NE(pad.out.find("\"padding_at\":[0,-1,-1,0]"), std::string::npos) << pad.out;
  // A shape the kernels refuse, and an element outside the GEMM, are errors that say why.
  auto odd = run_gemmlab({"sim", "conv", "--problem", "1,8,8,12,8,3,3,1,1"});
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_NE(odd.err.find("C must be a multiple of 8"), std::string::npos) << odd.err;
  auto far = run_gemmlab({"sim", "conv", "--problem", "1,8,8,8,8,3,3,1,1", "--row", "64", "--col", "0"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_NE(far.err.find("outside the GEMM's 64 rows"), std::string::npos) << far.err;
}

// An option given twice is an error (some commands took the first, some the last; the app's
// commands: app_test_lessons_cli).
TEST(Cli, RepeatedOptionIsAnError) {
  auto r = run_gemmlab({"sim", "swizzle", "--bits", "3", "--bits", "2", "--base", "3", "--shift", "3", "--count", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("option --bits is given twice"), std::string::npos) << r.err;
}
