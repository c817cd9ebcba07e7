// md4c -> blocks: the structure the lesson panel draws.
#include <gtest/gtest.h>

#include "model/markdown_doc.h"

namespace gemmlab::app {
namespace {

TEST(MarkdownDoc, ParagraphWithStyles) {
  const auto b = parse_markdown("Text with **bold**, *em*, `code` and [a link](http://x).\n");
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(b[0].kind, MdBlock::Kind::Paragraph);
  const auto& s = b[0].spans;
  ASSERT_EQ(s.size(), 9u);
  EXPECT_EQ(s[0].text, "Text with ");
  EXPECT_EQ(s[1].text, "bold");
  EXPECT_EQ(s[1].style, kMdStrong);
  EXPECT_EQ(s[3].style, kMdEmphasis);
  EXPECT_EQ(s[5].text, "code");
  EXPECT_EQ(s[5].style, kMdCode);
  EXPECT_EQ(s[7].style, kMdLink);
  EXPECT_EQ(s[7].href, "http://x");
}

TEST(MarkdownDoc, ListsHeadingsCodeImagesTables) {
  const auto b = parse_markdown(
      "### Small heading\n\n- one\n- two\n  1. nested\n\n```cpp\nint x;\nint y;\n```\n\n"
      "![alt text](images/a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
  ASSERT_EQ(b.size(), 7u);
  EXPECT_EQ(b[0].kind, MdBlock::Kind::Heading);
  EXPECT_EQ(b[0].heading_level, 3);
  EXPECT_EQ(b[1].bullet, "\xE2\x80\xA2");
  EXPECT_EQ(b[1].list_depth, 1);
  EXPECT_EQ(b[2].spans[0].text, "two");
  EXPECT_EQ(b[3].bullet, "1.");
  EXPECT_EQ(b[3].list_depth, 2);
  EXPECT_EQ(b[4].kind, MdBlock::Kind::Code);
  EXPECT_EQ(b[4].code, "int x;\nint y;");
  EXPECT_EQ(b[4].code_lang, "cpp");
  ASSERT_EQ(b[5].spans.size(), 1u);
  EXPECT_TRUE(b[5].spans[0].image);
  EXPECT_EQ(b[5].spans[0].href, "images/a.png");
  EXPECT_EQ(b[5].spans[0].text, "alt text");
  EXPECT_EQ(b[6].kind, MdBlock::Kind::Table);
  ASSERT_EQ(b[6].rows.size(), 2u);
  EXPECT_EQ(b[6].rows[1][1][0].text, "2");
}

TEST(MarkdownDoc, ChineseTextKeepsItsBytes) {
  const auto b = parse_markdown("按 **空格** 播放。\n");
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].spans[0].text, "按 ");
  EXPECT_EQ(b[0].spans[1].text, "空格");
  EXPECT_EQ(b[0].spans[2].text, " 播放。");
}

}  // namespace
}  // namespace gemmlab::app
