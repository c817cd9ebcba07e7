// The Code view's model (model/stage_source.h): a stage's files and the lines new against the
// previous stage.
#include <gtest/gtest.h>

#include <algorithm>

#include "gemmlab/stage_desc.h"
#include "model/stage_source.h"

namespace gemmlab::app {
namespace {

TEST(StageSource, LinesNewAgainstThePrevious) {
  const std::vector<std::string> before = {"int a = 1;", "  return a;", "}"};
  const std::vector<std::string> after = {"int a = 1;", "int b = 2;", "", "}", "  return a;", "return a;"};
  // "return a;" appears twice after and once before: the second copy is new.
  EXPECT_EQ(lines_added(before, after), (std::vector<bool>{false, true, false, false, false, true}));
}

TEST(StageSource, DoubleBufferAgainstSimtTile) {
  auto s = load_stage_source(GEMMLAB_ROOT_DIR, "double-buffer");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->previous, "simt-tile");
  ASSERT_EQ(s->files.size(), 2u);
  // The row's folder, then the shared header it includes.
  EXPECT_STREQ(find_stage_desc("double-buffer")->folder, "fp32/06_double_buffer");
  EXPECT_EQ(s->files[0].path, "kernels/stages/fp32/06_double_buffer/double_buffer.cu");
  EXPECT_EQ(s->files[1].path, "kernels/stages/fp32/fp32_simt.cuh");  // the main loops it includes
  for (const auto& l : s->files[1].lines) EXPECT_FALSE(l.added) << l.text;  // simt-tile includes it too
  EXPECT_GT(s->added, 10);
  EXPECT_LT(s->added, s->total);
  // The opening comment says what the stage adds: its first line is new.
  EXPECT_TRUE(s->files[0].lines[0].added) << s->files[0].lines[0].text;
}

TEST(StageSource, HopperStagesHaveTheirHeaderToo) {
  auto s = load_stage_source(GEMMLAB_ROOT_DIR, "persistent");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->previous, "cluster");
  ASSERT_GE(s->files.size(), 2u);
  EXPECT_EQ(s->files[0].path, "kernels/stages/hopper/19_persistent/persistent.cu");
  EXPECT_EQ(s->files[1].path, "kernels/stages/hopper/19_persistent/persistent.cuh");
  // Stage 2b shares its folder with stage 2a: its previous stage is none with other files.
  auto n = load_stage_source(GEMMLAB_ROOT_DIR, "naive");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->previous, "");
  // With nothing before it, every line is new but blank lines and lone braces.
  for (const auto& l : n->files[0].lines) {
    if (!l.added) {
      EXPECT_EQ(l.text.find_first_not_of(" \t{}();"), std::string::npos) << l.text;
    }
  }
  EXPECT_GT(n->added, 20);
}

// The files come from the registry row, whatever the stage's name says: the shared headers a
// stage includes from another track's folder (stage 15 builds on the fp16 epilogue) are listed.
TEST(StageSource, FilesComeFromTheRowsFolder) {
  for (const StageDesc& d : stage_table()) {
    auto s = load_stage_source(GEMMLAB_ROOT_DIR, d.id);
    ASSERT_TRUE(s.ok()) << d.id << ": " << s.error();
    ASSERT_FALSE(s->files.empty());
    EXPECT_EQ(s->files[0].path.rfind(std::string("kernels/stages/") + d.folder + "/", 0), 0u) << s->files[0].path;
  }
  auto t = load_stage_source(GEMMLAB_ROOT_DIR, "tma");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(std::any_of(t->files.begin(), t->files.end(),
                          [](const SourceFile& f) { return f.path == "kernels/stages/hopper/tma_mainloop.cuh"; }));
}

TEST(StageSource, UnknownStageOrMissingFolderSaySo) {
  auto s = load_stage_source(GEMMLAB_ROOT_DIR, "no-such-stage");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("no stage 'no-such-stage'"), std::string::npos);
  auto m = load_stage_source("/nonexistent", "naive");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().find("/nonexistent/kernels/stages/fp32/02_naive"), std::string::npos) << m.error();
}

}  // namespace
}  // namespace gemmlab::app
