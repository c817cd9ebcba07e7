// UTF-8 and where East Asian text may break, shared by the lesson text's parser (markdown_doc:
// which source newlines are spaces), its layout (markdown_render: where a line may end) and the
// font atlas (ui_text: which glyphs to load). No ImGui here.
#pragma once
#include <string>

namespace gemmlab::app {

// The code point that starts at `s` (before `end`) and its length in bytes. A byte that starts no
// valid sequence (truncated, stray, overlong, a surrogate, past U+10FFFF) is returned as it is,
// 1 byte long: never as a space or any other ASCII character.
//   "中" (E4 B8 AD) -> 0x4E2D, 3 bytes;  "C0 A0" (an overlong space) -> 0xC0, 1 byte
char32_t decode_utf8(const char* s, const char* end, int* len);
// The last code point of `s`, 0 when it is empty.
char32_t last_code_point(const std::string& s);

// East Asian wide and fullwidth characters: Han, kana, Hangul, CJK and fullwidth punctuation.
// Text in these scripts puts no spaces between words, and a line may end after any of them.
bool is_wide(char32_t c);
// CJK and fullwidth punctuation (，。：（） ...): its glyph carries its own spacing.
bool is_wide_punctuation(char32_t c);
// Closing punctuation that must not begin a line (，。、；：？！）」』” ...): it stays with the
// character before it.
bool no_break_before(char32_t c);
// Opening punctuation that must not end a line (（「『“‘《〈【): it stays with the character after it.
bool no_break_after(char32_t c);

}  // namespace gemmlab::app
