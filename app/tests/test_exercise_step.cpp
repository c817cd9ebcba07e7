// The exercise step of the lesson format ([step.exercise], lessons/FORMAT.md) and what
// `gemmlab lessons --check` says about a course's exercises: a course written in a temporary
// folder, as an author would write one.
#include <gtest/gtest.h>

#include "cli_run.h"
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/lesson_format.h"

namespace gemmlab::app {
namespace {
namespace fs = std::filesystem;

const char* kReference = "int smem_offset(int row, int k) { int l = row * 32 + k; return l ^ ((l >> 3) & 56); }\n";
const char* kRowMajor = "int smem_offset(int row, int k) { return row * 32 + k; }\n";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A one-lesson course whose single step shows exercise 01-x/offset.
fs::path make_course(const std::string& name, const std::string& step_exercise, const std::string& stub) {
  const fs::path dir = fs::path(testing::TempDir()) / name;
  fs::remove_all(dir);
  write(dir / "course.toml", "lessons = [\"01-x\"]\n");
  write(dir / "01-x" / "lesson.toml", "id = \"01-x\"\ntitle.en = \"X\"\n\n[[step]]\nview = \"banks\"\n" + step_exercise);
  write(dir / "01-x" / "en.md", "# X\n\n## Write it\nWrite the offset.\n");
  const fs::path ex = dir / "01-x" / "exercises" / "offset";
  write(ex / "exercise.toml", "grader = \"smem-offset\"\ntitle.en = \"Offset\"\ngoal.en = \"Conflict-free.\"\n"
                              "hints.en = [\"XOR\"]\n");
  write(ex / "task.en.md", "Write smem_offset.\n");
  write(ex / "stub.cpp", stub);
  write(ex / "reference.cpp", kReference);
  return dir;
}

CliRun run(const std::string& args) { return run_gemmlab(args); }

TEST(ExerciseStep, TheStepNamesItsExercise) {
  const fs::path dir = make_course("ex_ok", "[step.exercise]\nid = \"01-x/offset\"\n", kRowMajor);
  const Course c = load_course(dir.string(), GEMMLAB_ROOT_DIR "/assets");
  ASSERT_EQ(c.lessons.size(), 1u);
  ASSERT_TRUE(c.lessons[0].ok()) << c.lessons[0].errors[0].text();
  EXPECT_EQ(c.lessons[0].steps[0].exercise, "01-x/offset");
  EXPECT_EQ(c.lessons[0].steps[0].exercise_line, 7);
}

TEST(ExerciseStep, AnUnknownExerciseIsAnErrorAtItsLine) {
  const fs::path dir = make_course("ex_unknown", "[step.exercise]\nid = \"01-x/nothing\"\n", kRowMajor);
  const Course c = load_course(dir.string(), GEMMLAB_ROOT_DIR "/assets");
  ASSERT_EQ(c.lessons[0].errors.size(), 1u);
  EXPECT_EQ(c.lessons[0].errors[0].line, 7);
  EXPECT_NE(c.lessons[0].errors[0].message.find("no exercise \"01-x/nothing\""), std::string::npos);
}

TEST(ExerciseStep, AnExerciseTableNeedsItsId) {
  const fs::path dir = make_course("ex_noid", "[step.exercise]\nname = \"01-x/offset\"\n", kRowMajor);
  const Course c = load_course(dir.string(), GEMMLAB_ROOT_DIR "/assets");
  ASSERT_EQ(c.lessons[0].errors.size(), 1u);
  EXPECT_NE(c.lessons[0].errors[0].message.find("[step.exercise] takes one key: id"), std::string::npos);
}

TEST(ExerciseStep, CheckPassesAReferenceThatPassesAndAStubThatFails) {
  const fs::path dir = make_course("ex_check_ok", "[step.exercise]\nid = \"01-x/offset\"\n", kRowMajor);
  const CliRun r = run("lessons --check " + dir.string());
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST(ExerciseStep, CheckRefusesAStubThatAlreadyPasses) {
  const fs::path dir = make_course("ex_check_stub", "[step.exercise]\nid = \"01-x/offset\"\n", kReference);
  const CliRun r = run("lessons --check " + dir.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("stub.cpp: the stub passes its grader"), std::string::npos) << r.out;
}

TEST(ExerciseStep, CheckRefusesAReferenceThatFails) {
  const fs::path dir = make_course("ex_check_ref", "[step.exercise]\nid = \"01-x/offset\"\n", kRowMajor);
  std::ofstream(dir / "01-x" / "exercises" / "offset" / "reference.cpp") << kRowMajor;
  const CliRun r = run("lessons --check " + dir.string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("reference.cpp: the reference solution fails its grader: rows 0, 2, 4 and 6 of the ldmatrix phase"),
            std::string::npos) << r.out;
}

}  // namespace
}  // namespace gemmlab::app
