// Every shipped exercise: its reference passes, its stub fails with the reason a learner reads.
// The stubs' reasons are pinned here, so a grader that stops naming the first thing wrong, or a
// stub that starts passing, fails this test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "catalog.h"
#include "grade_host.h"

namespace gemmlab::exercise {
namespace {
namespace fs = std::filesystem;

HostGrade grade(const std::string& id, bool reference) {
  const auto ex = find_exercise(GEMMLAB_COURSE_DIR, id);
  EXPECT_TRUE(ex) << ex.error();
  if (!ex) return {};
  return grade_on_host(*find_grader(ex->grader), reference ? ex->reference : ex->stub);
}

TEST(Exercises, TheCourseShipsSevenAcrossTheTracks) {
  std::vector<ExerciseProblem> problems;
  const auto all = load_exercises(GEMMLAB_COURSE_DIR, &problems);
  for (const auto& p : problems) ADD_FAILURE() << p.text();
  std::vector<std::string> ids;
  for (const auto& e : all) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"04-thread-maps/coalesced-map", "09-swizzle/smem-offset",
                                           "11-block-swizzle/block-order", "14-implicit-gemm/im2col",
                                           "15-tma/box-coords", "17-warp-specialized/mbarrier-parity",
                                           "20-fp8/quantize"}));
  for (const auto& e : all) {
    EXPECT_FALSE(e.text(e.task, "zh").empty()) << e.id;
    EXPECT_NE(e.task.at("zh"), e.task.at("en")) << e.id << ": no Chinese task";
    EXPECT_EQ(e.hints.at("en").size(), e.hints.at("zh").size()) << e.id;
    EXPECT_GE(e.hints.at("en").size(), 2u) << e.id;
  }
}

// The GPU grade builds the kernel of an exercise's `stage`: every exercise names one, and an id
// that is no stage is a problem at its line (here the shipped coalesced-map with a misspelt id).
TEST(Exercises, EveryExerciseNamesAStageAndAMisspeltOneIsAProblem) {
  for (const auto& e : load_exercises(GEMMLAB_COURSE_DIR)) EXPECT_FALSE(e.stage.empty()) << e.id;
  const fs::path shipped = fs::path(GEMMLAB_COURSE_DIR) / "04-thread-maps" / "exercises" / "coalesced-map";
  const fs::path course = fs::temp_directory_path() / ("gemmlab_stage_" + std::to_string(::getpid()));
  const fs::path dir = course / "04-thread-maps" / "exercises" / "coalesced-map";
  fs::create_directories(dir);
  for (const char* f : {"stub.cpp", "reference.cpp", "task.en.md"})
    fs::copy_file(shipped / f, dir / f, fs::copy_options::overwrite_existing);
  std::ifstream in(shipped / "exercise.toml");
  std::string toml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = toml.find("stage = \"simt-tile\"");
  ASSERT_NE(at, std::string::npos);
  toml.replace(at, 19, "stage = \"simt-tiles\"");
  std::ofstream(dir / "exercise.toml") << toml;
  std::vector<ExerciseProblem> problems;
  EXPECT_TRUE(load_exercises(course.string(), &problems).empty());
  fs::remove_all(course);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].line, 3);
  EXPECT_EQ(problems[0].message, "unknown stage \"simt-tiles\": a stage id (gemmlab bench --list)");
}

TEST(Exercises, EveryReferencePasses) {
  for (const auto& e : load_exercises(GEMMLAB_COURSE_DIR)) {
    const auto g = grade_on_host(*find_grader(e.grader), e.reference);
    EXPECT_TRUE(g.verdict.pass) << e.id << ": " << g.verdict.reason << "\n" << g.compiler_output;
  }
}

TEST(Exercises, CoalescedMapStub) {
  const auto g = grade("04-thread-maps/coalesced-map", false);
  EXPECT_FALSE(g.verdict.pass);
  // Lanes 0..31 cover s 0..7 at c 0..3: 8 rows, one sector each.
  EXPECT_EQ(g.verdict.reason, "warp 0's access 0 touches 8 sectors of 32 bytes where 4 are possible (the stripmined "
                              "map: 4): lanes 0 and 1 load (c 0, s 0) and (c 0, s 1), 16384 bytes apart");
}

TEST(Exercises, BlockOrderStubIsTheLaunchOrder) {
  const auto g = grade("11-block-swizzle/block-order", false);
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.verdict.reason.rfind("L2 hit rate ", 0), 0u) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("needs at least"), std::string::npos) << g.verdict.reason;
}

TEST(Exercises, Im2colStubForgetsStrideAndPadding) {
  const auto g = grade("14-implicit-gemm/im2col", false);
  EXPECT_FALSE(g.verdict.pass);
  // A(0, 0): pixel (0, 0, 0), tap (0, 0, 0) -> h = 0 * 2 - 1 + 0 = -1: the padding.
  EXPECT_EQ(g.verdict.reason, "A(0, 0) = pixel (n 0, p 0, q 0) x tap (r 0, s 0, c 0) falls into the padding (input "
                              "(n 0, h -1, w -1, c 0) is outside the 7 x 7 image): return -1, not 0");
}

TEST(Exercises, TmaBoxStubCountsInTiles) {
  const auto g = grade("15-tma/box-coords", false);
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.verdict.reason, "the A box of k-tile 1 of block (m 0, n 0) starts at (inner 1, outer 0): k 1-64 of rows (m) "
                              "0-127; the stage's box starts at (inner 64, outer 0): k 64-127 of rows (m) 0-127");
}

TEST(Exercises, MbarrierStubDeadlocksOrRaces) {
  const auto g = grade("17-warp-specialized/mbarrier-parity", false);
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.verdict.reason.rfind("with 2 stages, ", 0), 0u) << g.verdict.reason;
  EXPECT_NE(g.verdict.reason.find("(stage 17 waits on full for parity"), std::string::npos) << g.verdict.reason;
}

TEST(Exercises, Fp8QuantizeStubMissesTheSubnormals) {
  const auto g = grade("20-fp8/quantize", false);
  EXPECT_FALSE(g.verdict.pass);
  EXPECT_EQ(g.verdict.reason.rfind("to_e4m3(0.001953125) returned 0xF0 (-128): ", 0), 0u) << g.verdict.reason;
}

}  // namespace
}  // namespace gemmlab::exercise
