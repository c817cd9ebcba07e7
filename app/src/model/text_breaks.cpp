#include "model/text_breaks.h"

namespace gemmlab::app {

char32_t decode_utf8(const char* s, const char* end, int* len) {
  const unsigned char c = static_cast<unsigned char>(*s);
  *len = 1;
  const int n = c >= 0xF8 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (n <= 1 || s + n > end) return c;
  char32_t cp = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (int i = 1; i < n; ++i) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return c;
    cp = (cp << 6) | (b & 0x3F);
  }
  // An overlong form ("C0 A0" for a space) would let a stray byte act as a space or a newline.
  static constexpr char32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return c;
  *len = n;
  return cp;
}

char32_t last_code_point(const std::string& s) {
  if (s.empty()) return 0;
  size_t i = s.size() - 1;
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  int len = 0;
  return decode_utf8(s.data() + i, s.data() + s.size(), &len);
}

bool is_wide(char32_t c) {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

bool is_wide_punctuation(char32_t c) {
  return (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) ||
         (c >= 0xFF3B && c <= 0xFF40) || (c >= 0xFF5B && c <= 0xFF65);
}

bool no_break_before(char32_t c) {
  switch (c) {
    case 0xFF0C: case 0x3002: case 0x3001: case 0xFF1B: case 0xFF1A: case 0xFF1F: case 0xFF01:
    case 0xFF09: case 0x300D: case 0x300F: case 0x201D: case 0x2019: case 0x3009: case 0x300B:
      return true;
    default:
      return false;
  }
}

bool no_break_after(char32_t c) {
  switch (c) {
    case 0xFF08: case 0x300C: case 0x300E: case 0x201C: case 0x2018: case 0x300A: case 0x3008: case 0x3010:
      return true;
    default:
      return false;
  }
}

}  // namespace gemmlab::app
