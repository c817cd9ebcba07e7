#include "model/markdown_doc.h"

#include <md4c.h>

#include "model/input_limits.h"
#include "model/text_breaks.h"

namespace gemmlab::app {
namespace {

struct ListLevel {
  bool ordered = false;
  unsigned next = 1;
};

struct Builder {
  std::vector<MdBlock> blocks;
  std::vector<ListLevel> lists;
  int quote_depth = 0;
  std::string pending_bullet;  // for the next block that opens inside a list item
  bool block_open = false;     // spans go to blocks.back()
  bool in_table = false, in_cell = false;
  unsigned style = kMdPlain;
  std::string href;
  int image_depth = 0;  // alt text of an image goes into that image span
  // A soft line break (a newline inside a paragraph) is a space, except between two wide
  // characters or next to fullwidth punctuation: Chinese runs on without spaces, so a line wrapped
  // in the source must add none. It waits for what follows to decide, and keeps the style and
  // link it was met in.
  bool soft_break = false;
  unsigned soft_break_style = kMdPlain;
  std::string soft_break_href;

  MdBlock& open(MdBlock::Kind kind) {
    MdBlock b;
    b.kind = kind;
    b.list_depth = static_cast<int>(lists.size());
    b.quote_depth = quote_depth;
    b.bullet = std::move(pending_bullet);
    pending_bullet.clear();
    blocks.push_back(std::move(b));
    block_open = true;
    soft_break = false;
    return blocks.back();
  }

  std::vector<MdSpan>& spans() {
    MdBlock& b = blocks.back();
    if (in_table) return b.rows.back().back();
    return b.spans;
  }

  void break_softly() {
    soft_break = true;
    soft_break_style = style;
    soft_break_href = href;
  }
  // Before `next` (empty: an image or a hard break) is added after a soft break.
  void settle_soft_break(const std::string& next) {
    if (!soft_break) return;
    soft_break = false;
    const auto& s = spans();
    const bool after_text = !s.empty() && !s.back().image && !s.back().line_break;
    const char32_t before = after_text ? last_code_point(s.back().text) : 0;
    int len = 0;
    const char32_t after = next.empty() ? 0 : decode_utf8(next.data(), next.data() + next.size(), &len);
    const bool no_space = (is_wide(before) && is_wide(after)) || is_wide_punctuation(before) ||
                          is_wide_punctuation(after);
    if (before && after && no_space) return;
    append(" ", soft_break_style, soft_break_href);
  }

  void add_text(const std::string& text, unsigned extra_style = 0) {
    if (in_table && !in_cell) return;
    if (!block_open && !in_table) open(MdBlock::Kind::Paragraph);  // tight list items have no <p>
    if (blocks.back().kind == MdBlock::Kind::Code) {
      blocks.back().code += text;
      return;
    }
    auto& s = spans();
    if (image_depth > 0 && !s.empty() && s.back().image) {
      s.back().text += text;
      return;
    }
    settle_soft_break(text);
    append(text, style | extra_style, href);
  }

  void append(const std::string& text, unsigned st, const std::string& link) {
    auto& s = spans();
    if (!s.empty() && !s.back().image && !s.back().line_break && s.back().style == st && s.back().href == link) {
      s.back().text += text;
      return;
    }
    MdSpan span;
    span.text = text;
    span.style = st;
    span.href = link;
    s.push_back(std::move(span));
  }
};

std::string attr(const MD_ATTRIBUTE& a) { return std::string(a.text, a.size); }

std::string decode_entity(const std::string& e) {
  if (e == "&amp;") return "&";
  if (e == "&lt;") return "<";
  if (e == "&gt;") return ">";
  if (e == "&quot;") return "\"";
  if (e == "&nbsp;") return " ";
  if (e == "&times;") return "\xC3\x97";
  if (e == "&rarr;") return "\xE2\x86\x92";
  return e;
}

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_BLOCK_UL: b.lists.push_back({false, 1}); break;
    case MD_BLOCK_OL:
      b.lists.push_back({true, static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start});
      break;
    case MD_BLOCK_LI:
      b.block_open = false;
      if (!b.lists.empty()) {
        auto& l = b.lists.back();
        b.pending_bullet = l.ordered ? std::to_string(l.next++) + "." : "\xE2\x80\xA2";
      }
      break;
    case MD_BLOCK_QUOTE: ++b.quote_depth; b.block_open = false; break;
    case MD_BLOCK_P: b.open(MdBlock::Kind::Paragraph); break;
    case MD_BLOCK_H:
      b.open(MdBlock::Kind::Heading).heading_level =
          static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
      break;
    case MD_BLOCK_CODE:
      b.open(MdBlock::Kind::Code).code_lang = attr(static_cast<MD_BLOCK_CODE_DETAIL*>(detail)->lang);
      break;
    case MD_BLOCK_HR: b.open(MdBlock::Kind::Rule); b.block_open = false; break;
    case MD_BLOCK_TABLE: b.open(MdBlock::Kind::Table); b.in_table = true; break;
    case MD_BLOCK_TR: if (b.in_table) b.blocks.back().rows.emplace_back(); break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (b.in_table && !b.blocks.back().rows.empty()) {
        b.blocks.back().rows.back().emplace_back();
        b.in_cell = true;
      }
      break;
    default: break;
  }
  return 0;
}

int leave_block(MD_BLOCKTYPE type, void*, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      if (!b.lists.empty()) b.lists.pop_back();
      b.block_open = false;
      break;
    case MD_BLOCK_LI: b.block_open = false; b.pending_bullet.clear(); break;
    case MD_BLOCK_QUOTE: --b.quote_depth; b.block_open = false; break;
    case MD_BLOCK_P:
    case MD_BLOCK_H:
    case MD_BLOCK_CODE: b.block_open = false; break;
    case MD_BLOCK_TABLE: b.in_table = false; b.block_open = false; break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: b.in_cell = false; break;
    default: break;
  }
  return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_SPAN_STRONG: b.style |= kMdStrong; break;
    case MD_SPAN_EM: b.style |= kMdEmphasis; break;
    case MD_SPAN_CODE: b.style |= kMdCode; break;
    case MD_SPAN_DEL: b.style |= kMdStrike; break;
    case MD_SPAN_A:
      b.style |= kMdLink;
      b.href = attr(static_cast<MD_SPAN_A_DETAIL*>(detail)->href);
      break;
    case MD_SPAN_IMG: {
      if (b.in_table && !b.in_cell) break;
      if (!b.block_open && !b.in_table) b.open(MdBlock::Kind::Paragraph);
      b.settle_soft_break("");
      MdSpan img;
      img.image = true;
      img.href = attr(static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src);
      b.spans().push_back(std::move(img));
      ++b.image_depth;
      break;
    }
    default: break;
  }
  return 0;
}

int leave_span(MD_SPANTYPE type, void*, void* user) {
  auto& b = *static_cast<Builder*>(user);
  switch (type) {
    case MD_SPAN_STRONG: b.style &= ~kMdStrong; break;
    case MD_SPAN_EM: b.style &= ~kMdEmphasis; break;
    case MD_SPAN_CODE: b.style &= ~kMdCode; break;
    case MD_SPAN_DEL: b.style &= ~kMdStrike; break;
    case MD_SPAN_A: b.style &= ~kMdLink; b.href.clear(); break;
    case MD_SPAN_IMG: --b.image_depth; break;
    default: break;
  }
  return 0;
}

int text(MD_TEXTTYPE type, const MD_CHAR* data, MD_SIZE size, void* user) {
  auto& b = *static_cast<Builder*>(user);
  const std::string s(data, size);
  switch (type) {
    case MD_TEXT_BR:
      if (b.block_open && !b.in_table) {
        b.soft_break = false;
        MdSpan br;
        br.line_break = true;
        b.spans().push_back(br);
      }
      break;
    case MD_TEXT_SOFTBR: b.break_softly(); break;
    case MD_TEXT_ENTITY: b.add_text(decode_entity(s)); break;
    case MD_TEXT_NULLCHAR: break;
    default: b.add_text(s); break;
  }
  return 0;
}

}  // namespace

std::vector<MdBlock> parse_markdown(const std::string& markdown) {
  if (const NestingProblem deep = markdown_nesting_problem(markdown); !deep.empty()) {
    MdBlock refused;  // `lessons --check` names it; the panel says so instead of parsing it
    refused.spans.push_back({"[not shown: line " + std::to_string(deep.line) + " " + deep.message + "]", kMdPlain, "", false, false});
    return {refused};
  }
  Builder b;
  MD_PARSER parser{};
  parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTML;
  parser.enter_block = enter_block;
  parser.leave_block = leave_block;
  parser.enter_span = enter_span;
  parser.leave_span = leave_span;
  parser.text = text;
  md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &b);
  // Code blocks end with the newline of their last line; the panel draws lines, not a trailer.
  for (auto& blk : b.blocks)
    while (!blk.code.empty() && blk.code.back() == '\n') blk.code.pop_back();
  return std::move(b.blocks);
}

}  // namespace gemmlab::app
