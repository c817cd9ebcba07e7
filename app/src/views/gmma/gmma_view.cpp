// View 9, "TMA / GMMA": a wgmma operand tile as the TMA writes it and the tensor cores read it.
// Left, the tile in its own coordinates (rows = M or N, columns = K), each cell coloured by the
// bank group (16 bytes = 4 of the 32 banks) its element lands in; the core matrices of the chosen
// wgmma k step outlined. Right, shared memory in 128-byte lines (32 banks across), each 16-byte
// chunk labelled with the first element it holds. Hover either side and the other lights up.
// Above, the matrix descriptor of that k step. Every number from gemmlab/gmma_analysis.h.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/gmma_analysis.h"
#include "gemmlab/tma_map.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct GmmaUiState {
  std::string swizzle = "128B";
  std::string major = "K";
  int shape[2] = {64, 64};  // rows (M or N) x K
  int element_bits = 16;
  int k_step = 0;           // which 32-byte k step's descriptor and core matrices
  int operand_rows = 64;    // 64 for A, N for B
  int select[2] = {-1, -1};  // an element to follow (-1: none)
  // The TMA box this tile is: the operand's extent (inner = the span's direction, outer) and the
  // box's start in it; global[0] == 0: not shown.
  int global[2] = {0, 0};
  int start[2] = {0, 0};
  CanvasState tile_canvas, smem_canvas;
};

class GmmaLayoutView final : public View {
 public:
  const char* id() const override { return "gmma"; }

  void apply(const Json& s) override {
    ui_ = GmmaUiState{};
    if (s.contains("swizzle")) ui_.swizzle = s["swizzle"];
    if (s.contains("major")) ui_.major = s["major"];
    if (s.contains("shape")) ui_.shape[0] = s["shape"][0], ui_.shape[1] = s["shape"][1];
    if (s.contains("element_bits")) ui_.element_bits = s["element_bits"];
    if (s.contains("k_step")) ui_.k_step = s["k_step"];
    if (s.contains("operand_rows")) ui_.operand_rows = s["operand_rows"];
    if (s.contains("select")) ui_.select[0] = s["select"][0], ui_.select[1] = s["select"][1];
    if (s.contains("global")) ui_.global[0] = s["global"][0], ui_.global[1] = s["global"][1];
    if (s.contains("start")) ui_.start[0] = s["start"][0], ui_.start[1] = s["start"][1];
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    auto t = layout();
    if (!t) return Error{t.error()};
    if (spec.quantity == "gmma.offset") {
      const Json& e = spec.extra.at("element");
      const int r = e[0].get<int>(), c = e[1].get<int>();
      if (r < 0 || r >= t->rows || c < 0 || c >= t->cols) return Error{"the element is outside the tile"};
      return double(t->offset(r, c));
    }
    if (spec.quantity == "gmma.stride_bytes") {
      auto d = describe();
      if (!d) return Error{d.error()};
      return double(d->stride);
    }
    return View::predict(spec);
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    out["swizzle"] = ui_.swizzle;
    out["major"] = ui_.major;
    out["shape"] = {ui_.shape[0], ui_.shape[1]};
    out["element_bits"] = ui_.element_bits;
    auto t = layout();
    if (!t) {
      out["error"] = t.error();
      return out;
    }
    out["offsets"] = gmma_layout_offsets(*t);
    if (auto d = describe()) {
      char hex[24];
      std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(d->bits));
      out["descriptor"] = {{"k_step", ui_.k_step},          {"hex", hex},
                           {"start_bytes", d->start},        {"leading_bytes", d->leading},
                           {"stride_bytes", d->stride},      {"layout", d->layout_field}};
    }
    return out;
  }

  void draw(ViewContext&) override {
    draw_controls();
    auto t = layout();
    if (!t) {
      error_box(t.error());
      return;
    }
    // The repeat is the stride byte offset of a K-major swizzled tile: hidden while it is asked.
    const std::string repeat = shows("gmma.stride") ? std::to_string(gmma::repeat_bytes(t->swizzle)) : "?";
    ImGui::TextWrapped(tr("atom %d x %d elements (rows x K), one swizzle repeat = %s bytes; tile %d bytes"), t->atom_rows(),
                t->atom_cols(), repeat.c_str(), t->bytes());
    auto d = describe();
    if (!d) {
      error_box(d.error());
    } else if (shows("gmma.stride")) {
      ImGui::TextWrapped(tr("descriptor of k step %d (rows 0..%d): 0x%016llx  start %u B, leading %u B, stride %u B, layout %d"),
                  ui_.k_step, d->rows - 1, static_cast<unsigned long long>(d->bits), d->start, d->leading, d->stride,
                  d->layout_field);
    } else {
      ImGui::TextWrapped(tr("descriptor of k step %d: start %u B, leading %u B, stride ? B (your prediction; press Reveal)"),
                  ui_.k_step, d->start, d->leading);
    }
    note_text(tr("Above, colour = the bank group an element lands in (16 bytes = banks 4g..4g+3): the 8 rows of a core "
              "matrix (outlined: what one wgmma k step reads) must show 8 colours to be read in one pass. Below, "
              "colour = which 16-byte piece of its row a chunk holds: the swizzle's permutation."));
    legend_ids(tr("bank group g (banks 4g..4g+3) above, 16-byte piece below"), 8);
    std::optional<tma::BoxCopy> box;
    if (ui_.global[0] > 0) {
      auto b = box_copy(*t);
      if (!b) {
        error_box(tr("as a TMA box: ") + b.error());
      } else {
        box = std::move(*b);
        ImGui::TextWrapped(tr("TMA box at (%lld, %lld) of a %d x %d operand: %lld of %zu elements inside; the rest (hatched) "
                    "are written as zeros, and expect_tx still counts all %d bytes"),
                    box->x0, box->y0, ui_.global[0], ui_.global[1], box->in_bounds, box->elements.size(),
                    box->transaction_bytes);
      }
    }
    const std::vector<SmemChunk> chunks = gmma_smem_chunks(*t);
    // Tile above, shared memory below: both are wide (K or 32 banks across), and the 16-byte chunks
    // need the whole width for their labels.
    const float h = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("##tile", {0, h * 0.42f}, true);
    ImGui::TextWrapped("%s", tr("the tile: rows (M or N) down, K across"));
    const std::optional<Hover> from_tile = draw_tile(*t, d ? &*d : nullptr, box ? &*box : nullptr, hover_);
    ImGui::EndChild();
    ImGui::BeginChild("##smem", {0, 0}, true);
    ImGui::TextWrapped("%s", tr("shared memory: 128-byte lines of eight 16-byte chunks (4 banks each)"));
    const std::optional<Hover> from_smem = draw_smem(*t, chunks, hover_);
    ImGui::EndChild();
    hover_ = from_tile ? from_tile : from_smem;
  }

 private:
  struct Hover {
    int row = 0, col = 0;  // an element (for a chunk: its first)
  };

  Expected<gmma::TileLayout> layout() const {
    auto s = parse_gmma_swizzle(ui_.swizzle);
    if (!s) return Error{s.error()};
    auto m = parse_gmma_major(ui_.major);
    if (!m) return Error{m.error()};
    return make_gmma_layout(*s, *m, ui_.element_bits, ui_.shape[0], ui_.shape[1]);
  }
  Expected<OperandDescriptor> describe() const {
    auto t = layout();
    if (!t) return Error{t.error()};
    const int k_step = 256 / t->element_bits;
    return describe_gmma_operand(*t, 0, std::min(ui_.operand_rows, t->rows), ui_.k_step * k_step);
  }

  // The tile as one TMA box of an operand of ui_.global (inner dimension = the span's: K for
  // K-major, M or N for MN-major), or why it cannot be one.
  Expected<tma::BoxCopy> box_copy(const gmma::TileLayout& t) const {
    tma::TensorMap2D map;
    const bool k_major = t.major == gmma::Major::K;
    map.dims[0] = ui_.global[0];
    map.dims[1] = ui_.global[1];
    map.element_bits = t.element_bits;
    map.row_stride_bytes = (1LL * ui_.global[0] * t.element_bits / 8 + 15) / 16 * 16;
    map.box[0] = k_major ? t.cols : t.rows;
    map.box[1] = k_major ? t.rows : t.cols;
    map.swizzle = t.swizzle;
    return tma::copy_box(map, ui_.start[0], ui_.start[1]);
  }
  // Is tile element (r, c) inside the operand (true when no box is shown)?
  static bool inside(const gmma::TileLayout& t, const tma::BoxCopy* box, int r, int c) {
    if (!box) return true;
    const bool k_major = t.major == gmma::Major::K;
    const int i = k_major ? c : r, j = k_major ? r : c;
    return box->elements[static_cast<size_t>(j) * box->map.box[0] + i].in_bounds;
  }

  // While gmma.offset is asked: every element of the asked element's 128-byte line. Its chunk's
  // colour gives its bank group away, and so do the other seven chunks of the line by elimination
  // (issue 47: lesson 15 step 2's row 3); the line in shared memory is blank too (in_secret_line).
  bool secret(const gmma::TileLayout& t, int r, int c) const {
    if (!masked("gmma.offset") || !hides("gmma.element_place")) return false;
    const Json& e = mask()->extra.at("element");
    const int sr = e[0].get<int>(), sc = e[1].get<int>();
    if (sr < 0 || sr >= t.rows || sc < 0 || sc >= t.cols) return false;
    return t.byte_offset(sr, sc) / 128 == t.byte_offset(r, c) / 128;
  }

  void draw_controls() {
    combo_string(tr("swizzle"), &ui_.swizzle, {"none", "32B", "64B", "128B"}, 5);
    ImGui::SameLine();
    combo_string(tr("major"), &ui_.major, {"K", "MN"}, 3);
    ImGui::SameLine();
    input_int2(tr("rows, K"), ui_.shape, 1, 1024);
    ImGui::SameLine();
    static const std::vector<std::string> bits = {"8", "16", "32"};
    std::string b = std::to_string(ui_.element_bits);
    if (combo_string(tr("element bits"), &b, bits, 3)) ui_.element_bits = std::stoi(b);
    ImGui::SameLine();
    input_int(tr("k step"), &ui_.k_step, 0, 64, 3);
    help_marker(tr("K-major: K runs along each 16..128-byte span (how the TMA writes a box of K-contiguous rows). "
                "MN-major: M or N runs along it. The swizzle XORs the 16-byte chunk index with the row index "
                "within 8 rows (Swizzle<B,4,3> on bytes). A k step is what one wgmma m64nNk16 reads: 32 bytes of K."));
  }

  std::optional<Hover> draw_tile(const gmma::TileLayout& t, const OperandDescriptor* d, const tma::BoxCopy* box,
                                 const std::optional<Hover>& hl) {
    const int rows = t.rows, cols = t.cols;
    const float font = ImGui::GetFontSize();
    // Cells up to 4x wider than tall where the panel is wide: the tile fills it instead of a
    // square in its middle, and the K axis has room for its values.
    const float margin = font * 2.5f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float per_x = (avail.x - 2 * margin) / float(cols), per_y = (avail.y - 2 * margin) / float(rows);
    const float stretch = std::clamp(per_x / std::max(per_y, 1e-3f), 1.f, 4.f);
    Canvas cv("##gmma_tile", ui_.tile_canvas, float(cols), float(rows), {0, 0}, margin, stretch);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(float(rows), float(cols), 1, tr("K, elements"));
    cv.axis_y(0, float(rows), 1, tr("row"));
    const int per_chunk = 128 / t.element_bits;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const ImVec2 a = cv.to_screen(float(c), float(r)), b = cv.to_screen(float(c + 1), float(r + 1));
        if (b.x < cv.min().x || a.x > cv.max().x || b.y < cv.min().y || a.y > cv.max().y) continue;
        if (secret(t, r, c)) {
          dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 255));  // the line the asked element is in, blank
          continue;
        }
        const long long byte = t.byte_offset(r, c);
        Rgba col = id_color(int((byte / 16) % 8));
        if (hl && !same_chunk(t, *hl, r, c)) col = dim(col, 0.55f);
        dl->AddRectFilled(a, b, col);
        if (!inside(t, box, r, c)) {  // outside the operand: the TMA's zero fill
          dl->AddRectFilled(a, b, IM_COL32(20, 20, 24, 170));
          dl->AddLine(a, b, IM_COL32(230, 230, 230, 200), 1);
        }
      }
    cv.draw_grid_lines(0, 0, cols, rows, 5);
    // Chunk boundaries (16 bytes along the span) and 8-row groups.
    const bool k_major = t.major == gmma::Major::K;
    for (int c = 0; c <= cols; c += k_major ? per_chunk : 8)
      dl->AddLine(cv.to_screen(float(c), 0), cv.to_screen(float(c), float(rows)), IM_COL32(20, 20, 24, 200), 1.5f);
    for (int r = 0; r <= rows; r += k_major ? 8 : per_chunk)
      dl->AddLine(cv.to_screen(0, float(r)), cv.to_screen(float(cols), float(r)), IM_COL32(20, 20, 24, 200), 1.5f);
    if (d)
      for (const CoreMatrix& m : d->cores) {
        const int w = k_major ? per_chunk : 8;  // a core matrix: 8 rows x 16 bytes
        const ImVec2 a = cv.to_screen(float(m.k0), float(m.row0)), b = cv.to_screen(float(m.k0 + w), float(m.row0 + 8));
        dl->AddRect(a, b, IM_COL32(255, 255, 255, 230), 0, 0, 2);
      }
    if (ui_.select[0] >= 0 && ui_.select[0] < rows && ui_.select[1] >= 0 && ui_.select[1] < cols) {
      const ImVec2 a = cv.to_screen(float(ui_.select[1]), float(ui_.select[0])),
                   b = cv.to_screen(float(ui_.select[1] + 1), float(ui_.select[0] + 1));
      dl->AddRect(a, b, kHighlight, 0, 0, 3);
    }
    const ImVec2 o = cv.to_screen(0, 0);
    cv.labels().text({o.x, o.y - font * 1.3f}, "K \xE2\x86\x92", IM_COL32(200, 200, 210, 255));
    auto mouse = cv.mouse();
    if (!mouse || mouse->x < 0 || mouse->y < 0 || mouse->x >= cols || mouse->y >= rows) return std::nullopt;
    const int r = int(mouse->y), c = int(mouse->x);
    if (cv.clicked()) ui_.select[0] = r, ui_.select[1] = c;
    ImGui::BeginTooltip();
    tooltip_row(tr("element"), "(" + std::to_string(r) + ", " + std::to_string(c) + ")");
    if (secret(t, r, c)) {
      tooltip_row(tr("offset"), tr("? (your prediction; press Reveal)"));
    } else {
      const long long byte = t.byte_offset(r, c);
      tooltip_row(tr("offset"), trf("%s elements = byte %s", fmt_int(t.offset(r, c)).c_str(), fmt_int(byte).c_str()));
      tooltip_row(tr("before the swizzle"), trf("byte %s", fmt_int(t.linear(r, c) * t.element_bits / 8).c_str()));
      tooltip_row(tr("128-byte line"), trf("%d, chunk %d", int(byte / 128), int((byte % 128) / 16)));
      tooltip_row(tr("banks"), std::to_string(4 * ((byte / 16) % 8)) + ".." + std::to_string(4 * ((byte / 16) % 8) + 3));
      if (!inside(t, box, r, c)) tooltip_row("", tr("outside the operand: the TMA writes 0 here"));
    }
    ImGui::EndTooltip();
    return Hover{r, c};
  }

  std::optional<Hover> draw_smem(const gmma::TileLayout& t, const std::vector<SmemChunk>& chunks,
                                 const std::optional<Hover>& hl) {
    const int lines = std::max(1, int(chunks.size() + 7) / 8);
    const float font = ImGui::GetFontSize();
    shows("gmma.element_place");  // noted as drawn unless the asked element's line is blanked below
    // A chunk is 4 units wide (its 4 banks), 1 unit tall.
    // The margin holds the byte addresses left of the lines ("3968").
    const float margin = std::max(font * 2.5f, ImGui::CalcTextSize(std::to_string(128 * lines).c_str()).x + font);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float per_x = (avail.x - 2 * margin) / 32.f, per_y = (avail.y - 2 * margin) / float(lines);
    Canvas cv("##gmma_smem", ui_.smem_canvas, 32.f, float(lines), {0, 0}, margin,
              std::clamp(per_x / std::max(per_y, 1e-3f), 1.f, 4.f));
    ImDrawList* dl = cv.draw_list();
    // Every chunk's first element, or none and a hint to zoom in.
    const std::string widest = std::to_string(t.rows - 1) + "," + std::to_string(t.cols - 1);
    const bool chunk_labels = cv.cell_fits(widest.c_str(), 4, 1);
    cv.axis_y(0, float(lines), 128, tr("byte"));
    std::optional<Hover> out;
    auto mouse = cv.mouse();
    for (size_t i = 0; i < chunks.size(); ++i) {
      const SmemChunk& ch = chunks[i];
      const float x = float(4 * (i % 8)), y = float(i / 8);
      const ImVec2 a = cv.to_screen(x, y), b = cv.to_screen(x + 4, y + 1);
      if (b.y < cv.min().y || a.y > cv.max().y) continue;
      const bool hidden = masked("gmma.offset") && hides("gmma.element_place") && in_secret_line(t, i);
      const int piece = (t.major == gmma::Major::K ? ch.col : ch.row) / (128 / t.element_bits) % 8;
      Rgba col = hidden ? rgba(90, 90, 96) : id_color(piece);
      if (hl && !hidden && !same_chunk(t, *hl, ch.row, ch.col)) col = dim(col, 0.55f);
      dl->AddRectFilled(a, b, col);
      dl->AddRect(a, b, IM_COL32(20, 20, 24, 255));
      if (!hidden && chunk_labels) {
        const std::string label = std::to_string(ch.row) + "," + std::to_string(ch.col);
        cv.label(x, y, x + 4, y + 1, label.c_str(), IM_COL32(0, 0, 0, 255));
      }
      if (mouse && mouse->x >= x && mouse->x < x + 4 && mouse->y >= y && mouse->y < y + 1) {
        ImGui::BeginTooltip();
        tooltip_row(tr("bytes"), fmt_int(long(i) * 16) + ".." + fmt_int(long(i) * 16 + 15));
        tooltip_row(tr("banks"), std::to_string(4 * (i % 8)) + ".." + std::to_string(4 * (i % 8) + 3));
        if (!hidden)
          tooltip_row(tr("holds"), trf(t.major == gmma::Major::K ? "%d elements from (%d, %d) along K" : "%d elements from (%d, %d) down the rows",
                                           128 / t.element_bits, ch.row, ch.col));
        ImGui::EndTooltip();
        if (!hidden) out = Hover{ch.row, ch.col};
      }
    }
    if (!chunk_labels)
      cv.labels().text({cv.min().x + 2, cv.max().y - font - 2}, tr("zoom in (mouse wheel) to read which element each chunk holds"),
                       IM_COL32(150, 150, 160, 255));
    // Bank numbers across the top.
    for (int g = 0; g < 8 && cv.cell_fits("b28", 4, 1); ++g) {
      const ImVec2 p = cv.to_screen(float(4 * g), 0);
      cv.labels().text({p.x + 2, p.y - font * 1.3f}, ("b" + std::to_string(4 * g)).c_str(), IM_COL32(200, 200, 210, 255));
    }
    return out;
  }

  // Do (r, c) and the hovered element share a 16-byte chunk?
  static bool same_chunk(const gmma::TileLayout& t, const Hover& h, int r, int c) {
    return t.byte_offset(h.row, h.col) / 16 == t.byte_offset(r, c) / 16;
  }
  // While gmma.offset is asked, the 128-byte line of the asked element is drawn blank: the
  // learner sees which line but not which chunk.
  bool in_secret_line(const gmma::TileLayout& t, size_t chunk) const {
    const Json& e = mask()->extra.at("element");
    const int r = e[0].get<int>(), c = e[1].get<int>();
    if (r < 0 || r >= t.rows || c < 0 || c >= t.cols) return false;
    return static_cast<size_t>(t.byte_offset(r, c) / 128) == chunk / 8;
  }

  GmmaUiState ui_;
  std::optional<Hover> hover_;
};

}  // namespace

std::unique_ptr<View> make_gmma_view() { return std::make_unique<GmmaLayoutView>(); }

}  // namespace gemmlab::app
