#include "markdown_render.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <vector>

#include "fonts.h"
#include "gl_util.h"
#include "model/input_limits.h"
#include "model/text_breaks.h"

namespace gemmlab::app {
namespace {

struct Style {
  ImFont* font;
  float size;
  ImU32 color;
  bool code_bg, underline, strike;
};

Style style_for(unsigned st, ImFont* base, float base_size) {
  const FontSet& f = fonts();
  Style s{base, base_size, ImGui::GetColorU32(ImGuiCol_Text), false, false, false};
  if (st & kMdCode) {
    s.font = f.mono;
    s.size = base_size * 0.95f;
    s.color = IM_COL32(230, 200, 140, 255);
    s.code_bg = true;
  } else if (st & kMdStrong) {
    if (base == f.regular) s.font = f.bold;
  } else if (st & kMdEmphasis) {
    if (base == f.regular) s.font = f.italic;
  }
  if (st & kMdLink) {
    s.color = IM_COL32(110, 170, 255, 255);
    s.underline = true;
  }
  if (st & kMdStrike) s.strike = true;
  return s;
}

// Lays out (and draws) spans from `origin` within `width`; returns the height used.
float flow_spans(const std::vector<MdSpan>& spans, ImVec2 origin, float width, ImFont* base_font,
                 float base_size, const std::string& assets_dir) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line_h = base_size * 1.4f;
  float x = origin.x, y = origin.y;
  const float right = origin.x + std::max(width, base_size * 4);
  float pending_space = 0;
  bool line_empty = true;
  // Only lines inside the clip rectangle are drawn (all are laid out): a long text would
  // otherwise put its code backgrounds and underlines, which ImGui does not clip, past the
  // 65,536 vertices a draw list may hold with 16-bit indices.
  const float clip_top = dl->GetClipRectMin().y, clip_bottom = dl->GetClipRectMax().y;
  auto shown = [&](float top, float height) { return top <= clip_bottom && top + height >= clip_top; };
  auto new_line = [&] {
    x = origin.x;
    y += line_h;
    pending_space = 0;
    line_empty = true;
  };
  for (size_t si = 0; si < spans.size(); ++si) {
    const MdSpan& span = spans[si];
    if (span.line_break) {
      new_line();
      continue;
    }
    if (span.image) {
      const ImageTexture& tex = image_texture(assets_dir, span.href);
      if (!line_empty) new_line();
      if (!tex.name) {
        const std::string msg = "[" + tex.error + "]";
        if (shown(y, line_h)) dl->AddText(base_font, base_size, {x, y}, IM_COL32(255, 120, 120, 255), msg.c_str());
        new_line();
        continue;
      }
      const float w = std::min<float>(static_cast<float>(tex.width), right - origin.x);
      const float h = tex.height * (w / tex.width);
      if (shown(y, h + 8))
        dl->AddImage(reinterpret_cast<void*>(static_cast<intptr_t>(tex.name)), {x, y + 4}, {x + w, y + 4 + h});
      if (ImGui::IsMouseHoveringRect({x, y}, {x + w, y + h}) && !span.text.empty())
        ImGui::SetTooltip("%s", span.text.c_str());
      y += h + 8 - line_h;
      new_line();
      continue;
    }
    const Style st = style_for(span.style, base_font, base_size);
    const float space_w = st.font->CalcTextSizeA(st.size, FLT_MAX, 0, " ").x;
    const char* p = span.text.data();
    const char* end = p + span.text.size();
    bool code_run = false;  // inside one code span, spaces keep the grey background
    while (p < end) {
      // One unit: a run of spaces, one CJK character, or a word of anything else.
      int len = 0;
      char32_t cp = decode_utf8(p, end, &len);
      if (cp == ' ' || cp == '\t' || cp == '\n') {
        p += len;  // always forward, whatever the decoder calls a space
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n')) ++p;
        if (!line_empty) pending_space = space_w;
        continue;
      }
      const char* unit_end = p + len;
      if (!is_wide(cp)) {
        while (unit_end < end) {
          int l = 0;
          char32_t c2 = decode_utf8(unit_end, end, &l);
          if (c2 == ' ' || c2 == '\t' || c2 == '\n' || is_wide(c2)) break;
          unit_end += l;
        }
      }
      float w = st.font->CalcTextSizeA(st.size, FLT_MAX, 0, p, unit_end).x;
      if (!line_empty && x + pending_space + w > right && !no_break_before(cp)) new_line();
      // An opening bracket whose next character would not fit goes to the next line with it.
      if (!line_empty && no_break_after(cp) && unit_end < end) {
        int l = 0;
        decode_utf8(unit_end, end, &l);
        if (x + pending_space + w + st.font->CalcTextSizeA(st.size, FLT_MAX, 0, unit_end, unit_end + l).x > right)
          new_line();
      }
      // Punctuation that must not begin a line and would not fit after this unit: both go to the
      // next line, rather than the punctuation hanging past the edge.
      if (!line_empty && x + pending_space + w <= right) {
        const std::string* next_text = unit_end < end ? &span.text : nullptr;
        const char* q = unit_end;
        if (!next_text && si + 1 < spans.size() && !spans[si + 1].image && !spans[si + 1].line_break &&
            !spans[si + 1].text.empty()) {
          next_text = &spans[si + 1].text;
          q = next_text->data();
        }
        if (next_text) {
          const char* q_end = next_text->data() + next_text->size();
          int l = 0;
          if (no_break_before(decode_utf8(q, q_end, &l)) &&
              x + pending_space + w + st.font->CalcTextSizeA(st.size, FLT_MAX, 0, q, q + l).x > right)
            new_line();
        }
      }
      const float space_before = line_empty ? 0 : pending_space;
      x += pending_space;
      pending_space = 0;
      // A word longer than the whole line: cut it where the line ends. What is left is the word's
      // width less what was drawn, so a 1 MB word costs one pass, not one pass per line.
      while (w > right - x && unit_end - p > 1) {
        const char* cut = p;
        float cut_w = 0;
        while (cut < unit_end) {
          int l = 0;
          decode_utf8(cut, unit_end, &l);
          const float cw = st.font->CalcTextSizeA(st.size, FLT_MAX, 0, cut, cut + l).x;
          if (x + cut_w + cw > right && cut > p) break;
          cut_w += cw;
          cut += l;
        }
        if (shown(y, line_h)) dl->AddText(st.font, st.size, {x, y + (line_h - st.size) / 2}, st.color, p, cut);
        p = cut;
        new_line();
        code_run = false;
        w = std::max(0.f, w - cut_w);
      }
      const float ty = y + (line_h - st.size) / 2;
      if (shown(y, line_h)) {
        if (st.code_bg) {
          const float from = code_run ? x - space_before : x - 2;
          dl->AddRectFilled({from, ty - 1}, {x + w + 2, ty + st.size + 1}, IM_COL32(60, 60, 70, 255), 3);
        }
        dl->AddText(st.font, st.size, {x, ty}, st.color, p, unit_end);
        if (st.underline) dl->AddLine({x, ty + st.size}, {x + w, ty + st.size}, st.color);
        if (st.strike) dl->AddLine({x, ty + st.size / 2}, {x + w, ty + st.size / 2}, st.color);
        if (!span.href.empty() && ImGui::IsMouseHoveringRect({x, y}, {x + w, y + line_h}))
          ImGui::SetTooltip("%s", span.href.c_str());
      }
      code_run = st.code_bg;
      x += w;
      line_empty = false;
      p = unit_end;
    }
  }
  return line_empty ? y - origin.y : y - origin.y + line_h;
}

void code_block(const MdBlock& b, float width) {
  const FontSet& f = fonts();
  const float size = f.size * 0.95f;
  const float line_h = size * 1.3f;
  const ImVec2 pad{8, 6};
  // Lines longer than the panel wrap at the character that no longer fits, indented by two
  // characters, so no code is cut off.
  struct Piece { const char* begin; const char* end; bool continued; };
  std::vector<Piece> pieces;
  const float max_w = std::max(width - 2 * pad.x, size * 4);
  const float indent = f.mono->CalcTextSizeA(size, FLT_MAX, 0, "  ").x;
  size_t start = 0;
  while (start <= b.code.size()) {
    size_t nl = b.code.find('\n', start);
    if (nl == std::string::npos) nl = b.code.size();
    const char* p = b.code.data() + start;
    const char* end = b.code.data() + nl;
    bool continued = false;
    do {
      const char* remaining = nullptr;
      f.mono->CalcTextSizeA(size, continued ? max_w - indent : max_w, 0, p, end, &remaining);
      if (remaining == p && p < end) ++remaining;  // at least one character per piece
      pieces.push_back({p, remaining, continued});
      p = remaining;
      continued = true;
    } while (p < end);
    start = nl + 1;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float h = pieces.size() * line_h + 2 * pad.y;
  dl->AddRectFilled(p0, {p0.x + width, p0.y + h}, IM_COL32(35, 37, 45, 255), 4);
  float y = p0.y + pad.y;
  const float clip_top = dl->GetClipRectMin().y, clip_bottom = dl->GetClipRectMax().y;
  for (const auto& piece : pieces) {
    if (y <= clip_bottom && y + line_h >= clip_top)
      dl->AddText(f.mono, size, {p0.x + pad.x + (piece.continued ? indent : 0), y},
                  IM_COL32(215, 220, 230, 255), piece.begin, piece.end);
    y += line_h;
  }
  ImGui::Dummy({width, h});
}

}  // namespace

void render_markdown(const std::vector<MdBlock>& blocks, const std::string& assets_dir) {
  const FontSet& f = fonts();
  const float indent_step = f.size * 1.4f;
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    const MdBlock& b = blocks[bi];
    ImGui::PushID(static_cast<int>(bi));
    const float indent = indent_step * (b.list_depth + b.quote_depth);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float width = std::max(avail - indent, f.size * 4);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    switch (b.kind) {
      case MdBlock::Kind::Rule:
        ImGui::Separator();
        break;
      case MdBlock::Kind::Code:
        ImGui::SetCursorScreenPos({start.x + indent, start.y});
        code_block(b, width);
        break;
      case MdBlock::Kind::Table: {
        if (b.rows.empty()) break;
        size_t cols = 0;
        for (const auto& r : b.rows) cols = std::max(cols, r.size());
        ImGui::SetCursorScreenPos({start.x + indent, start.y});
        if (cols > kMaxTableColumns) {  // ImGui asserts past 64 columns; `lessons --check` names it
          ImGui::TextColored({1, 0.47f, 0.47f, 1}, "[table of %d columns not shown: at most %d]", int(cols),
                             int(kMaxTableColumns));
          break;
        }
        if (ImGui::BeginTable("##mdtable", static_cast<int>(cols),
                              ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingStretchProp,
                              {width, 0})) {
          for (size_t r = 0; r < b.rows.size(); ++r) {
            ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
            for (size_t c = 0; c < cols; ++c) {
              ImGui::TableSetColumnIndex(static_cast<int>(c));
              if (c >= b.rows[r].size()) continue;
              const ImVec2 o = ImGui::GetCursorScreenPos();
              const float h = flow_spans(b.rows[r][c], o, ImGui::GetContentRegionAvail().x,
                                         r == 0 ? f.bold : f.regular, f.size, assets_dir);
              ImGui::Dummy({1, h});
            }
          }
          ImGui::EndTable();
        }
        break;
      }
      case MdBlock::Kind::Heading:
      case MdBlock::Kind::Paragraph: {
        ImFont* font = f.regular;
        float size = f.size;
        if (b.kind == MdBlock::Kind::Heading) {
          font = b.heading_level <= 1 ? f.h1 : b.heading_level == 2 ? f.h2 : f.bold;
          size = font->FontSize;
        }
        if (!b.bullet.empty()) {
          const float bw = f.regular->CalcTextSizeA(f.size, FLT_MAX, 0, b.bullet.c_str()).x;
          dl->AddText(f.regular, f.size,
                      {start.x + indent - bw - f.size * 0.4f, start.y + (f.size * 1.4f - f.size) / 2},
                      ImGui::GetColorU32(ImGuiCol_Text), b.bullet.c_str());
        }
        const float h = flow_spans(b.spans, {start.x + indent, start.y}, width, font, size, assets_dir);
        if (b.quote_depth > 0 && ImGui::IsRectVisible({start.x, start.y}, {start.x + 1, start.y + h}))
          dl->AddRectFilled({start.x + indent - indent_step * 0.6f, start.y},
                            {start.x + indent - indent_step * 0.6f + 3, start.y + h},
                            IM_COL32(120, 120, 140, 255));
        ImGui::Dummy({avail, h});
        break;
      }
    }
    // Paragraph spacing; list items of a tight list stay closer together.
    ImGui::Dummy({1, b.list_depth > 0 ? f.size * 0.1f : f.size * 0.45f});
    ImGui::PopID();
  }
}

}  // namespace gemmlab::app
