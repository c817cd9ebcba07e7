// `gemmlab lessons --json | --check` and the bad-argument messages of `gemmlab shot`, run as a
// user would run them (no display needed for these).
#include <gtest/gtest.h>

#include "cli_run.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

const std::string kFixtures = GEMMLAB_APP_FIXTURES;

using gemmlab::app::CliRun;
CliRun run(const std::string& args) { return gemmlab::app::run_gemmlab(args); }

TEST(LessonsCli, JsonListsTheCourse) {
  CliRun r = run("lessons --json --course " + kFixtures + "/course");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["lessons"].size(), 2u);
  EXPECT_EQ(j["lessons"][0]["id"], "01-threads");
  EXPECT_EQ(j["lessons"][0]["title"], "Who loads what");
  EXPECT_EQ(j["lessons"][0]["steps"], 3);
  EXPECT_EQ(j["lessons"][0]["languages"], nlohmann::json::array({"en", "zh"}));
  EXPECT_EQ(j["lessons"][1]["languages"], nlohmann::json::array({"en"}));
}

TEST(LessonsCli, CheckPassesTheFixtureAndTheShippedCourse) {
  CliRun ok = run("lessons --check " + kFixtures + "/course");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("ok: 2 lessons, 12 steps"), std::string::npos) << ok.out;
  CliRun shipped = run("lessons --check " + std::string(GEMMLAB_ROOT_DIR) + "/lessons");
  EXPECT_EQ(shipped.code, 0) << shipped.out;
}

// README's course section says how many lessons and steps there are and lists every lesson:
// the numbers it states are the shipped course's (it said 133 steps for 137 until 2026-11-27).
TEST(LessonsCli, ReadmeCountsTheShippedCourse) {
  CliRun r = run("lessons --json --course " + std::string(GEMMLAB_ROOT_DIR) + "/lessons");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  int steps = 0;
  for (const auto& l : j["lessons"]) steps += l["steps"].get<int>();
  std::ifstream in(std::string(GEMMLAB_ROOT_DIR) + "/README.md");
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string claim = std::to_string(j["lessons"].size()) + " lessons in English and Chinese";
  EXPECT_NE(readme.find(claim), std::string::npos) << "README does not say \"" << claim << "\"";
  EXPECT_NE(readme.find(std::to_string(steps) + " steps;"), std::string::npos)
      << "README does not say the course has " << steps << " steps";
  for (const auto& l : j["lessons"]) {
    const std::string id = l["id"];
    EXPECT_NE(readme.find("| " + id + " |"), std::string::npos) << "README's lesson table has no row for " << id;
  }
}

TEST(LessonsCli, CheckReportsFileAndLine) {
  CliRun r = run("lessons --check " + kFixtures + "/broken");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("03-bad-settings/lesson.toml:7: threadmap.map must be one of"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("02-bad-toml/lesson.toml:3: TOML syntax"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("10 problem(s)"), std::string::npos) << r.out;
}

// What passes the format check must also be what the views can show: the checker applies every
// step to its view and computes every predict answer (lesson_render_check.h).
TEST(LessonsCli, CheckAppliesEveryStepToItsView) {
  CliRun r = run("lessons --check " + kFixtures + "/unrenderable");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("01-too-big/lesson.toml:4: step 1: the gmma view cannot show these settings: shape 64,32 "
                       "does not tile the K-major 128B atom"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01-too-big/lesson.toml:11: step 2: the pipeline view cannot show these settings: tiles x k "
                       "iterations must be 1..1024"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01-too-big/lesson.toml:24: step 3: the answer to gmma.offset cannot be computed: the "
                       "element is outside the tile"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01-too-big/lesson.toml:28: step 4: shows_error = true, but the gmma view shows no error"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("01-too-big/lesson.toml:36: step 5: the code view cannot show these settings: stage ldmatrix has no "
                       "file nope.cuh; its files are"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("5 problem(s)"), std::string::npos) << r.out;
}

// A predict step may not put its answer on screen before Reveal (lessons/FORMAT.md, predict):
// un-hiding an answer fact, asking about a view that is not in front, a control that holds the answer.
TEST(LessonsCli, CheckRefusesPredictStepsWhoseAnswerIsVisible) {
  CliRun r = run("lessons --check " + kFixtures + "/gives_away");
  EXPECT_EQ(r.code, 1);
  for (const char* want :
       {"02-shows-answer/lesson.toml:8: predict.shows names grid.waves, from which grid.waves can be read: the answer "
        "would be on screen before Reveal",
        "02-shows-answer/lesson.toml:8: predict.shows: grid.tiles is not something a grid.waves step hides",
        "02-shows-answer/lesson.toml:8: predict.shows: no fact grid.nonsense; the facts are grid.tiles,",
        "01-visible/lesson.toml:10: step 1: a setting shows the answer, or colours by what Reveal hides: "
        "fragments.highlight_lane = 5 is the asked lane",
        "01-visible/lesson.toml:18: step 2: grid.blocks is hidden by the grid view, but the view in front is banks"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  // Step 3 shows the tiles its split-k block count is computed from: allowed.
  EXPECT_EQ(r.out.find("step 3:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5 problem(s)"), std::string::npos) << r.out;
}

// Lesson authors' tools (lesson_tools.h): the answers, the scaffold, RESULTS.md.
TEST(LessonsCli, AnswersListsEachPredictStepsComputedAnswer) {
  CliRun text = run("lessons --answers " + kFixtures + "/course");
  ASSERT_EQ(text.code, 0) << text.out;
  // Warp-raked 32 x 128 tile, 128 threads of 8 halves, warps 4 x 8: CUTLASS's 4 strided iterations.
  EXPECT_NE(text.out.find("01-threads step 3: threadmap.iterations_s = 4  (\"Warp-raked, 8 halves per access\")"),
            std::string::npos) << text.out;
  CliRun json = run("lessons --answers " + kFixtures + "/course --json");
  ASSERT_EQ(json.code, 0) << json.out;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["lessons"].size(), 2u);
  ASSERT_EQ(j["lessons"][0]["predict"].size(), 1u);
  EXPECT_EQ(j["lessons"][0]["predict"][0]["step"], 3);
  EXPECT_EQ(j["lessons"][0]["predict"][0]["quantity"], "threadmap.iterations_s");
  EXPECT_EQ(j["lessons"][0]["predict"][0]["answer"], 4.0);
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("gemmlab-cli-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST(LessonsCli, NewWritesAScaffoldThatPassesTheCheck) {
  TempDir t;
  const std::string course = (t.path / "course").string();
  std::filesystem::copy(kFixtures + "/course", course, std::filesystem::copy_options::recursive);
  CliRun made = run("lessons --new 03-mine --course " + course);
  ASSERT_EQ(made.code, 0) << made.out;
  EXPECT_NE(made.out.find("added \"03-mine\" at the end of"), std::string::npos) << made.out;
  for (const char* f : {"lesson.toml", "en.md", "zh.md", "en.notes.md"})
    EXPECT_TRUE(std::filesystem::exists(t.path / "course" / "03-mine" / f)) << f;
  CliRun check = run("lessons --check " + course);
  EXPECT_EQ(check.code, 0) << check.out;
  EXPECT_NE(check.out.find("ok: 3 lessons, 14 steps"), std::string::npos) << check.out;
  CliRun list = run("lessons --json --course " + course);
  EXPECT_EQ(nlohmann::json::parse(list.out)["lessons"][2]["id"], "03-mine") << list.out;
  // Its predict step inherits step 1's 128 x 8 tile and changes the threads to 128: 8 strided accesses.
  CliRun answers = run("lessons --answers " + course);
  EXPECT_NE(answers.out.find("03-mine step 2: threadmap.iterations_s = 8"), std::string::npos) << answers.out;
  // Again, or a name that is no folder name: refused, nothing changed.
  CliRun again = run("lessons --new 03-mine --course " + course);
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.out.find("exists; pick another id"), std::string::npos) << again.out;
  CliRun bad = run("lessons --new ../Bad_Id --course " + course);
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.out.find("is not a lesson id"), std::string::npos) << bad.out;
  // A folder without course.toml becomes a course of one lesson.
  const std::string fresh = (t.path / "fresh").string();
  std::filesystem::create_directories(fresh);
  CliRun first = run("lessons --new 01-start --course " + fresh);
  EXPECT_EQ(first.code, 0) << first.out;
  EXPECT_EQ(run("lessons --check " + fresh).code, 0);
}

TEST(LessonsCli, NewKeepsCourseTomlsLayout) {
  TempDir t;
  const auto dir = t.path / "c";
  std::filesystem::create_directories(dir);
  std::filesystem::copy(kFixtures + "/course/02-rules", dir / "02-rules", std::filesystem::copy_options::recursive);
  std::ofstream(dir / "course.toml") << "title = \"x\"\nlessons = [\"02-rules\"]  # one\n";
  ASSERT_EQ(run("lessons --new 05-b --course " + dir.string()).code, 0);
  std::ifstream in(dir / "course.toml");
  const std::string toml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(toml, "title = \"x\"\nlessons = [\"02-rules\", \"05-b\"]  # one\n");
}

TEST(ResultsCli, MarkdownIsTheCommittedResultsFile) {
  CliRun r = run("results --markdown --out -");
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(std::string(GEMMLAB_ROOT_DIR) + "/assets/results/RESULTS.md");
  const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(r.out, committed) << "run gemmlab results --markdown and commit assets/results/RESULTS.md";
  CliRun bad = run("results");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("say --markdown"), std::string::npos) << bad.out;
}

TEST(LessonsCli, BadArgumentsSayWhatToDo) {
  CliRun a = run("lessons --frobnicate");
  EXPECT_EQ(a.code, 2);
  EXPECT_NE(a.out.find("unknown option '--frobnicate'"), std::string::npos) << a.out;
  CliRun b = run("shot --lesson 01-threads --step x --out /tmp/x.png");
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.out.find("--step: 'x' is not an integer"), std::string::npos) << b.out;
  CliRun c = run("shot --lesson 01-threads");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.out.find("needs --lesson ID --step N --out FILE.png"), std::string::npos) << c.out;
  CliRun d = run("shot --size 10x10 --all --out-dir /tmp/x");
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.out.find("--size width must be 320..8192 (got 10)"), std::string::npos) << d.out;
  CliRun e = run("frobnicate");
  EXPECT_EQ(e.code, 2);
  EXPECT_NE(e.out.find("unknown command 'frobnicate'"), std::string::npos) << e.out;
  CliRun twice = run("lessons --json --json");  // an option given twice is an error
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.out.find("option --json is given twice"), std::string::npos) << twice.out;
}

// The window's, shot's and lessons' --help list every option with what it means and its default
// (CLI11 parses them: sim/cli/args.h); each command's usage errors use the same words.
TEST(LessonsCli, HelpListsEveryOptionWithItsDefault) {
  auto flat = [](const std::string& text) {  // the help wraps at 100 columns
    std::string out;
    for (char c : text)
      if (c != ' ' && c != '\n') out += c;
      else if (!out.empty() && out.back() != ' ') out += ' ';
    return out;
  };
  struct Want {
    const char* command;
    std::vector<std::string> lines;
  };
  for (const Want& w : std::vector<Want>{
           {"--help",
            {"gemmlab shot ... render a lesson step to PNG", "gemmlab lessons --json|--check [DIR]",
             "--course DIR a course folder (default: lessons/ of this GEMM Lab)",
             "--step N the step to open, counting from 1 (1..100000) (default: the last one opened, else 1)",
             "--lang en|zh", "--size WxH window size in pixels (320..8192 x 240..8192)", "--lesson ID"}},
           {"shot --help",
            {"--lesson ID", "--step N the step, counting from 1 (1..100000)", "--out FILE", "--all every step",
             "--out-dir DIR", "--frametime", "--frames N", "--size WxH image size in pixels", "(default: 1600x1000)",
             "--lang en|zh language (default: en)", "--course DIR", "--view VIEW", "--view-only", "--meta",
             "--data FILE", "--font-size PX font size in pixels (8..", "--exercise-solution reference|stub"}},
           {"lessons --help",
            {"--json print the course as", "--check [DIR] validate a course", "(default: lessons/)",
             "--course DIR the course --json, --answers and --new use", "--answers [DIR] each predict step's answer", "--new ID a scaffold lesson"}},
       }) {
    CliRun r = run(w.command);
    EXPECT_EQ(r.code, 0) << w.command << ": " << r.out;
    const std::string help = flat(r.out);
    for (const std::string& line : w.lines) EXPECT_NE(help.find(line), std::string::npos) << w.command << ": " << line << "\n" << r.out;
  }
  CliRun stray = run("lessons --json extra");
  EXPECT_EQ(stray.code, 2);
  EXPECT_NE(stray.out.find("gemmlab lessons: unexpected argument 'extra'"), std::string::npos) << stray.out;
  CliRun value = run("shot --lesson");
  EXPECT_EQ(value.code, 2);
  EXPECT_NE(value.out.find("gemmlab shot: option --lesson needs a value"), std::string::npos) << value.out;
  CliRun size = run("shot --size 1600x1000 --size 800x600 --all --out-dir /tmp/x");
  EXPECT_EQ(size.code, 2);
  EXPECT_NE(size.out.find("gemmlab shot: option --size is given twice"), std::string::npos) << size.out;
}

}  // namespace
