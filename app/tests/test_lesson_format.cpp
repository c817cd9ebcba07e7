// The lesson format (lessons/FORMAT.md): the fixture course loads with the settings written in
// its files, and every problem of the broken course is reported at its file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "model/lesson_format.h"
#include "model/settings_schema.h"

namespace gemmlab::app {
namespace {

const std::string kFixtures = GEMMLAB_APP_FIXTURES;
const std::string kAssets = std::string(GEMMLAB_ROOT_DIR) + "/assets";

TEST(LessonFormat, FixtureCourseLoads) {
  const Course c = load_course(kFixtures + "/course", kAssets);
  for (const auto& d : c.all_errors()) ADD_FAILURE() << d.text();
  ASSERT_EQ(c.lessons.size(), 2u);
  const Lesson& l = c.lessons[0];
  EXPECT_EQ(l.id, "01-threads");
  EXPECT_EQ(l.title_in("en"), "Who loads what");
  EXPECT_EQ(l.title_in("zh"), "谁加载什么");
  ASSERT_EQ(l.steps.size(), 3u);
  EXPECT_EQ(l.languages(), (std::vector<std::string>{"en", "zh"}));
  // Step 2 as written in 01-threads/lesson.toml.
  EXPECT_EQ(l.steps[1].view, "threadmap");
  EXPECT_EQ(l.steps[1].settings["threadmap"]["highlight_warp"], 1);
  EXPECT_EQ(l.steps[1].settings["threadmap"]["iteration"], 2);
  EXPECT_EQ(l.steps[1].settings["threadmap"]["color_by"], "warp");
  EXPECT_EQ(l.steps[1].line, 13);
  ASSERT_TRUE(l.steps[2].predict.has_value());
  EXPECT_EQ(l.steps[2].predict->quantity, "threadmap.iterations_s");
  EXPECT_EQ(l.steps[2].predict->tolerance, 0);
  // Markdown split into "## " steps, in both languages.
  ASSERT_EQ(l.text.at("en").steps.size(), 3u);
  EXPECT_EQ(l.text.at("en").title, "Who loads what");
  EXPECT_EQ(l.text.at("en").steps[0].title, "A 128 x 8 tile, 256 threads");
  EXPECT_EQ(l.text.at("en").steps[0].line, 3);
  EXPECT_EQ(l.text.at("zh").steps[1].title, "一次看一个 warp");
  // The second lesson has English only and a kernel stage.
  EXPECT_EQ(c.lessons[1].languages(), (std::vector<std::string>{"en"}));
  EXPECT_EQ(c.lessons[1].stage, "simt-tile");
  // Chinese falls back to English where a lesson has no zh.md.
  ASSERT_NE(c.lessons[1].step_text("zh", 0), nullptr);
  EXPECT_EQ(c.lessons[1].step_text("zh", 0)->title, "A thread count that does not fit");
}

bool has(const std::vector<Diagnostic>& ds, const std::string& file_suffix, int line,
         const std::string& words) {
  return std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) {
    return d.file.size() >= file_suffix.size() &&
           d.file.compare(d.file.size() - file_suffix.size(), file_suffix.size(), file_suffix) == 0 &&
           d.line == line && d.message.find(words) != std::string::npos;
  });
}

TEST(LessonFormat, BrokenCourseReportsFileAndLine) {
  const Course c = load_course(kFixtures + "/broken", kAssets);
  const auto all = c.all_errors();
  std::string listing;
  for (const auto& d : all) listing += d.text() + "\n";
  SCOPED_TRACE(listing);

  EXPECT_TRUE(has(all, "broken/course.toml", 6, "04-missing\" does not exist")) << listing;
  EXPECT_TRUE(has(all, "broken/course.toml", 7, "listed twice"));
  EXPECT_TRUE(has(all, "02-bad-toml/lesson.toml", 3, "TOML syntax"));
  EXPECT_TRUE(has(all, "03-bad-settings/lesson.toml", 5, "view must be one of"));
  EXPECT_TRUE(has(all, "03-bad-settings/lesson.toml", 7, "threadmap.map must be one of"));
  EXPECT_TRUE(has(all, "03-bad-settings/lesson.toml", 8, "threadmap.shape must be [C, S]"));
  EXPECT_TRUE(has(all, "03-bad-settings/lesson.toml", 9, "unknown key \"colour\""));
  EXPECT_TRUE(has(all, "03-bad-settings/lesson.toml", 14, "predict.quantity must be one of"));
  EXPECT_TRUE(has(all, "03-bad-settings/en.md", 3, "has 1 \"## \" sections but lesson.toml has 2"));
  EXPECT_TRUE(has(all, "03-bad-settings/en.md", 6, "image \"images/does-not-exist.png\" not found"));
  EXPECT_EQ(all.size(), 10u);

  // The good lesson is unaffected and keeps its place in the course.
  ASSERT_GE(c.lessons.size(), 4u);
  EXPECT_EQ(c.lessons[0].id, "01-good");
  EXPECT_TRUE(c.lessons[0].ok());
  EXPECT_EQ(c.lessons[3].id, "04-missing");
  EXPECT_FALSE(c.lessons[3].ok());
}

TEST(LessonFormat, MissingCourseFile) {
  const Course c = load_course(kFixtures + "/course/01-threads", kAssets);
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_NE(c.errors[0].message.find("needs course.toml"), std::string::npos);
  const Course none = load_course(kFixtures + "/no-such-folder", kAssets);
  ASSERT_EQ(none.errors.size(), 1u);
  EXPECT_NE(none.errors[0].message.find("not a folder"), std::string::npos);
}

TEST(LessonFormat, HeadingsInsideCodeBlocksAreNotSteps) {
  const LessonText t = split_lesson_markdown(
      "# Title\nintro line\n\n## One\ntext\n```\n## not a step\n```\n## Two\nmore\n", "x.md");
  EXPECT_EQ(t.title, "Title");
  EXPECT_EQ(t.intro, "intro line");
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[0].title, "One");
  EXPECT_EQ(t.steps[0].markdown, "text\n```\n## not a step\n```");
  EXPECT_EQ(t.steps[1].title, "Two");
  EXPECT_EQ(t.steps[1].line, 9);
}

TEST(SettingsSchema, FormatTableValues) {
  EXPECT_FALSE(check_view_setting("grid", "order", "identity:4"));
  EXPECT_FALSE(check_view_setting("grid", "order", "along-m:8"));
  EXPECT_FALSE(check_view_setting("grid", "order", "serpentine"));
  EXPECT_TRUE(check_view_setting("grid", "order", "identity"));
  EXPECT_TRUE(check_view_setting("grid", "order", "identity:0"));
  EXPECT_TRUE(check_view_setting("grid", "order", "diagonal:2"));
  EXPECT_FALSE(check_view_setting("pipeline", "kind", "multistage:3"));
  EXPECT_FALSE(check_view_setting("banks", "element_bits", 16));
  EXPECT_TRUE(check_view_setting("banks", "element_bits", 12));
  EXPECT_FALSE(check_view_setting("banks", "swizzle", Json::array({3, 3, 3})));
  EXPECT_FALSE(check_view_setting("grid", "time", 0.5));
  EXPECT_TRUE(check_view_setting("grid", "time", 1.5));
  EXPECT_FALSE(check_view_setting("kernels", "stages", Json::array({"naive", "cublas-fp32"})));
  EXPECT_TRUE(check_view_setting("kernels", "stages", Json::array({"fastest"})));
  EXPECT_TRUE(check_view_setting("fragments", "op", "ldsm.x3"));
  EXPECT_TRUE(check_view_setting("measured", "csv", 3));
}

TEST(StageRegistry, MatchesStagesDef) {
  // Every GEMMLAB_STAGE( line of sim/device/gemmlab/stages.def, counted from the file itself.
  std::ifstream in(std::string(GEMMLAB_ROOT_DIR) + "/sim/device/gemmlab/stages.def");
  std::string line, first_id;
  size_t lines = 0;
  while (std::getline(in, line))
    if (line.rfind("GEMMLAB_STAGE(", 0) == 0) ++lines;
    else if (const size_t at = line.find(".id = \""); at != std::string::npos && first_id.empty())
      first_id = line.substr(at + 7, line.find('"', at + 7) - at - 7);
  const auto s = stage_table();
  ASSERT_GT(lines, 0u);
  ASSERT_EQ(s.size(), lines);
  EXPECT_EQ(s.front().id, first_id);
  ASSERT_NE(find_stage_desc("simt-tile"), nullptr);
  EXPECT_EQ(find_stage_desc("simt-tile")->tile_m, 128);
  EXPECT_EQ(find_stage_desc("simt-tile")->track, StageTrack::fp32);
}

}  // namespace
}  // namespace gemmlab::app

namespace gemmlab::app {
namespace {

TEST(PredictSpec, AcceptsWithinTheTolerance) {
  PredictSpec exact;  // integer answers: wavefronts, lanes, blocks
  EXPECT_TRUE(exact.accepts(4, 4.0));
  EXPECT_FALSE(exact.accepts(5, 4.0));
  EXPECT_FALSE(exact.accepts(3.99, 4.0));
  PredictSpec rate;
  rate.tolerance = 2.0;  // a hit rate in percent
  EXPECT_TRUE(rate.accepts(80.0, 81.5));
  EXPECT_TRUE(rate.accepts(83.5, 81.5));
  EXPECT_FALSE(rate.accepts(84.0, 81.5));
}

}  // namespace
}  // namespace gemmlab::app
