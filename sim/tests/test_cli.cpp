// The gemmlab CLI's top level: help and usage errors, for every sim command.
#include <gtest/gtest.h>

#include <sstream>

#include "commands.h"
#include "sim_cli.h"
#include "support.h"

using gemmlab::test::run_gemmlab;


namespace {
// A usage error: exit status 2 and a message on stderr that says `says`.
void expect_usage_error(const std::vector<std::string>& args, const std::string& says) {
  auto r = run_gemmlab(args);
  EXPECT_EQ(r.exit_code, 2) << r.out.substr(0, 200);
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}
}  // namespace

TEST(Cli, TopLevelHelpListsTheCommands) {
  auto r = run_gemmlab({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* cmd : {"gemmlab sim", "gemmlab bench", "gemmlab shot", "gemmlab lessons"})
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
}

TEST(Cli, EverySimCommandHasHelp) {
  for (const char* cmd :
       {"threadmap", "layout", "swizzle", "banks", "fragment", "raster", "schedule", "l2",
        "pipeline", "conv", "gmma-layout", "wgmma", "tma"}) {
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
  expect_usage_error({"sim", "swizzle", "--bits"}, "--bits needs a value");
}

// Integers are decimal and range-checked before they reach the model (issue 15): no silent
// narrowing (2^32 + 128 was taken as 128), no octal (010 was 8), no overflowing product.
TEST(Cli, IntegersAreDecimalAndInRange) {
  expect_usage_error({"sim", "threadmap", "--map", "warp-raked", "--shape", "4294967424,8", "--threads", "256",
                      "--warp-arrangement", "4,8", "--access", "8"},
                     "--shape must be 1..4194304 (got 4294967424)");
  expect_usage_error({"sim", "threadmap", "--map", "warp-raked", "--shape", "64,8", "--threads", "256",
                      "--warp-arrangement", "2147483647,4", "--access", "8"},
                     "--warp-arrangement must be 1..32");
  auto r = run_gemmlab({"sim", "threadmap", "--map", "stripmined", "--shape", "010,8", "--threads", "010"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // ten threads over a ten-wide tile, one vector each
  EXPECT_NE(r.out.find("[8,0],[9,0]]"), std::string::npos) << r.out;
  r = run_gemmlab({"sim", "threadmap", "--map", "stripmined", "--shape", "0128,8", "--threads", "0256", "--access", "04"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"iterations\":[1,1]"), std::string::npos) << r.out;  // (128,8), 256 threads, 4 per access
  expect_usage_error({"sim", "threadmap", "--map", "stripmined", "--shape", "128,8", "--threads", "0x100"},
                     "'0x100' is not an integer");
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
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,12,8,3,3,1,1", "--alignment", "8"}, "the alignment must divide C");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3,1,1", "--row", "64", "--col", "0"}, "outside the GEMM's 64 rows");
}

// The Hopper commands print the JSON: CuTe's offsets, the wgmma accumulator by thread, a
// TMA box with its out-of-bounds elements; and name the rule a bad request breaks.
TEST(Cli, HopperLayoutsWgmmaAndTma) {
  auto mn = run_gemmlab({"sim", "gmma-layout", "--swizzle", "32B", "--major", "MN", "--shape", "32,16",
                         "--element-bits", "16", "--json"});
  ASSERT_EQ(mn.exit_code, 0) << mn.err;
  EXPECT_NE(mn.out.find("\"offsets\":[0,16,32,48,72,88,104,120,256,"), std::string::npos) << mn.out;
  auto d = run_gemmlab({"sim", "gmma-layout", "--swizzle", "128B", "--major", "K", "--shape", "128,64",
                        "--descriptor", "64,16", "--json"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  // start = 8 atoms of 1024 bytes + 32 bytes; LBO 16, SBO 1024, layout 1 (128B).
  EXPECT_NE(d.out.find("\"hex\":\"0x4000004000010202\""), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("\"start_bytes\":8224"), std::string::npos) << d.out;
  auto w = run_gemmlab({"sim", "wgmma", "--shape", "m64n16k16", "--operand", "d", "--json"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.out.find("\"thread_value_to_mn\":[[[0,0],[0,1],[8,0],[8,1],[0,8],[0,9],[8,8],[8,9]],[[0,2]"),
            std::string::npos) << w.out;
  auto t = run_gemmlab({"sim", "tma", "--global", "100,70", "--stride", "208", "--box", "64,8", "--start", "64,64",
                        "--json"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("\"in_bounds\":216"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("\"smem_bytes\":[0,2,4,6,8,10,12,14,16,"), std::string::npos) << t.out;
  expect_usage_error({"sim", "gmma-layout", "--swizzle", "64B", "--major", "K", "--shape", "8,16"}, "K of 32");
  expect_usage_error({"sim", "wgmma", "--shape", "m64n16k16", "--operand", "b"}, "shared memory");
  expect_usage_error({"sim", "tma", "--global", "4095,64", "--box", "64,64", "--start", "0,0"}, "multiple of 16");
}

// An option given twice is an error (some commands took the first, some the last; the app's
// commands: app_test_lessons_cli).
TEST(Cli, RepeatedOptionIsAnError) {
  expect_usage_error({"sim", "swizzle", "--bits", "3", "--bits", "2", "--base", "3", "--shift", "3", "--count", "8"}, "option --bits is given twice");
}

// A caller's look-up bound (the fuzz target's) refuses a replay above it with the CLI's message,
// and lets one below it run: 512^3 on stage persistent is 4 tiles x 8 k-tiles of 48 KB.
TEST(Cli, L2ReplayRespectsTheCallersLookupBound) {
  std::vector<std::string> args = {"gemmlab", "sim", "l2", "--device", "h100", "--problem", "512,512,512",
                                   "--stage", "persistent", "--heat", "0"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  EXPECT_EQ(gemmlab::cli::run_sim_cli(static_cast<int>(args.size()), argv.data(), 2,
                                      gemmlab::cli::SimCliLimits{1000}),
            2);
  (void)testing::internal::GetCapturedStdout();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("look-ups (more than the simulator's 1000): use a smaller problem"), std::string::npos) << err;
  testing::internal::CaptureStdout();
  EXPECT_EQ(gemmlab::cli::run_sim_cli(static_cast<int>(args.size()), argv.data(), 2,
                                      gemmlab::cli::SimCliLimits{2'000'000}),
            0);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("\"read_sector_lookups\":"), std::string::npos) << out.substr(0, 200);
}

// `gemmlab sim --help` says what each command computes; each command's --help ends with an
// example, and every example runs as written.
TEST(Cli, EveryCommandSaysWhatItComputesAndItsExampleRuns) {
  auto top = run_gemmlab({"sim", "--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("  banks: the shared-memory banks one warp instruction touches"), std::string::npos) << top.out;
  int examples = 0;
  for (const char* cmd : {"threadmap", "layout", "swizzle", "banks", "fragment", "raster", "schedule", "l2",
                          "pipeline", "conv", "gmma-layout", "wgmma", "tma", "roofline"}) {
    auto h = run_gemmlab({"sim", cmd, "--help"});
    ASSERT_EQ(h.exit_code, 0) << cmd;
    const size_t at = h.out.find("example: gemmlab ");
    ASSERT_NE(at, std::string::npos) << h.out;
    std::istringstream line(h.out.substr(at + std::string("example: gemmlab ").size()));
    std::vector<std::string> args;
    for (std::string w; line >> w;) args.push_back(w);
    auto r = run_gemmlab(args);
    EXPECT_EQ(r.exit_code, 0) << cmd << ": " << r.err;
    EXPECT_EQ(r.out.front(), '{') << cmd;
    ++examples;
  }
  EXPECT_EQ(examples, 14);
}

// Every command's --help lists each of its options with what it means and its default, as
// CLI11 parses them (sim/cli/sim_options.h); conv's as the issue asked.
// The help text with every run of spaces and line breaks as one space (it wraps at 100 columns).
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c != ' ' && c != '\n') out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  return out;
}

TEST(Cli, HelpListsEveryOptionWithMeaningAndDefault) {
  for (const gemmlab::cli::Command& c : gemmlab::cli::sim_commands()) {
    auto h = run_gemmlab({"sim", c.name, "--help"});
    ASSERT_EQ(h.exit_code, 0) << c.name;
    ASSERT_FALSE(c.options.empty()) << c.name;
    const std::string help = flat(h.out);
    for (const gemmlab::cli::OptionSpec& o : c.options) {
      EXPECT_FALSE(o.meaning.empty()) << c.name << " " << o.name;
      EXPECT_NE(h.out.find("\n  " + o.name + (o.value.empty() ? "" : " " + o.value)), std::string::npos)
          << c.name << ": " << o.name << "\n" << h.out;
      std::string entry = o.name + (o.value.empty() ? "" : " " + o.value) + " " + flat(o.meaning);
      if (!o.value.empty()) entry += " (default: " + o.fallback + ")";
      EXPECT_NE(help.find(entry), std::string::npos) << c.name << ": " << entry << "\n" << h.out;
    }
    EXPECT_NE(h.out.find("\n  --json "), std::string::npos) << c.name;
    // The options' lines wrap at 100 columns.
    const size_t first = h.out.find("options:\n"), last = h.out.find("\nexample:");
    ASSERT_LT(first, last) << h.out;
    for (size_t at = first, end; (end = h.out.find('\n', at)) < last; at = end + 1)
      EXPECT_LE(end - at, 100u) << c.name << ": " << h.out.substr(at, end - at);
  }
  const std::string conv = flat(run_gemmlab({"sim", "conv", "--help"}).out);
  for (const char* want : {"--problem N,H,W,C,K,R,S[,pad,stride[,dilation]] convolution: batch, input height",
                           "padding in pixels", "(default: required; pad 0, stride 1, dilation 1)",
                           "--element f16|s8|s4 tensor element type", "(default: f16)",
                           "--sms N SMs of the GPU the tile is chosen for (1..100000) (default: 132)",
                           "--row M a row of the implicit GEMM", "--col K", "(default: none)"})
    EXPECT_NE(conv.find(want), std::string::npos) << want << "\n" << conv;
}

// One wording of each usage error in every command (sim here, bench in app_test_bench_session,
// shot and lessons in app_test_lessons_cli).
TEST(Cli, UsageErrorsSayTheSameThingInEveryCommand) {
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3", "--colour", "red"},
                     "gemmlab sim conv: unknown option '--colour' (gemmlab sim conv --help lists them)");
  expect_usage_error({"sim", "conv", "stray"}, "gemmlab sim conv: unexpected argument 'stray'");
  expect_usage_error({"sim", "conv", "--problem"}, "gemmlab sim conv: option --problem needs a value");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3", "--sms", "4", "--sms", "8"},
                     "gemmlab sim conv: option --sms is given twice");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3", "--sms", "0x10"},
                     "gemmlab sim conv: --sms: '0x10' is not an integer");
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3", "--sms", "0"},
                     "gemmlab sim conv: --sms must be 1..100000 (got 0)");
  // --name=value is the same as --name value; a flag takes no value of its own.
  auto eq = run_gemmlab({"sim", "conv", "--problem=32,56,56,64,64,3,3,1,1", "--json"});
  EXPECT_EQ(eq.exit_code, 0) << eq.err;
  EXPECT_NE(eq.out.find("\"gemm\":[100352,64,576]"), std::string::npos) << eq.out;
  expect_usage_error({"sim", "conv", "--problem", "1,8,8,8,8,3,3", "--json=yes"}, "gemmlab sim conv: --json takes no value");
}
