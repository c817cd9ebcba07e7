// The course machinery lesson writers rely on (lessons/FORMAT.md): step settings inherited from
// the step before, notes beside the text, the learner-text rules and the result placeholders,
// and RESULTS.md generated from assets/results. Every input here is written by the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "model/lesson_format.h"
#include "model/lesson_text_rules.h"
#include "model/result_placeholders.h"
#include "model/results_markdown.h"
#include "model/stage_labels.h"

namespace gemmlab::app {
namespace {
namespace fs = std::filesystem;

const std::string kRoot = GEMMLAB_ROOT_DIR;
const std::string kAssets = kRoot + "/assets";

// A throw-away course folder with one lesson "01-a" made of the files given.
struct TempCourse {
  fs::path dir;
  explicit TempCourse(const std::vector<std::pair<std::string, std::string>>& files) {
    dir = fs::temp_directory_path() / ("gemmlab-course-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                       "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir / "01-a");
    std::ofstream(dir / "course.toml") << "lessons = [\"01-a\"]\n";
    for (const auto& [name, text] : files) std::ofstream(dir / "01-a" / name) << text;
  }
  ~TempCourse() { fs::remove_all(dir); }
  Course load() const { return load_course(dir.string(), kAssets); }
};

std::string errors_of(const Course& c) {
  std::string out;
  for (const auto& d : c.all_errors()) out += d.text() + "\n";
  return out;
}

const char* kThreeSteps = "id = \"01-a\"\n"
                          "[[step]]\nview = \"banks\"\n[step.banks]\nop = \"ldsm.x4\"\nlayout = \"swizzle\"\n"
                          "swizzle = [3, 3, 3]\ntile = [16, 64]\n"
                          "[[step]]\n[step.banks]\nlayout = \"rowmajor\"\n"              // changes one key
                          "[[step]]\nview = \"grid\"\n"                                  // changes nothing
                          "[[step]]\n[step.banks]\ninherit = false\nop = \"lds.32\"\n";  // starts afresh
const char* kFourStepsEn = "## One\na\n## Two\nb\n## Three\nc\n## Four\nd\n";

TEST(StepInheritance, AStepKeepsTheSettingsItDoesNotChange) {
  TempCourse t({{"lesson.toml", kThreeSteps}, {"en.md", kFourStepsEn}});
  const Course c = t.load();
  ASSERT_EQ(errors_of(c), "");
  const auto& s = c.lessons[0].steps;
  ASSERT_EQ(s.size(), 4u);
  // Step 2 wrote only layout: op, tile and swizzle come from step 1; its view too.
  EXPECT_EQ(s[1].settings["banks"]["op"], "ldsm.x4");
  EXPECT_EQ(s[1].settings["banks"]["tile"], Json::array({16, 64}));
  EXPECT_EQ(s[1].settings["banks"]["layout"], "rowmajor");
  EXPECT_EQ(s[1].view, "banks");
  EXPECT_FALSE(s[1].names_view);
  EXPECT_EQ(s[1].written, Json::parse(R"({"banks":{"layout":"rowmajor"}})"));
  // Step 3 changed the view only: the banks settings of step 2 stay, the grid starts at defaults.
  EXPECT_EQ(s[2].view, "grid");
  EXPECT_TRUE(s[2].names_view);
  EXPECT_EQ(s[2].settings["banks"], s[1].settings["banks"]);
  EXPECT_EQ(s[2].written, Json::object());
  // inherit = false: only what step 4 writes; the key itself is not a setting.
  EXPECT_EQ(s[3].settings["banks"], Json::parse(R"({"op":"lds.32"})"));
  EXPECT_EQ(s[3].written["banks"], Json::parse(R"({"op":"lds.32"})"));
  EXPECT_EQ(s[3].view, "grid");
}

TEST(StepInheritance, InheritMustBeABoolean) {
  TempCourse t({{"lesson.toml", "id = \"01-a\"\n[[step]]\nview = \"banks\"\n[step.banks]\ninherit = 1\n"},
                {"en.md", "## One\na\n"}});
  EXPECT_NE(errors_of(t.load()).find("lesson.toml:5: banks.inherit must be true or false"), std::string::npos)
      << errors_of(t.load());
}

const char* kTwoSteps = "id = \"01-a\"\n[[step]]\nview = \"banks\"\n[[step]]\nview = \"grid\"\n";

TEST(LessonNotes, NotesBelongToTheStepWithTheSameHeading) {
  TempCourse t({{"lesson.toml", kTwoSteps},
                {"en.md", "## First\na\n## Second\nb\n"},
                {"zh.md", "## 第一\n甲\n## 第二\n乙\n"},
                {"en.notes.md", "# Notes\n## Second\nDepth for step two.\n"}});
  const Course c = t.load();
  ASSERT_EQ(errors_of(c), "");
  const Lesson& l = c.lessons[0];
  EXPECT_EQ(l.notes_in("en", 0), nullptr);
  ASSERT_NE(l.notes_in("en", 1), nullptr);
  EXPECT_EQ(*l.notes_in("en", 1), "Depth for step two.");
  // No zh.notes.md: the Chinese step shows the English notes rather than none.
  ASSERT_NE(l.notes_in("zh", 1), nullptr);
  EXPECT_EQ(l.notes.at("en").lines[1], 2);
}

TEST(LessonNotes, AHeadingThatMatchesNoStepIsAnError) {
  TempCourse t({{"lesson.toml", kTwoSteps},
                {"en.md", "## First\na\n## Second\nb\n"},
                {"zh.md", "## 第一\n甲\n## 第二\n乙\n"},
                {"en.notes.md", "Stray text.\n## Second\nok\n## Secnd\ntypo\n## Second\ntwice\n"},
                {"zh.notes.md", "## Second\n英文标题不对应中文步骤\n"}});
  const std::string e = errors_of(t.load());
  EXPECT_NE(e.find("en.notes.md:1: text before the first \"## \" heading belongs to no step"), std::string::npos) << e;
  EXPECT_NE(e.find("en.notes.md:4: notes heading \"Secnd\" matches no step of"), std::string::npos) << e;
  EXPECT_NE(e.find("en.notes.md:6: notes heading \"Second\" appears twice (first at line 2)"), std::string::npos) << e;
  EXPECT_NE(e.find("zh.notes.md:1: notes heading \"Second\" matches no step of"), std::string::npos) << e;
}

TEST(LessonNotes, NotesNeedTheirLanguagesText) {
  TempCourse t({{"lesson.toml", kTwoSteps}, {"en.md", "## First\na\n## Second\nb\n"}, {"zh.notes.md", "## 第一\n甲\n"}});
  EXPECT_NE(errors_of(t.load()).find("zh.notes.md: notes without zh.md"), std::string::npos) << errors_of(t.load());
}

TEST(TextRules, WordsCountLatinRunsAndHalfTheCjkCharacters) {
  EXPECT_EQ(count_words("The **warp** reads `cp.async` k-tiles, 128 x 8."), 8);
  EXPECT_EQ(count_words("don't split A/B — or ldmatrix.x4"), 5);
  EXPECT_EQ(count_words("![banks](lessons/a-long-image-path.png) and [CUTLASS](https://github.com/NVIDIA/cutlass)"), 3);
  EXPECT_EQ(count_words("每个线程"), 2);
  EXPECT_EQ(count_words("每个线程搬运，一个 tile。"), 5);  // 8 CJK characters -> 4, plus "tile"
  EXPECT_EQ(count_words(""), 0);
}

std::string words(int n, const char* word) {
  std::string s;
  for (int i = 0; i < n; ++i) s += std::string(word) + (i % 12 == 11 ? "\n" : " ");
  return s;
}

TEST(TextRules, AStepOfMoreThan180WordsIsRefusedInEitherLanguage) {
  TempCourse t({{"lesson.toml", kTwoSteps},
                {"en.md", "Intro words here.\n## First\n" + words(178, "word") + "\n## Second\n" + words(181, "word")},
                {"zh.md", "## 第一\n" + words(180, "线程") + "\n## 第二\n" + words(181, "线程")}});
  const Course c = t.load();
  ASSERT_EQ(errors_of(c), "");
  std::string e;
  for (const auto& d : check_text_rules(c)) e += d.text() + "\n";
  // Step 1: 178 + the intro's 3 = 181; step 2: 181; zh step 1: 180 (two characters a word), fine.
  EXPECT_NE(e.find("en.md:2: step 1 (\"First\") has 181 words with the intro; a step's main text has at most 180"), std::string::npos) << e;
  EXPECT_NE(e.find("step 2 (\"Second\") has 181 words; a step"), std::string::npos) << e;
  EXPECT_NE(e.find("step 2 (\"第二\") has 181 words; a step"), std::string::npos) << e;
  EXPECT_EQ(e.find("zh.md:1:"), std::string::npos) << e;
}

std::vector<std::string> marks(const std::string& line) {
  std::vector<std::string> out;
  for (const auto& m : find_lab_marks(line)) out.push_back(m.kind + ": " + m.text);
  return out;
}

TEST(TextRules, DatesClockTimesWattagesAndCommitHashesAreFound) {
  EXPECT_EQ(marks("measured on 2026-11-27 at 14:12Z"), (std::vector<std::string>{"date: 2026-11-27", "clock time: 14:12Z"}));
  EXPECT_EQ(marks("the ncu run at 11:0xZ"), (std::vector<std::string>{"clock time: 11:0xZ"}));
  EXPECT_EQ(marks("from 03:08 to 21:30 UTC"), (std::vector<std::string>{"clock time: 21:30 UTC", "clock time: 03:08"}));
  EXPECT_EQ(marks("690 W of its 700W limit"), (std::vector<std::string>{"wattage: 690 W", "wattage: 700W"}));
  EXPECT_EQ(marks("since commit 3fe3dce"), (std::vector<std::string>{"commit hash: 3fe3dce"}));
  EXPECT_EQ(marks("2026年11月27日测得"), (std::vector<std::string>{"date: 2026年11月27日"}));
  EXPECT_EQ(marks("on Nov 27, 2026"), (std::vector<std::string>{"date: Nov 27, 2026"}));
  // What lessons do say: sizes, tiles, instructions, ratios, hex constants, words of hex letters.
  for (const char* fine : {"a 128x128x8 tile at 4096^3", "sm_90a and mma.m16n8k16", "16:9 or 1:32",
                           "0x1234abcd masks", "a deadbeef feedface", "stage 13b (`stream-k`)", "W = 56, H x W",
                           "1234567 elements", "{ratio persistent 8192}"})
    EXPECT_EQ(marks(fine), std::vector<std::string>{}) << fine;
}

// Hostile text: one long line of what each scanner looks for ends quickly and does not crash.
TEST(TextRules, LongLinesAreScannedInBoundedTimeAndStack) {
  EXPECT_EQ(count_words(std::string(4'000'000, '7')), 1);
  EXPECT_EQ(count_words("[a](" + std::string(1'000'000, 'x')), 2);  // an unclosed target is text
  EXPECT_EQ(find_lab_marks(std::string(2'000'000, '1') + " W").size(), 1u);  // digits then W: a wattage
  std::string watts;
  for (int i = 0; i < 200'000; ++i) watts += "7 W ";
  EXPECT_EQ(find_lab_marks(watts).size(), 20u);
  std::string braces;
  for (int i = 0; i < 200'000; ++i) braces += "{ratio ";
  EXPECT_EQ(find_placeholders(braces).size(), 1000u);  // a bounded number per text
  const FilledText f = fill_placeholders(braces, {});
  EXPECT_EQ(f.missing.size(), 21u);  // twenty lines and "... and 980 more"
  EXPECT_EQ(f.missing.back(), "... and 980 more");
}

TEST(TextRules, TheCheckerNamesTheLineInTextAndNotes) {
  TempCourse t({{"lesson.toml", kTwoSteps},
                {"en.md", "## First\nRun at 14:12Z.\n## Second\nfine\n"},
                {"en.notes.md", "## Second\nAt 690 W, commit 3fe3dce.\n"}});
  const Course c = t.load();
  ASSERT_EQ(errors_of(c), "");
  std::string e;
  for (const auto& d : check_text_rules(c)) e += d.text() + "\n";
  EXPECT_NE(e.find("en.md:2: \"14:12Z\" looks like a clock time"), std::string::npos) << e;
  EXPECT_NE(e.find("en.notes.md:2: \"690 W\" looks like a wattage"), std::string::npos) << e;
  EXPECT_NE(e.find("en.notes.md:2: \"3fe3dce\" looks like a commit hash"), std::string::npos) << e;
}

// One device's results with a GEMM row and its cuBLAS reference, as `gemmlab bench --json` writes them.
BenchResults results_of(const std::string& device, double stage_ms, double cublas_ms) {
  const std::string json = R"({"device":{"name":")" + device + R"(","sms":132,"l2_bytes":52428800,"clock_mhz":1980,
    "driver":"1","cuda":"13.0"},"date":"d","results":[
    {"stage":"persistent","track":"hopper","m":8192,"n":8192,"k":8192,"ms":)" + std::to_string(stage_ms) +
                           R"(,"tflops":)" + std::to_string(2.0 * 8192 * 8192 * 8192 / stage_ms / 1e9) +
                           R"(,"ratio_to_cublas":)" + std::to_string(cublas_ms / stage_ms) + R"(,"cublas_ms":)" +
                           std::to_string(cublas_ms) + R"(,"rel_err":0,"ok":true,"reps":10}]})";
  auto r = parse_bench_results(json, device + ".json");
  EXPECT_TRUE(r.ok()) << r.error();
  return *r;
}

TEST(Placeholders, FoundOutsideCodeMalformedOnesNamed) {
  const auto found = find_placeholders(
      "On {device}: {ratio persistent 8192} of {ref persistent}\n"
      "`{ratio persistent 8192}` and\n```\n{tflops persistent 4096}\n```\n"
      "{ratio persistent} {tflops nostage 4096} {ref_tflops persistent 40y96} {ratios persistent 4096} {device\n"
      "set {1, 4} and {x, y} stay text");
  ASSERT_EQ(found.size(), 8u);
  EXPECT_EQ(found[0].text, "{device}");
  EXPECT_EQ(found[1].kind, "ratio");
  EXPECT_EQ(found[1].stage, "persistent");
  EXPECT_EQ(found[1].m, 8192);
  EXPECT_EQ(found[1].k, 8192);
  EXPECT_EQ(found[2].text, "{ref persistent}");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(found[i].error, "") << found[i].text;
  EXPECT_EQ(found[3].line, 6);
  EXPECT_NE(found[3].error.find("needs a stage and a size"), std::string::npos);
  EXPECT_NE(found[4].error.find("\"nostage\" is not a stage id"), std::string::npos);
  EXPECT_NE(found[5].error.find("the size must be 4096 (a cube) or MxNxK"), std::string::npos);
  EXPECT_NE(found[6].error.find("is not a placeholder; they are"), std::string::npos);
  EXPECT_NE(found[7].error.find("has no closing"), std::string::npos);
}

TEST(Placeholders, FilledFromTheLearnersRunFirstThenTheShippedResults) {
  const std::vector<BenchResults> shipped = {results_of("NVIDIA H200", 1.0, 1.05)};
  const BenchResults run = results_of("My GPU", 2.0, 1.0);
  const std::string text = "{ratio persistent 8192} of {ref persistent} on {device}, {tflops persistent 8192} "
                           "against {ref_tflops persistent 8192}; `{device}`";
  FilledText f = fill_placeholders(text, results_sources({}, shipped));
  EXPECT_EQ(f.markdown, "105.0% of cuBLAS on NVIDIA H200, 1100 against 1047; `{device}`");
  EXPECT_TRUE(f.missing.empty());
  f = fill_placeholders(text, results_sources({&run}, shipped));
  EXPECT_EQ(f.markdown, "50.0% of cuBLAS on My GPU, 550 against 1100; `{device}`");
  EXPECT_TRUE(f.own);
  // A size no loaded results have: "—" and a line that names what is missing.
  f = fill_placeholders("{ratio persistent 4096} on {device}", results_sources({}, shipped));
  EXPECT_EQ(f.markdown, "\xE2\x80\x94 on NVIDIA H200");
  ASSERT_EQ(f.missing.size(), 1u);
  EXPECT_EQ(f.missing[0], "{ratio persistent 4096}: the results of NVIDIA H200 have no persistent row at 4096^3");
  f = fill_placeholders("{ratio persistent 8192}", {});
  EXPECT_EQ(f.markdown, "\xE2\x80\x94");
  EXPECT_EQ(f.missing, std::vector<std::string>{"{ratio persistent 8192}: no results are loaded"});
}

// A second file for a device (nvidia-h200-shapes.json beside nvidia-h200.json) changes nothing
// the first one showed: files are read by name without ".json", so where both hold a row the
// device's own file, its ladder, counts ('-' sorts before '.', which put the suffixed file first).
TEST(Placeholders, ADevicesOwnFileComesBeforeItsSuffixedOnes) {
  const fs::path dir = fs::temp_directory_path() / ("gemmlab-results-order-" +
                       std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, stage_ms] : {std::pair{"gpu-shapes.json", 2.0}, std::pair{"gpu.json", 1.0},
                                       std::pair{"gpu-conv.json", 4.0}, std::pair{"another.json", 8.0}}) {
    BenchResults r = results_of("NVIDIA H200", stage_ms, 1.05);
    std::ofstream(dir / name) << bench_results_json(r);
  }
  std::vector<std::string> problems;
  const std::vector<BenchResults> sets = load_results_dir(dir.string(), &problems);
  fs::remove_all(dir);
  EXPECT_TRUE(problems.empty());
  std::vector<std::string> names;
  for (const BenchResults& r : sets) names.push_back(fs::path(r.source).filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"another.json", "gpu.json", "gpu-conv.json", "gpu-shapes.json"}));
  // "another" is first by name; then "gpu.json" (1.05 / 1.0 ms), not "gpu-shapes.json" (1.05 / 2.0).
  std::vector<BenchResults> gpu(sets.begin() + 1, sets.end());
  EXPECT_EQ(fill_placeholders("{ratio persistent 8192}", results_sources({}, gpu)).markdown, "105.0%");
  // The shipped files: the H200's ladder file opens its section of RESULTS.md, before the sweep.
  const std::string md = results_markdown(load_results_dir(kAssets + "/results", &problems));
  EXPECT_LT(md.find("### GEMM (`nvidia-h200.json`)"), md.find("### GEMM (`nvidia-h200-shapes.json`)"));
  EXPECT_NE(md.find("### GEMM (`nvidia-h200-shapes.json`)"), std::string::npos);
  // A stage's row puts the reference's rate in the same turns beside the ratio: stage TFLOP/s over
  // it is the %. A reference's row has no such cell.
  BenchResults one;
  one.device.name = "GPU";
  BenchResult ref, st;
  ref.stage = "cublas-fp16", ref.track = "fp16", ref.m = ref.n = ref.k = 4096, ref.tflops = 778, ref.ok = true;
  st = ref, st.stage = "auto", st.tflops = 729, st.ratio_to_cublas = 1.019;
  one.results = {ref, st};
  const std::string small = results_markdown({one});
  EXPECT_NE(small.find("| 19c auto | fp16 | 729 | 715 | 101.9 | - | ok |"), std::string::npos) << small;
  EXPECT_NE(small.find("| fp16 | 778 | - | 100.0 | - | ok |"), std::string::npos) << small;
  // A fused conv stage's bracket names its own peer, cuDNN's fused graph; 14d's names plain cuDNN.
  const size_t stem = md.find("| 32,224,224,3,64,7,7 pad 3 stride 2 | 401408 x 64 x 147 |", md.find("resnet50-fused"));
  ASSERT_NE(stem, std::string::npos);
  const std::string row = md.substr(stem, md.find('\n', stem) - stem);
  EXPECT_NE(row.find("% cuDNN) |"), std::string::npos) << row;
  EXPECT_NE(row.find("% cuDNN fused) |"), std::string::npos) << row;
}

// {ref STAGE} names the reference the stage's ratio divides by: stage 14e's is cuDNN's fused graph
// (its row's cudnn_ms is the fused graph's time, timed in turns), 14d's plain cuDNN.
TEST(Placeholders, AFusedConvStagesReferenceIsCudnnFused) {
  std::vector<std::string> problems;
  const std::vector<BenchResults> shipped = load_results_dir(kAssets + "/results", &problems);
  EXPECT_TRUE(problems.empty());
  const FilledText f = fill_placeholders("{ref conv-wgmma-fused}, {ref conv-wgmma}", results_sources({}, shipped));
  EXPECT_EQ(f.markdown, "cuDNN fused, cuDNN");
  EXPECT_TRUE(f.missing.empty());
}

TEST(Placeholders, TheCheckerRefusesWhatNoShippedFileResolves) {
  TempCourse t({{"lesson.toml", kTwoSteps},
                {"en.md", "## First\n{ratio persistent 8192} on {device}\n## Second\n{ratio persistent 123x45x6}\n"},
                {"en.notes.md", "## Second\n{ratio persistent}\n"}});
  const Course c = t.load();
  ASSERT_EQ(errors_of(c), "");
  const std::vector<BenchResults> shipped = {results_of("NVIDIA H200", 1.0, 1.05)};
  std::string e;
  for (const auto& d : check_placeholders(c, results_sources({}, shipped))) e += d.text() + "\n";
  EXPECT_EQ(e.find("en.md:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("en.md:4: no shipped results file resolves {ratio persistent 123x45x6}: the results of NVIDIA "
                   "H200 have no persistent row at 123x45x6; name a stage and size"), std::string::npos) << e;
  EXPECT_NE(e.find("en.notes.md:2: {ratio persistent} needs a stage and a size"), std::string::npos) << e;
}

TEST(ResultsMarkdown, StagesAreNamedByTheirLessonsNumber) {
  EXPECT_EQ(stage_label("double-buffer"), "6 double-buffer");
  EXPECT_EQ(stage_label("split-k"), "13a split-k");
  EXPECT_EQ(stage_label("stream-k"), "13b stream-k");
  EXPECT_EQ(stage_label("no-such-stage"), "no-such-stage");
  EXPECT_EQ(stages_taught_by("13-split-k-stream-k"), (std::vector<std::string>{"split-k", "stream-k"}));
  EXPECT_EQ(stages_taught_by("01-problem"), std::vector<std::string>{});
}

TEST(ResultsMarkdown, TheCommittedFileIsTheGeneratedOne) {
  std::vector<std::string> problems;
  const auto sets = load_results_dir(kAssets + "/results", &problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_FALSE(sets.empty());
  std::ifstream in(kAssets + "/results/RESULTS.md");
  const std::string committed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(committed, results_markdown(sets))
      << "assets/results/RESULTS.md is not what the results JSON give: run gemmlab results --markdown";
  // Every row of every file is in it, by its label.
  const std::string md = results_markdown(sets);
  EXPECT_NE(md.find("| 6 double-buffer | fp32 |"), std::string::npos);
  EXPECT_NE(md.find("## NVIDIA H200"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::app
