// A lesson's Markdown (md4c, GitHub dialect) flattened into blocks of styled text runs, ready for
// the lesson panel to lay out. No ImGui here, so the structure is testable on its own.
#pragma once
#include <string>
#include <vector>

namespace gemmlab::app {

enum MdStyle : unsigned {
  kMdPlain = 0,
  kMdStrong = 1u << 0,
  kMdEmphasis = 1u << 1,
  kMdCode = 1u << 2,
  kMdLink = 1u << 3,
  kMdStrike = 1u << 4,
};

struct MdSpan {
  std::string text;
  unsigned style = kMdPlain;
  std::string href;         // link target, or image source when `image`
  bool image = false;       // text is then the alt text
  bool line_break = false;  // a hard line break (text empty)
};

struct MdBlock {
  enum class Kind { Paragraph, Heading, Code, Rule, Table };
  Kind kind = Kind::Paragraph;
  int heading_level = 0;
  int list_depth = 0;     // nesting of lists around the block
  std::string bullet;     // "•" or "3." on the first block of a list item
  int quote_depth = 0;
  std::vector<MdSpan> spans;                              // Paragraph, Heading
  std::string code, code_lang;                            // Code
  std::vector<std::vector<std::vector<MdSpan>>> rows;     // Table: rows of cells; row 0 = header
};

std::vector<MdBlock> parse_markdown(const std::string& text);

}  // namespace gemmlab::app
