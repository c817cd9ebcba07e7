// What a line of a stage's source moves (model/code_links.h): the lines of the shipped stages
// that address memory open a view, with settings a lesson step could have written.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "model/code_links.h"
#include "model/settings_schema.h"
#include "model/stage_source.h"

using namespace gemmlab::app;

TEST(CodeLinks, InstructionsOpenTheViewThatDrawsThem) {
  auto link = code_link("      ldmatrix_x4(a[mi], smem_a + offset);");
  ASSERT_TRUE(link);
  EXPECT_EQ(link->view, "fragments");
  EXPECT_EQ(link->settings["op"], "ldsm.x4");
  link = code_link(R"(  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "...)");
  ASSERT_TRUE(link);
  EXPECT_EQ(link->settings["op"], "wgmma.m64n256k16.f16");
  EXPECT_EQ(link->settings["operand"], "c");
  EXPECT_EQ(code_link("  tma_load_2d(&map_a, full[s], smem_a, k0, m0);")->view, "gmma");
  EXPECT_EQ(code_link("    cp_async_16(dst, src, valid);")->view, "threadmap");
  EXPECT_EQ(code_link("  const int o = swizzle(row, chunk);")->view, "banks");
  EXPECT_FALSE(code_link("  // ldmatrix_x4 loads four 8x8 matrices"));  // a comment moves nothing
  EXPECT_FALSE(code_link("  float acc = 0.f;"));
}

// Every link found in the shipped stages carries settings the lesson format accepts for its view,
// and the stages that use each instruction have at least one such line.
TEST(CodeLinks, EveryLinkOfTheShippedStagesIsAValidStep) {
  std::map<std::string, int> by_view;
  for (const char* stage : {"mma-sync", "ldmatrix", "smem-swizzle", "multistage", "tma", "wgmma", "conv-int4", "conv-int8"}) {
    auto src = load_stage_source(GEMMLAB_ROOT_DIR, stage);
    ASSERT_TRUE(src) << src.error();
    for (const auto& f : src->files)
      for (const auto& l : f.lines)
        if (auto link = code_link(l.text)) {
          ++by_view[link->view];
          for (const auto& [key, value] : link->settings.items())
            EXPECT_FALSE(check_view_setting(link->view, key, value)) << l.text << ": " << *check_view_setting(link->view, key, value);
          EXPECT_FALSE(link->what.empty());
        }
  }
  EXPECT_GT(by_view["fragments"], 3);
  EXPECT_GT(by_view["gmma"], 0);
  EXPECT_GT(by_view["threadmap"], 0);
  EXPECT_GT(by_view["banks"], 0);
}
