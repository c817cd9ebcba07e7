// UTF-8 decoding and the East Asian break rules the lesson text's parser and layout share.
#include <gtest/gtest.h>

#include <string>

#include "model/text_breaks.h"

namespace gemmlab::app {
namespace {

char32_t first(const std::string& s, int* len) { return decode_utf8(s.data(), s.data() + s.size(), len); }

TEST(TextBreaks, DecodesUtf8AndSaysHowLong) {
  int len = 0;
  EXPECT_EQ(first("a", &len), U'a');
  EXPECT_EQ(len, 1);
  EXPECT_EQ(first("×", &len), U'×');  // C3 97
  EXPECT_EQ(len, 2);
  EXPECT_EQ(first("中文", &len), U'中');  // E4 B8 AD
  EXPECT_EQ(len, 3);
  EXPECT_EQ(first("𠀀", &len), char32_t(0x20000));  // F0 A0 80 80
  EXPECT_EQ(len, 4);
  EXPECT_EQ(first(std::string("\xE4\xB8"), &len), char32_t(0xE4));  // cut short: one byte, as it is
  EXPECT_EQ(len, 1);
  // Invalid sequences: each first byte alone, never the ASCII an overlong form spells.
  EXPECT_EQ(first(std::string("\xC0\x60"), &len), char32_t(0xC0));  // no continuation byte: once decoded as a space
  EXPECT_EQ(len, 1);
  EXPECT_EQ(first(std::string("\xC0\xA0"), &len), char32_t(0xC0));  // overlong space
  EXPECT_EQ(len, 1);
  EXPECT_EQ(first(std::string("\xE0\x80\x8A"), &len), char32_t(0xE0));  // overlong newline
  EXPECT_EQ(len, 1);
  EXPECT_EQ(first(std::string("\xED\xA0\x80"), &len), char32_t(0xED));  // surrogate
  EXPECT_EQ(first(std::string("\xF4\x90\x80\x80"), &len), char32_t(0xF4));  // past U+10FFFF
  EXPECT_EQ(first(std::string("\xFF"), &len), char32_t(0xFF));
  EXPECT_EQ(first(std::string("\xE4\x41\xAD"), &len), char32_t(0xE4));  // 'A' is no continuation
  EXPECT_EQ(len, 1);
  EXPECT_EQ(last_code_point("tile 中"), U'中');
  EXPECT_EQ(last_code_point("中a"), U'a');
  EXPECT_EQ(last_code_point(""), char32_t(0));
}

TEST(TextBreaks, ClassifiesWideCharactersAndPunctuation) {
  for (char32_t c : {U'中', U'文', U'，', U'。', U'（', U'）', U'：', U'か', U'한'}) EXPECT_TRUE(is_wide(c)) << unsigned(c);
  for (char32_t c : {U'a', U'3', U'³', U'×', U' ', U'-'}) EXPECT_FALSE(is_wide(c)) << unsigned(c);
  for (char32_t c : {U'，', U'。', U'、', U'（', U'）', U'：', U'「'}) EXPECT_TRUE(is_wide_punctuation(c)) << unsigned(c);
  for (char32_t c : {U'中', U'a', U'(', U'Ａ'}) EXPECT_FALSE(is_wide_punctuation(c)) << unsigned(c);
  for (char32_t c : {U'，', U'。', U'、', U'）', U'：', U'」', U'”'}) EXPECT_TRUE(no_break_before(c)) << unsigned(c);
  for (char32_t c : {U'（', U'「', U'中', U'a', U')'}) EXPECT_FALSE(no_break_before(c)) << unsigned(c);
  for (char32_t c : {U'（', U'「', U'“', U'《', U'【'}) EXPECT_TRUE(no_break_after(c)) << unsigned(c);
  for (char32_t c : {U'）', U'，', U'中', U'a', U'('}) EXPECT_FALSE(no_break_after(c)) << unsigned(c);
}

}  // namespace
}  // namespace gemmlab::app
