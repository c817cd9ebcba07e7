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
        "pipeline"}) {
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
