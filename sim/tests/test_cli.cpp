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
