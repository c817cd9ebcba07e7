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

// A newline inside a paragraph is a space, except between two wide characters or next to fullwidth
// punctuation: a Chinese line wrapped in the source must not show a gap where it was wrapped.
TEST(MarkdownDoc, SoftBreakBetweenChineseCharactersAddsNoSpace) {
  const auto text = [](const char* md) {
    const std::vector<MdBlock> blocks = parse_markdown(md);
    std::string all;
    for (const MdSpan& s : blocks.at(0).spans) all += s.image ? "[img]" : s.text;
    return all;
  };
  EXPECT_EQ(text("English\nnext line\n"), "English next line");
  EXPECT_EQ(text("中文\n继续\n"), "中文继续");
  EXPECT_EQ(text("句号。\n下一句，\n（括号）\n"), "句号。下一句，（括号）");
  EXPECT_EQ(text("中文\nEnglish\n"), "中文 English");  // next to Latin text the space stays
  EXPECT_EQ(text("tile\n中文\n"), "tile 中文");
  EXPECT_EQ(text("tile\n（persistent）\n"), "tile（persistent）");  // fullwidth punctuation has its own
  EXPECT_EQ(text("时实测：\nstage\n"), "时实测：stage");
  EXPECT_EQ(text("8192³\n时\n"), "8192³ 时");
  EXPECT_EQ(text("a\n![x](i.png)\n"), "a [img]");

  const auto b = parse_markdown("中文\n**粗体**\n继续\n");
  ASSERT_EQ(b[0].spans.size(), 3u);
  EXPECT_EQ(b[0].spans[0].text, "中文");
  EXPECT_EQ(b[0].spans[1].text, "粗体");
  EXPECT_EQ(b[0].spans[1].style, kMdStrong);
  EXPECT_EQ(b[0].spans[2].text, "继续");
  // The space a break between Latin words leaves keeps the style it was met in.
  const auto c = parse_markdown("**bold**\nplain\n");
  ASSERT_EQ(c[0].spans.size(), 2u);
  EXPECT_EQ(c[0].spans[1].text, " plain");
  EXPECT_EQ(c[0].spans[1].style, kMdPlain);
}

}  // namespace
}  // namespace gemmlab::app
