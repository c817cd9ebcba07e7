// View 2, "Fragments": for ldmatrix (x1/x2/x4, .trans) and mma (m16n8k16, m8n8k32) which lane
// supplies which row address and which lane/register holds which element of the 8x8 / 16x8 /
// 16x16 tile. Results from gemmlab::analyze_fragment (PTX ISA formulas); drawn here.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "canvas.h"
#include "element_tables.h"
#include "gemmlab/fragment_analysis.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct FragmentsUiState {
  std::string op = "mma.m16n8k16.f16";
  std::string operand = "a";
  int highlight_lane = -1;
  bool show_addresses = true;  // ldmatrix: outline each lane's 16-byte row
  CanvasState canvas;
};

// Lanes of one quad (PTX groupID) share a hue; threadID_in_group sets the shade.
Rgba quad_color(int lane) {
  const Rgba base = id_color(lane / 4);
  return dim(base, 1.0f - 0.17f * (lane % 4));
}

class FragmentsView final : public View {
 public:
  const char* id() const override { return "fragments"; }

  void apply(const Json& s) override {
    ui_ = FragmentsUiState{};
    if (s.contains("op")) ui_.op = s["op"];
    if (s.contains("operand")) ui_.operand = s["operand"];
    if (s.contains("highlight_lane")) ui_.highlight_lane = s["highlight_lane"];
    // An ldmatrix step that names no operand shows the bare 8x8 matrices.
    if (ui_.op.rfind("ldsm", 0) == 0 && !s.contains("operand")) ui_.operand = "none";
  }

  std::optional<std::string> answer_in_settings(const PredictSpec& spec, double answer) const override {
    if (spec.quantity == "fragments.lane_of_element" && ui_.highlight_lane == int(answer))
      return "fragments.highlight_lane = " + std::to_string(ui_.highlight_lane) +
             " is the asked lane: its field shows the answer; use -1 or another lane";
    return std::nullopt;
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    if (spec.quantity != "fragments.lane_of_element") return View::predict(spec);
    auto m = compute();
    if (!m) return Error{m.error()};
    const auto& e = spec.extra.at("element");
    auto owner = fragment_owner(*m, e[0].get<int>(), e[1].get<int>());
    if (!owner) return Error{owner.error()};
    return double(owner->lane);
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    out["op"] = ui_.op;
    out["operand"] = ui_.operand;
    auto m = compute();
    if (!m) {
      out["error"] = m.error();
      return out;
    }
    out["tile"] = {m->tile_rows, m->tile_cols};
    out["registers_per_lane"] = m->registers_per_lane;
    out["elements_per_register"] = m->elements_per_register;
    out["element_bits"] = m->element_bits;
    tables::put_fragment_elements(out, *m, true);
    if (!m->addresses.empty()) tables::put_ldmatrix_addresses(out, *m);
    if (!m->note.empty()) out["note"] = m->note;
    return out;
  }

  void draw(ViewContext&) override {
    draw_controls();
    auto m = compute();
    if (!m) {
      error_box(m.error());
      return;
    }
    if (m->elements_per_register == 1)
      ImGui::TextWrapped(tr("tile %d x %d   %d registers per lane, one %d-bit element per register"), m->tile_rows,
                  m->tile_cols, m->registers_per_lane, m->element_bits);
    else
      ImGui::TextWrapped(tr("tile %d x %d   %d registers per lane, %d elements of %d bits per register"),
                  m->tile_rows, m->tile_cols, m->registers_per_lane, m->elements_per_register,
                  m->element_bits);
    if (!m->note.empty()) note_text(tr(m->note));
    draw_lane_summary(*m);
    draw_tile(*m);
  }

 private:
  Expected<FragmentMap> compute() const {
    auto req = parse_fragment_op(ui_.op);
    if (!req) return Error{req.error()};
    FragmentRequest r = *req;
    if (ui_.operand != "none") {
      auto o = parse_fragment_operand(ui_.operand);
      if (!o) return Error{o.error()};
      r.operand = *o;
    }
    return analyze_fragment(r);
  }

  void draw_controls() {
    static const std::vector<std::string> ops = {
        "ldsm.x1",       "ldsm.x2",          "ldsm.x4",           "ldsm.x1.trans",
        "ldsm.x2.trans", "ldsm.x4.trans",    "mma.m16n8k16.f16",  "mma.m16n8k16.bf16",
        "mma.m8n8k32.s4", "wgmma.m64n8k16.f16", "wgmma.m64n16k16.f16", "wgmma.m64n32k16.f16",
        "wgmma.m64n64k16.f16", "wgmma.m64n128k16.f16", "wgmma.m64n256k16.f16"};
    static const std::vector<std::string> operands = {"none", "a", "b", "c"};
    combo_string(tr("instruction"), &ui_.op, ops, 15);
    ImGui::SameLine();
    combo_string(tr("operand"), &ui_.operand, operands, 4);
    help_marker(tr("mma: which operand tile (A m x k, B k x n, C m x n). ldmatrix: none shows the "
                "8x8 matrices stacked; a or b shows where each lane's row address must point "
                "to feed mma.m16n8k16. wgmma: the warpgroup's 128 threads; a (A from registers) or "
                "c (the accumulator D); B is read from shared memory only (the GMMA layout view)."));
    ImGui::SameLine();
    input_int(wgmma() ? tr("highlight thread") : tr("highlight lane"), &ui_.highlight_lane, -1, wgmma() ? 127 : 31, 3);
    if (ui_.op.rfind("ldsm", 0) == 0) {
      same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("row addresses")).x + 8);
      ImGui::Checkbox(tr("row addresses"), &ui_.show_addresses);
    }
  }

  void draw_lane_summary(const FragmentMap& m) {
    const int lane = ui_.highlight_lane;
    if (hides("fragments.owners")) {
      note_text(tr("Which lane holds the \"?\" element? Work it out from the fragment rule; the owners are hidden until you press Reveal."));
      return;
    }
    if (lane < 0) {
      note_text(tr("Hover a cell for its lane; click it (or type a lane) to highlight that lane."));
      return;
    }
    std::string text = wgmma() ? trf("thread %d (warp %d, lane %d: groupID %d, threadID_in_group %d) holds:", lane,
                                     lane / 32, lane % 32, (lane % 32) >> 2, lane & 3)
                               : trf("lane %d (groupID %d, threadID_in_group %d) holds:", lane, lane >> 2, lane & 3);
    const char prefix = element_prefix();
    for (const auto& e : m.elements) {
      if (e.lane != lane) continue;
      text += "  " + std::string(1, prefix) + std::to_string(e.index) + " (" +
              std::to_string(e.at.row) + "," + std::to_string(e.at.col) + ")";
    }
    for (const auto& a : m.addresses)
      if (a.lane == lane)
        text += a.used ? trf("   gives the address of row %d of matrix %d", a.row, a.matrix)
                       : tr("   its address is not read (.x1 reads lanes 0-7, .x2 lanes 0-15)");
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
  }

  // The element a predict question asks about, while the answer is hidden.
  bool is_secret(int row, int col) const {
    if (!masked("fragments.lane_of_element") || !hides("fragments.owners")) return false;
    const Json& e = mask()->extra.at("element");
    return e[0].get<int>() == row && e[1].get<int>() == col;
  }

  bool wgmma() const { return ui_.op.rfind("wgmma", 0) == 0; }
  // PTX's register names: a_i, b_i, c_i; ldmatrix's d_i; wgmma's accumulator d_i.
  char element_prefix() const {
    return ui_.operand == "none" || (wgmma() && ui_.operand == "c") ? 'd' : ui_.operand[0];
  }
  std::string element_name(const FragmentElement& e) const {
    return std::string(1, element_prefix()) + std::to_string(e.index);
  }

  void draw_tile(const FragmentMap& m) {
    const int rows = m.tile_rows, cols = m.tile_cols;
    const std::vector<int> owner = fragment_element_grid(m);
    const bool ldsm = !m.addresses.empty();
    const float font = ImGui::GetFontSize();
    // m8n8k32 s4 tiles are 8 x 32: cells twice as tall as wide would not be readable, keep squares.
    legend_swatches(tr("lanes: a quad (PTX groupID = lane / 4) shares a hue, darker by threadID_in_group"),
                    {{quad_color(0), "T0"}, {quad_color(3), "T3"}, {quad_color(4), "T4"}, {quad_color(31), "T31"}});
    // Room for the row addresses (ldmatrix) or the "warp N" labels (wgmma) beside the tile.
    Canvas cv("##frag", ui_.canvas, float(cols), float(rows), {0, 0}, font * (ldsm || wgmma() ? 3.5f : 2.f));
    ImDrawList* dl = cv.draw_list();
    const float px = cv.scale();
    std::optional<ImVec2> secret_cell;  // ringed last: the cells and lines would paint over the ring
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const int i = owner[static_cast<size_t>(r) * cols + c];
        Rgba col = kEmptyCell;
        const bool secret = is_secret(r, c);
        if (secret) {
          const ImVec2 a = cv.to_screen(float(c), float(r)), b = cv.to_screen(float(c + 1), float(r + 1));
          dl->AddRectFilled(a, b, IM_COL32(255, 255, 255, 255));
          if (cv.cell_fits("?")) cv.label(float(c), float(r), float(c + 1), float(r + 1), "?", IM_COL32(0, 0, 0, 255));
          secret_cell = {float(c), float(r)};
          continue;
        }
        // While the learner predicts an owner, no cell shows its lane: the neighbours' colours and
        // labels would give the answer away (lane patterns repeat along rows and columns).
        const bool hide_owners = !shows("fragments.owners");
        if (i >= 0 && !hide_owners) {
          const auto& e = m.elements[i];
          col = quad_color(e.lane);
          if (ui_.highlight_lane >= 0 && e.lane != ui_.highlight_lane) col = dim(col, 0.2f);
        }
        const ImVec2 a = cv.to_screen(float(c), float(r)), b = cv.to_screen(float(c + 1), float(r + 1));
        dl->AddRectFilled(a, b, col);
        if (hide_owners) continue;
        if (i >= 0 && px >= font * 2.2f) {
          const auto& e = m.elements[i];
          const std::string t1 = "T" + std::to_string(e.lane), t2 = element_name(e);
          const ImVec2 s1 = ImGui::CalcTextSize(t1.c_str()), s2 = ImGui::CalcTextSize(t2.c_str());
          const float cy = (a.y + b.y) / 2;
          dl->AddText({(a.x + b.x - s1.x) / 2, cy - s1.y}, IM_COL32(0, 0, 0, 255), t1.c_str());
          dl->AddText({(a.x + b.x - s2.x) / 2, cy}, IM_COL32(20, 20, 20, 255), t2.c_str());
        } else if (i >= 0 && px >= font * 1.3f) {
          cv.label(float(c), float(r), float(c + 1), float(r + 1),
                   std::to_string(m.elements[i].lane).c_str(), IM_COL32(0, 0, 0, 255));
        }
      }
    cv.draw_grid_lines(0, 0, cols, rows, 4);
    // The 8x8 matrix boundaries.
    for (int r = 0; r <= rows; r += 8)
      dl->AddLine(cv.to_screen(0, float(r)), cv.to_screen(float(cols), float(r)), IM_COL32(255, 255, 255, 160), 2);
    for (int c = 0; c <= cols; c += 8)
      dl->AddLine(cv.to_screen(float(c), 0), cv.to_screen(float(c), float(rows)), IM_COL32(255, 255, 255, 160), 2);
    // wgmma: each warp of the warpgroup owns 16 rows.
    if (wgmma())
      for (int r = 0; r <= rows; r += 16) {
        dl->AddLine(cv.to_screen(0, float(r)), cv.to_screen(float(cols), float(r)), IM_COL32(255, 230, 90, 220), 3);
        if (r < rows) {
          const ImVec2 p = cv.to_screen(float(cols), float(r));
          cv.labels().text({p.x + 4, p.y + 2}, trf("warp %d", r / 16).c_str(), IM_COL32(255, 230, 90, 255));
        }
      }
    if (secret_cell) {
      // On a 64 x 256 wgmma tile the cell is a few pixels: ring it so it can be found.
      const ImVec2 a = cv.to_screen(secret_cell->x, secret_cell->y),
                   b = cv.to_screen(secret_cell->x + 1, secret_cell->y + 1);
      const float pad = std::max(0.f, 6.f - (b.x - a.x) / 2);
      dl->AddRect({a.x - pad - 2, a.y - pad - 2}, {b.x + pad + 2, b.y + pad + 2}, kHighlight, 0, 0, 2.5f);
    }
    // Axis names: the operand's dimensions.
    const char* row_name = ui_.operand == "b" ? "k" : "m";
    const char* col_name = ui_.operand == "a" ? "k" : "n";
    if (ui_.operand == "none") row_name = "row", col_name = "col";
    const ImVec2 o = cv.to_screen(0, 0);
    cv.labels().text({o.x, o.y - font * 1.3f}, (std::string(col_name) + " \xE2\x86\x92").c_str(),
                     IM_COL32(200, 200, 210, 255));
    // Ticks in elements; ldmatrix's row addresses use the left margin.
    cv.axis_x(float(rows), float(cols), 1, col_name);
    if (!ldsm)
      cv.axis_y(0, float(rows), 1, row_name);
    else
      cv.labels().text({o.x - font * 1.6f, o.y}, row_name, IM_COL32(200, 200, 210, 255));

    if (ldsm && ui_.show_addresses && !hides("fragments.owners")) draw_addresses(m, cv);

    if (auto mouse = cv.mouse()) {
      const int c = int(std::floor(mouse->x)), r = int(std::floor(mouse->y));
      if (r >= 0 && r < rows && c >= 0 && c < cols) {
        dl->AddRect(cv.to_screen(float(c), float(r)), cv.to_screen(float(c + 1), float(r + 1)),
                    kHighlight, 0, 0, 2);
        const int i = hides("fragments.owners") ? -2 : owner[static_cast<size_t>(r) * cols + c];
        ImGui::BeginTooltip();
        if (i == -2) tooltip_row(tr("lane"), tr("? (hidden until you press Reveal)"));
        tooltip_row(tr("element"), "(" + std::string(row_name) + "=" + std::to_string(r) + ", " +
                                   col_name + "=" + std::to_string(c) + ")");
        if (i >= 0) {
          const auto& e = m.elements[i];
          tooltip_row(tr("lane"), trf("%d (warp-wide: T%d)", e.lane, e.lane));
          tooltip_row(tr("groupID"), std::to_string(e.lane >> 2) + ", threadID_in_group " +
                                     std::to_string(e.lane & 3));
          tooltip_row(tr("register"), trf("%d, element %d (low to high)", e.reg, e.element));
          tooltip_row(tr("PTX name"), element_name(e));
          if (e.matrix >= 0) tooltip_row(tr("matrix"), std::to_string(e.matrix));
          if (cv.clicked()) ui_.highlight_lane = ui_.highlight_lane == e.lane ? -1 : e.lane;
        } else if (i == -1) {
          tooltip_row(tr("lane"), tr("none: this instruction does not deliver it"));
        }
        for (const auto& a : m.addresses) {
          if (!a.used) continue;
          const bool down = m.row_runs_down;
          const bool in_row = down ? (c == a.start.col && r >= a.start.row && r < a.start.row + 8)
                                   : (r == a.start.row && c >= a.start.col && c < a.start.col + 8);
          if (in_row) {
            tooltip_row(tr("address"), trf("lane %d gives this 16-byte row (row %d of matrix %d)", a.lane, a.row, a.matrix));
            break;
          }
        }
        ImGui::EndTooltip();
      }
    }
  }

  // ldmatrix source side: every used lane's 8-element row, outlined, with the lane's number.
  void draw_addresses(const FragmentMap& m, const Canvas& cv) {
    ImDrawList* dl = cv.draw_list();
    const float font = ImGui::GetFontSize();
    for (const auto& a : m.addresses) {
      if (!a.used) continue;
      const bool down = m.row_runs_down;
      const float r0 = float(a.start.row), c0 = float(a.start.col);
      const float r1 = down ? r0 + 8 : r0 + 1, c1 = down ? c0 + 1 : c0 + 8;
      const bool hit = ui_.highlight_lane < 0 || ui_.highlight_lane == a.lane;
      const ImU32 col = hit ? IM_COL32(255, 255, 255, 220) : IM_COL32(255, 255, 255, 50);
      dl->AddRect(cv.to_screen(c0, r0), cv.to_screen(c1, r1), col, 0, 0, hit ? 2.f : 1.f);
      // The lane's name outside the tile, left of its row (or above its column).
      const std::string label = "L" + std::to_string(a.lane);
      const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
      ImVec2 p;
      if (!down) {
        const ImVec2 s = cv.to_screen(0, r0 + 0.5f);
        p = {s.x - ts.x - 4 - (c0 > 0 ? font * 1.7f : 0), s.y - ts.y / 2};
      } else {
        const ImVec2 s = cv.to_screen(c0 + 0.5f, 0);
        p = {s.x - ts.x / 2, s.y - ts.y - 2 - (r0 > 0 ? font * 1.2f : 0)};
      }
      if (cv.scale() >= ts.y * 0.9f)
        dl->AddText(p, hit ? quad_color(a.lane) : IM_COL32(120, 120, 120, 255), label.c_str());
    }
  }

  FragmentsUiState ui_;
};

}  // namespace

std::unique_ptr<View> make_fragments_view() { return std::make_unique<FragmentsView>(); }

}  // namespace gemmlab::app
