// `gemmlab exercise` as courses and CI call it: the JSON, the exit status, usage errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int status = -1;
  std::string out;
};

// stderr goes with stdout when `with_errors`.
CliRun run(const std::string& args, bool with_errors = false) {
  CliRun r;
  const std::string cmd = std::string(GEMMLAB_EXE) + " exercise " + args + " --course " GEMMLAB_COURSE_DIR +
                          (with_errors ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(ExerciseCli, ListsTheCourse) {
  const CliRun r = run("--list --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["exercises"].size(), 7u);
  EXPECT_EQ(j["exercises"][1]["id"], "09-swizzle/smem-offset");
  EXPECT_EQ(j["exercises"][1]["grader"], "smem-offset");
  EXPECT_EQ(j["exercises"][1]["stage"], "smem-swizzle");
  EXPECT_EQ(j["exercises"][6]["id"], "20-fp8/quantize");
  EXPECT_EQ(j["exercises"][6]["grader"], "fp8-quantize");
  EXPECT_EQ(j["exercises"][6]["stage"], "fp8-block");
}

TEST(ExerciseCli, ReferencePassesWithExitZero) {
  const CliRun r = run("09-swizzle/smem-offset --solution reference --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["host"]["pass"].get<bool>());
  EXPECT_FALSE(j["device"]["reason"].get<std::string>().empty());
  if (j["device"]["ran"].get<bool>()) {  // a build with CUDA on a machine with a GPU
    EXPECT_TRUE(j["device"]["pass"].get<bool>()) << r.out;
    EXPECT_GT(j["device"]["ratio_to_stage"].get<double>(), 0) << r.out;
  } else {
    EXPECT_TRUE(j["device"]["ratio_to_stage"].is_null());
  }
}

TEST(ExerciseCli, AFailingFileExitsOneWithTheReason) {
  const std::string path = testing::TempDir() + "/row_major.cpp";
  std::ofstream(path) << "int smem_offset(int row, int k) { return row * 32 + k; }\n";
  const CliRun r = run("09-swizzle/smem-offset --solution " + path + " --json");
  ASSERT_EQ(r.status, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["host"]["pass"].get<bool>());
  EXPECT_EQ(j["host"]["reason"].get<std::string>().rfind("rows 0, 2, 4 and 6 of the ldmatrix phase", 0), 0u);
  EXPECT_FALSE(j["device"]["ran"].get<bool>());
}

TEST(ExerciseCli, ACompileErrorNamesTheFileAndLine) {
  const std::string path = testing::TempDir() + "/broken.cpp";
  std::ofstream(path) << "int smem_offset(int row, int k) {\n  return row * 32 + q;\n}\n";
  const CliRun r = run("09-swizzle/smem-offset --solution " + path + " --json");
  ASSERT_EQ(r.status, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["host"]["error_line"], 2);
  EXPECT_NE(j["host"]["compiler_output"].get<std::string>().find("broken.cpp:2:"), std::string::npos);
}

TEST(ExerciseCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("09-swizzle/smem-offset").status, 2);                      // no --solution
  EXPECT_EQ(run("no-such/exercise --solution reference").status, 2);
  EXPECT_EQ(run("09-swizzle/smem-offset --solution /no/such/file.cpp").status, 2);
  EXPECT_EQ(run("09-swizzle/smem-offset --solution").status, 2);
  EXPECT_EQ(run("--bogus").status, 2);
  EXPECT_EQ(run("../../etc --solution reference").status, 2);
}

// The same parser as every other command: each option in --help with its meaning and default,
// the same wording for a repeated option and for a second exercise.
TEST(ExerciseCli, HelpAndErrorsSpeakLikeEveryCommand) {
  const CliRun h = run("--help");
  ASSERT_EQ(h.status, 0);
  for (const char* line : {"  ID  ", "  --list  ", "  --solution FILE  ", "  --json  ", "  --course DIR  "})
    EXPECT_NE(h.out.find(line), std::string::npos) << line << "\n" << h.out;
  std::string flat;  // the help with its wrapped lines joined
  for (char c : h.out)
    if (c != '\n' && !(c == ' ' && !flat.empty() && flat.back() == ' ')) flat += c;
    else if (c == '\n' && (flat.empty() || flat.back() != ' ')) flat += ' ';
  EXPECT_NE(flat.find("(default: required with ID)"), std::string::npos) << flat;
  EXPECT_NE(flat.find("(default: required without --list)"), std::string::npos) << flat;
  EXPECT_NE(flat.find("(default: lessons/ of this GEMM Lab)"), std::string::npos) << flat;
  const CliRun twice = run("09-swizzle/smem-offset --solution reference --solution stub", true);
  EXPECT_EQ(twice.status, 2);
  EXPECT_NE(twice.out.find("gemmlab exercise: option --solution is given twice"), std::string::npos) << twice.out;
  const CliRun two = run("09-swizzle/smem-offset 15-tma/box-coords --solution reference", true);
  EXPECT_EQ(two.status, 2);
  EXPECT_NE(two.out.find("unexpected argument '15-tma/box-coords'"), std::string::npos) << two.out;
  const CliRun unknown = run("--bogus", true);
  EXPECT_NE(unknown.out.find("unknown option '--bogus' (gemmlab exercise --help lists them)"), std::string::npos)
      << unknown.out;
}

TEST(ExerciseCli, TextFormListsTheRulesThatHeld) {
  const CliRun r = run("04-thread-maps/coalesced-map --solution reference");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("  ok    every element is loaded exactly once"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  PASS  "), std::string::npos) << r.out;
}

}  // namespace
