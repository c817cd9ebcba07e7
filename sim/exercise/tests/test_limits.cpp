// The grader's limits: whatever the learner's file does, the grade is a message and the grader
// comes back within its limits. Each case is a file a learner could write.
#include <gtest/gtest.h>

#include <chrono>

#include "grade_host.h"

namespace gemmlab::exercise {
namespace {

HostGrade grade(const std::string& source, HostGradeOptions options = {}) {
  options.display_name = "mine.cpp";
  return grade_on_host(*find_grader("smem-offset"), source, options);
}

TEST(GraderLimits, CompileErrorShowsTheCompilersMessageAtTheLearnersLine) {
  const auto g = grade("// line 1\n// line 2\nint smem_offset(int row, int k) {\n  return row * 32 + k\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.stage, HostGrade::Stage::Compile);
  EXPECT_EQ(g.error_line, 4);  // the missing ';' after line 4 (gcc and clang both say 4)
  EXPECT_NE(g.compiler_output.find("mine.cpp:4:"), std::string::npos) << g.compiler_output;
  EXPECT_EQ(g.compiler_output.find("driver.cpp"), std::string::npos) << g.compiler_output;
  EXPECT_EQ(g.compiler_output.find("/tmp/"), std::string::npos) << g.compiler_output;
  EXPECT_NE(g.verdict.reason.find("does not compile"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, AMissingFunctionNamesTheSignature) {
  const auto g = grade("int smem_ofset(int row, int k) { return row * 32 + k; }\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("does not define `int smem_offset(int row, int k)`"), std::string::npos)
      << g.verdict.reason;
}

TEST(GraderLimits, AnEndlessLoopIsStoppedAtTheLimit) {
  HostGradeOptions o;
  o.run_limits.cpu_seconds = 1;
  o.run_limits.wall_seconds = 3;
  const auto start = std::chrono::steady_clock::now();
  const auto g = grade("volatile int spin;\nint smem_offset(int row, int k) {\n"
                       "  if (row == 3 && k == 5) for (;;) ++spin;\n  return row * 32 + k;\n}\n", o);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.stage, HostGrade::Stage::Run);
  EXPECT_NE(g.verdict.reason.find("did not finish"), std::string::npos) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("smem_offset(3, 5)"), std::string::npos) << g.verdict.reason;
  EXPECT_LT(g.run_seconds, 3.5);
  EXPECT_LT(took, 60);  // compile + run
}

TEST(GraderLimits, AnEndlessSleepIsStoppedByTheWallClock) {
  HostGradeOptions o;
  o.run_limits.wall_seconds = 1.5;
  const auto g = grade("#include <unistd.h>\nint smem_offset(int row, int k) {\n"
                       "  if (row == 1) for (;;) sleep(1);\n  return row * 32 + k;\n}\n", o);
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("still running at smem_offset(1, 0) after 1 s"), std::string::npos) << g.verdict.reason;
  EXPECT_LT(g.run_seconds, 2.5);
}

TEST(GraderLimits, ACrashNamesThePointAndTheSignal) {
  const auto g = grade("int smem_offset(int row, int k) {\n  if (row == 7 && k == 9) return *(volatile int*)nullptr;\n"
                       "  return row * 32 + k;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("crashed at smem_offset(7, 9)"), std::string::npos) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("SIGSEGV"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, ADivisionByZeroIsACrashToo) {
  const auto g = grade("int smem_offset(int row, int k) { volatile int z = row; return k / z; }\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("crashed at smem_offset(0, 0)"), std::string::npos) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("SIGFPE"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, AHugeAllocationHitsTheMemoryLimit) {
  const auto g = grade("#include <vector>\nint smem_offset(int row, int k) {\n"
                       "  std::vector<char> huge(size_t(1) << 34, 1);\n  return huge[size_t(row) << 20] + row * 32 + k;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("bad_alloc"), std::string::npos) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("smem_offset(0, 0)"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, MallocThatFailsAndIsUsedAnywayIsACrash) {
  const auto g = grade("#include <cstdlib>\nint smem_offset(int row, int k) {\n"
                       "  int* p = (int*)std::malloc(size_t(1) << 34);\n  p[1 << 20] = 1;\n  return row * 32 + k + p[1 << 20] - 1;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("crashed at smem_offset(0, 0)"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, EndlessPrintingIsCutAtTheOutputLimit) {
  const auto g = grade("#include <cstdio>\nint smem_offset(int row, int k) {\n"
                       "  for (;;) std::puts(\"hello hello hello\");\n  return row * 32 + k;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("printed more than 64 KB"), std::string::npos) << g.verdict.reason;
  EXPECT_LE(g.program_output.size(), 64u << 10);
}

TEST(GraderLimits, OutputOutOfRangeIsNamed) {
  const auto g = grade("int smem_offset(int row, int k) { return row * 32 + k + (row == 127 ? 100 : 0); }\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.stage, HostGrade::Stage::Evaluate);
  EXPECT_EQ(g.verdict.reason,
            "offset 4164 of (row 127, k 0) is outside the 8 KB tile: offsets are halves 0 .. 4095");
}

TEST(GraderLimits, AnExceptionIsNamed) {
  const auto g = grade("#include <stdexcept>\nint smem_offset(int row, int k) {\n"
                       "  if (k == 31) throw std::runtime_error(\"not yet\");\n  return row * 32 + k;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.verdict.reason, "your function threw not yet at smem_offset(0, 31)");
}

TEST(GraderLimits, ExitingEarlyIsNamed) {
  const auto g = grade("#include <cstdlib>\nint smem_offset(int row, int k) {\n  if (row == 2) std::exit(0);\n"
                       "  return row * 32 + k;\n}\n");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_NE(g.verdict.reason.find("stopped at smem_offset(2, 0)"), std::string::npos) << g.verdict.reason;
}

TEST(GraderLimits, NoCompilerSaysWhatToInstall) {
  HostGradeOptions o;
  setenv("GEMMLAB_CXX", "/nonexistent/g++", 1);
  const auto g = grade("int smem_offset(int row, int k) { return row * 32 + k; }\n", o);
  unsetenv("GEMMLAB_CXX");
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.stage, HostGrade::Stage::NoCompiler);
  EXPECT_NE(g.verdict.reason.find("/nonexistent/g++ (GEMMLAB_CXX) is not there"), std::string::npos) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("apt install g++"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::exercise
