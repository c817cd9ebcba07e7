// View 3, "Shared-memory banks": one warp instruction over a shared-memory tile, phase by phase.
// The bank map is 32 banks wide and one 128-byte line per row; each cell is a 4-byte word. Lanes
// served in the chosen phase light their words; a bank asked for more than one word in a phase
// is outlined red (each extra word is one more wavefront). gemmlab::build_bank_scenario and
// analyze_banks (hardware_rules.md) compute everything; this file draws.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/bank_scenario.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct BanksUiState {
  std::string op = "ldsm.x4";
  std::string layout = "rowmajor";
  int tile[2] = {16, 64};
  int element_bits = 16;
  int pad_bytes = 8;
  int swizzle[3] = {3, 3, 3};
  std::string pattern = "ldmatrix";
  int origin[2] = {0, 0};
  bool compare = false;
  int phase = -1;  // -1 = every phase
  std::string show = "banks";  // "banks": 32 banks x 128-byte lines; "tile": elements by bank
  bool playing = false;
  float play_clock = 0;
  CanvasState canvas[2];
};

// What one scenario draws: the simulator's scenario and its word map (gemmlab/bank_scenario.h).
struct BankPicture {
  BankScenario s;
  BankWordMap words;
};

BankPicture make_picture(BankScenario s) {
  BankWordMap words = bank_word_map(s);
  return {std::move(s), std::move(words)};
}

class BanksView final : public View {
 public:
  const char* id() const override { return "banks"; }

  void apply(const Json& s) override {
    ui_ = BanksUiState{};
    if (s.contains("op")) ui_.op = s["op"];
    if (s.contains("layout")) ui_.layout = s["layout"];
    if (s.contains("tile")) ui_.tile[0] = s["tile"][0], ui_.tile[1] = s["tile"][1];
    if (s.contains("element_bits")) ui_.element_bits = s["element_bits"];
    if (s.contains("pad_bytes")) ui_.pad_bytes = s["pad_bytes"];
    if (s.contains("swizzle"))
      for (int i = 0; i < 3; ++i) ui_.swizzle[i] = s["swizzle"][i];
    if (s.contains("pattern")) ui_.pattern = s["pattern"];
    if (s.contains("origin")) ui_.origin[0] = s["origin"][0], ui_.origin[1] = s["origin"][1];
    if (s.contains("compare")) ui_.compare = s["compare"];
    if (s.contains("phase")) ui_.phase = s["phase"];
    if (s.contains("show")) ui_.show = s["show"];
    dirty_ = true;
  }

  bool has_animation() const override { return true; }
  bool playing() const override { return ui_.playing; }
  void set_playing(bool on) override { ui_.playing = on; }

  Expected<double> predict(const PredictSpec& spec) const override {
    const_cast<BanksView*>(this)->recompute();
    if (!error_.empty()) return Error{error_};
    const BankAnalysis& a = pictures_.back().s.analysis;
    if (spec.quantity == "banks.wavefronts") return double(a.wavefronts);
    if (spec.quantity == "banks.conflicts") return double(a.conflicts);
    return View::predict(spec);
  }

  Json export_data() const override {
    const_cast<BanksView*>(this)->recompute();
    Json out;
    out["view"] = id();
    out["op"] = ui_.op;
    out["layout"] = ui_.layout;
    out["tile"] = {ui_.tile[0], ui_.tile[1]};
    out["element_bits"] = ui_.element_bits;
    out["pattern"] = ui_.pattern;
    out["origin"] = {ui_.origin[0], ui_.origin[1]};
    if (!error_.empty()) {
      out["error"] = error_;
      return out;
    }
    if (const int phases = pictures_.back().s.analysis.phase_count; ui_.phase >= phases) {
      out["error"] = "banks.phase = " + std::to_string(ui_.phase) + ", but this instruction has phases 0.." +
                     std::to_string(phases - 1);
      return out;
    }
    out["phase"] = ui_.phase;
    out["show"] = ui_.show;
    Json scen = Json::array();
    for (const auto& p : pictures_) {
      const BankAnalysis& a = p.s.analysis;
      Json j;
      j["layout"] = smem_layout_name(p.s.params.layout);
      j["wavefronts"] = a.wavefronts;
      j["conflicts"] = a.conflicts;
      j["phase_rule"] = a.phase_rule;
      Json lanes = Json::array();
      for (int l = 0; l < kWarpLanes; ++l)
        lanes.push_back({l, a.lanes[l].active, a.lanes[l].address, a.lanes[l].bank(), a.lanes[l].phase});
      j["lanes_columns"] = {"lane", "active", "address", "bank", "phase"};
      j["lanes"] = lanes;
      Json phases = Json::array();
      for (int ph = 0; ph < a.phase_count; ++ph)
        phases.push_back({{"wavefronts", a.phases[ph].wavefronts},
                          {"words_in_bank", a.phases[ph].words_in_bank}});
      j["phases"] = phases;
      scen.push_back(j);
    }
    out["scenarios"] = scen;
    return out;
  }

  void draw(ViewContext& ctx) override {
    draw_controls();
    recompute();
    if (!error_.empty()) {
      error_box(error_);
      return;
    }
    const int phases = pictures_.back().s.analysis.phase_count;
    if (ui_.playing && !ctx.headless) {
      ui_.play_clock += ctx.dt;
      if (ui_.play_clock > 0.8f) {
        ui_.play_clock = 0;
        ui_.phase = ui_.phase + 1 >= phases ? -1 : ui_.phase + 1;
      }
    }
    if (ui_.phase >= phases) ui_.phase = -1;
    draw_summary();
    draw_phase_bar(phases);
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float w = (ImGui::GetContentRegionAvail().x - gap * (pictures_.size() - 1)) / pictures_.size();
    for (size_t i = 0; i < pictures_.size(); ++i) {
      if (i) ImGui::SameLine();
      ImGui::BeginGroup();
      ImGui::PushID(static_cast<int>(i));
      draw_picture(pictures_[i], static_cast<int>(i), w);
      ImGui::PopID();
      ImGui::EndGroup();
    }
  }

 private:
  BankScenarioParams params() const {
    BankScenarioParams p;
    p.layout = *parse_smem_layout(ui_.layout);
    p.rows = ui_.tile[0];
    p.cols = ui_.tile[1];
    p.element_bits = ui_.element_bits;
    p.pad_bytes = ui_.pad_bytes;
    p.swizzle = {ui_.swizzle[0], ui_.swizzle[1], ui_.swizzle[2]};
    p.op = *parse_smem_op(ui_.op);
    p.pattern = *parse_bank_pattern(ui_.pattern);
    p.origin_row = ui_.origin[0];
    p.origin_col = ui_.origin[1];
    return p;
  }

  std::string key() const {
    return ui_.op + "|" + ui_.layout + "|" + std::to_string(ui_.tile[0]) + "x" +
           std::to_string(ui_.tile[1]) + "|" + std::to_string(ui_.element_bits) + "|" +
           std::to_string(ui_.pad_bytes) + "|" + std::to_string(ui_.swizzle[0]) +
           std::to_string(ui_.swizzle[1]) + std::to_string(ui_.swizzle[2]) + "|" + ui_.pattern +
           "|" + std::to_string(ui_.origin[0]) + "," + std::to_string(ui_.origin[1]) +
           (ui_.compare ? "|cmp" : "");
  }

  void recompute() {
    const std::string k = key();
    if (!dirty_ && k == computed_key_) return;
    dirty_ = false;
    computed_key_ = k;
    pictures_.clear();
    error_.clear();
    for (auto& t : textures_) t.reset();
    tex_phase_[0] = tex_phase_[1] = -2;
    if (!parse_smem_op(ui_.op)) {
      error_ = parse_smem_op(ui_.op).error();
      return;
    }
    const BankScenarioParams p = params();
    if (ui_.compare && p.layout != SmemLayoutKind::RowMajor) {
      auto c = compare_with_rowmajor(p);
      if (!c) {
        error_ = c.error();
        return;
      }
      pictures_.push_back(make_picture(c->rowmajor));
      pictures_.push_back(make_picture(c->chosen));
    } else {
      auto s = build_bank_scenario(p);
      if (!s) {
        error_ = s.error();
        return;
      }
      pictures_.push_back(make_picture(*s));
    }
  }

  void draw_controls() {
    static const std::vector<std::string> ops = {
        "lds.32",        "lds.64",        "lds.128",       "sts.32",   "sts.64",   "sts.128",
        "ldsm.x1",       "ldsm.x2",       "ldsm.x4",       "ldsm.x1.trans", "ldsm.x2.trans",
        "ldsm.x4.trans", "ldgsts.4",      "ldgsts.8",      "ldgsts.16"};
    static const std::vector<std::string> layouts = {"rowmajor", "padded", "swizzle", "tensorop"};
    static const std::vector<std::string> patterns = {"ldmatrix", "rows", "linear"};
    static const std::vector<std::string> shows = {"banks", "tile"};
    combo_string(tr("op"), &ui_.op, ops, 9);
    ImGui::SameLine();
    combo_string(tr("layout"), &ui_.layout, layouts, 8);
    ImGui::SameLine();
    input_int2(tr("tile (rows,cols)"), ui_.tile, 1, 4096);
    ImGui::SameLine();
    static const std::vector<std::string> bits = {"8", "16", "32"};
    std::string b = std::to_string(ui_.element_bits);
    if (combo_string(tr("bits"), &b, bits, 3)) ui_.element_bits = std::stoi(b);
    if (ui_.layout == "padded") {
      ImGui::SameLine();
      input_int(tr("pad bytes"), &ui_.pad_bytes, 0, 4096);
    }
    if (ui_.layout == "swizzle") {
      same_line_if_fits(field_width(3) * 3 + ImGui::CalcTextSize("Swizzle<B,M,S>").x + ImGui::GetFrameHeight() * 2);
      ImGui::SetNextItemWidth(field_width(3) * 3);
      ImGui::InputInt3("Swizzle<B,M,S>", ui_.swizzle);
      help_marker(tr("CuTe Swizzle<B,M,S> on element offsets: XOR the B bits at [M+S, M+S+B) into "
                  "the B bits at [M, M+B). Swizzle<3,3,3> on halves = Swizzle<3,4,3> on bytes."));
    }
    combo_string(tr("pattern"), &ui_.pattern, patterns, 8);
    help_marker(tr("ldmatrix: 8x8 matrices at the origin (matrix i at rows (i%2)*8, 16-byte column "
                "i/2). rows: lane i -> row origin+i. linear: lane i -> element origin + i * vector."));
    ImGui::SameLine();
    input_int2(tr("origin (row,col)"), ui_.origin, 0, 4095);
    same_line_if_fits(ImGui::CalcTextSize(tr("compare with row-major")).x + ImGui::GetFrameHeight() + 8);
    ImGui::Checkbox(tr("compare with row-major"), &ui_.compare);
    same_line_if_fits(field_width(5) + ImGui::CalcTextSize(tr("show")).x + 8);
    combo_string(tr("show"), &ui_.show, shows, 5);
  }

  void draw_summary() {
    std::string text;
    for (size_t i = 0; i < pictures_.size(); ++i) {
      const auto& p = pictures_[i];
      const BankAnalysis& a = p.s.analysis;
      if (i) text += "    \xE2\x86\x92    ";
      text += hidden() ? trf("%s: ? wavefronts, ? conflicts", smem_layout_name(p.s.params.layout))
                       : trf("%s: %d wavefronts, %d conflicts", smem_layout_name(p.s.params.layout), a.wavefronts,
                             a.conflicts);
    }
    ImGui::TextUnformatted(text.c_str());
    const BankAnalysis& a = pictures_.back().s.analysis;
    std::string rule = tr(a.phase_rule);  // the simulator's fixed phrases have catalogue entries
    if (a.note) rule += ".  " + tr(std::string(a.note));
    note_text(rule);
  }

  void draw_phase_bar(int phases) {
    if (ImGui::Button(ui_.playing ? tr("Pause") : tr("Play"))) ui_.playing = !ui_.playing;
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("all phases"), ui_.phase < 0)) ui_.phase = -1;
    const BankAnalysis& a = pictures_.back().s.analysis;
    for (int ph = 0; ph < phases; ++ph) {
      ImGui::SameLine();
      const std::string label = hidden() ? trf("phase %d", ph) : trf("phase %d (%d wf)", ph, a.phases[ph].wavefronts);
      if (ImGui::RadioButton(label.c_str(), ui_.phase == ph)) ui_.phase = ph;
    }
  }

  // The counts (model/predict_rules.h "banks.counts") while a predict step asks for one.
  bool hidden() const { return !shows("banks.counts"); }

  bool lane_in_phase(const BankAnalysis& a, int lane) const {
    const LaneAccess& la = a.lanes[lane];
    return la.active && (ui_.phase < 0 || la.phase == ui_.phase);
  }

  void draw_picture(const BankPicture& pic, int index, float width) {
    const BankAnalysis& a = pic.s.analysis;
    const auto& p = pic.s.params;
    // The header lives inside the child and wraps there, not into the neighbour.
    ImGui::BeginChild("##pic", {width, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
    std::string name = smem_layout_name(p.layout);
    if (p.layout == SmemLayoutKind::Swizzle)
      name += " <" + std::to_string(p.swizzle.bits) + "," + std::to_string(p.swizzle.base) + "," +
              std::to_string(p.swizzle.shift) + ">";
    const int wf = ui_.phase < 0 ? a.wavefronts : a.phases[ui_.phase].wavefronts;
    const int cf = ui_.phase < 0 ? a.conflicts : a.phases[ui_.phase].conflicts();
    if (hidden())
      ImGui::TextWrapped(tr("%s  %d x %d, %d-bit: wavefronts ?"), name.c_str(), p.rows, p.cols, p.element_bits);
    else
      ImGui::TextWrapped(tr("%s  %d x %d, %d-bit: wavefronts %d, conflicts %d"), name.c_str(), p.rows, p.cols,
                         p.element_bits, wf, cf);
    if (ui_.show == "tile")
      draw_tile(pic, index);
    else
      draw_banks(pic, index);
    ImGui::EndChild();
  }

  // Bank numbers on top (every bank, or every 4th where two digits do not fit), byte addresses of
  // the 128-byte lines down the left (every line, or every 2nd, 4th ... where rows are thin).
  void draw_bank_axes(Canvas& cv, int lines, int l0, int l1) {
    const float font = ImGui::GetFontSize();
    const ImU32 head = IM_COL32(200, 200, 210, 255), side = IM_COL32(150, 150, 160, 255);
    const int bank_step = cv.cell_fits("31") ? 1 : 4;
    for (int bank = 0; bank < 32; bank += bank_step) {
      const ImVec2 p = cv.to_screen(bank + 0.5f, 0);
      cv.labels().text_centred(p.x, p.y - font * 1.25f, std::to_string(bank).c_str(), head);
    }
    const ImVec2 o = cv.to_screen(0, 0), e = cv.to_screen(32, 0);
    cv.labels().text({e.x + 4, e.y - font * 1.25f}, tr("bank"), head);
    cv.labels().text_right(o.x - 4, o.y - font * 1.25f, tr("byte"), side);
    const float row_px = cv.to_screen(0, 1).y - o.y;
    int line_step = 1;
    while (line_step * row_px < font * 1.05f && line_step < lines) line_step *= 2;
    for (int line = l0 - l0 % line_step; line < l1; line += line_step) {
      const ImVec2 p = cv.to_screen(0, line + 0.5f);
      cv.labels().text_right(p.x - 4, p.y - font / 2, std::to_string(line * 128).c_str(), side);
    }
  }

  // Distinct words asked of each bank, in the margin below the lines (a row of text however thin
  // the lines are): the tallest is the phase's wavefront count.
  void draw_bank_counts(Canvas& cv, const BankAnalysis& a, int lines, bool counts) {
    const float font = ImGui::GetFontSize();
    const float y = cv.to_screen(0, float(lines)).y + font * 0.4f;
    const auto words_in_bank = words_per_bank(a, ui_.phase);
    for (int bank = 0; counts && bank < 32; ++bank) {
      const int words = words_in_bank[bank];
      const ImU32 col = words > 1 ? IM_COL32(255, 90, 90, 255) : IM_COL32(150, 220, 150, 255);
      if (words > 0) cv.labels().text_centred(cv.to_screen(bank + 0.5f, 0).x, y, std::to_string(words).c_str(), col);
    }
    cv.labels().text_right(cv.to_screen(0, 0).x - 4, y, tr("words"), IM_COL32(150, 150, 160, 255));
    if (!counts)
      cv.labels().text_centred(cv.to_screen(16, 0).x, y, tr("? (press Reveal)"), IM_COL32(150, 150, 160, 255));
  }

  // 32 banks across, one 128-byte line per row, and the per-bank word counts below.
  void draw_banks(const BankPicture& pic, int index) {
    const BankAnalysis& a = pic.s.analysis;
    const int lines = pic.words.lines;
    const float font = ImGui::GetFontSize();
    // While a predict step is open, where each lane's word lands (and so the count) is left out.
    const bool lanes = shows("banks.lanes"), counts = !hidden();
    if (lanes)
      legend_swatches(tr("words (the lane that touches it)"),
                      {{lane_color(0, 5), tr("phase 0")}, {lane_color(1, 5), tr("phase 1")}, {lane_color(2, 5), "2 ..."},
                       {rgba(255, 60, 60), tr("outline: a bank with 2+ words in one phase")},
                       {dim(id_color(0), 0.35f), tr("untouched: the tile row stored there")}});
    else
      legend_swatches(tr("words"), {{dim(id_color(0), 0.35f), tr("the tile row stored there (which lane reads where: "
                                                          "hidden until you press Reveal)")}});
    // Cells as wide as the panel allows (up to 4x their height): a wide panel reads lane numbers
    // of two digits instead of leaving half its width empty.
    const float margin = font * 3.2f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float per_x = (avail.x - 2 * margin) / 32.f, per_y = (avail.y - 2 * margin) / float(lines);
    const float stretch = std::clamp(per_x / std::max(per_y, 1.f), 1.f, 4.f);
    Canvas cv("##banks", ui_.canvas[index], 32.f, float(lines), {0, 0}, margin, stretch);
    ImDrawList* dl = cv.draw_list();
    // Background: the tile row stored in each word, so a layout's permutation shows as colour.
    CellTexture& tex = texture(index);
    if (!tex.valid()) {
      std::vector<Rgba> px(static_cast<size_t>(lines) * 32, IM_COL32(30, 30, 34, 255));
      for (size_t w = 0; w < px.size(); ++w)
        if (pic.words.element_row(w) >= 0) px[w] = dim(id_color(pic.words.element_row(w)), 0.35f);
      tex.upload(32, lines, px);
    }
    cv.draw_cells(tex, 0, 0, 32, float(lines));
    // Lanes of the shown phase(s) on their words: every lane number or none (then a hint to zoom).
    const ImVec2 vis0 = cv.to_content(cv.min()), vis1 = cv.to_content(cv.max());
    const int l0 = std::max(0, int(vis0.y) - 1), l1 = std::min(lines, int(vis1.y) + 1);
    const bool lane_numbers = cv.cell_fits("31");
    for (int ph = 0; lanes && ph < a.phase_count; ++ph) {
      if (ui_.phase >= 0 && ph != ui_.phase) continue;
      const BankPhase& phase = a.phases[ph];
      for (int line = l0; line < l1; ++line)
        for (int bank = 0; bank < 32; ++bank) {
          const int lane = pic.words.word_lane[ph][static_cast<size_t>(line) * 32 + bank];
          if (lane < 0) continue;
          const ImVec2 p0 = cv.to_screen(float(bank), float(line)), p1 = cv.to_screen(bank + 1.f, line + 1.f);
          dl->AddRectFilled(p0, p1, lane_color(ph, lane));
          if (counts && phase.words_in_bank[bank] > 1)
            dl->AddRect(p0, p1, IM_COL32(255, 60, 60, 255), 0, 0, 2);
          if (lane_numbers)
            cv.label(float(bank), float(line), bank + 1.f, line + 1.f, std::to_string(lane).c_str(), IM_COL32(0, 0, 0, 255));
        }
    }
    cv.draw_grid_lines(0, 0, 32, lines, 5);
    draw_bank_axes(cv, lines, l0, l1);
    if (lanes && !lane_numbers)
      cv.labels().text({cv.min().x + 2, cv.max().y - font - 2}, tr("zoom in (mouse wheel) to read the lane numbers"),
                       IM_COL32(150, 150, 160, 255));
    draw_bank_counts(cv, a, lines, counts);
    if (auto m = cv.mouse()) {
      const int bank = int(std::floor(m->x)), line = int(std::floor(m->y));
      if (bank >= 0 && bank < 32 && line >= 0 && line < lines) {
        const size_t w = static_cast<size_t>(line) * 32 + bank;
        dl->AddRect(cv.to_screen(float(bank), float(line)), cv.to_screen(bank + 1.f, line + 1.f), kHighlight, 0, 0, 2);
        ImGui::BeginTooltip();
        tooltip_row(tr("address"), trf("bytes %s..%s (word %s)", fmt_int(static_cast<long long>(w) * 4).c_str(),
                                         fmt_int(static_cast<long long>(w) * 4 + 3).c_str(), fmt_int(w).c_str()));
        tooltip_row(tr("bank"), std::to_string(bank));
        if (pic.words.element_row(w) >= 0)
          tooltip_row(tr("element"), trf(pic.s.params.element_bits < 32 ? "(%d, %d) of the tile, and the next in the word" : "(%d, %d) of the tile",
                                         pic.words.element_row(w), pic.words.element_col(w)));
        else
          tooltip_row(tr("element"), tr("none (padding or past the tile)"));
        for (int ph = 0; lanes && counts && ph < a.phase_count; ++ph) {
          const int lane = pic.words.word_lane[ph][w];
          if (lane < 0) continue;
          tooltip_row(tr("lane"), trf("%d in phase %d (warp 0)", lane, ph));
          tooltip_row(tr("words"), trf("%d distinct word(s) asked of bank %d in this phase", a.phases[ph].words_in_bank[bank], bank));
        }
        ImGui::EndTooltip();
      }
    }
  }

  // The tile in (row, col) elements, each cell coloured by its bank; touched cells by lane.
  void draw_tile(const BankPicture& pic, int index) {
    const auto& p = pic.s.params;
    const BankAnalysis& a = pic.s.analysis;
    const float font = ImGui::GetFontSize();
    const bool lanes = shows("banks.lanes");
    if (lanes)
      legend_swatches(tr("cells"), {{lane_color(0, 5), tr("read by a lane of phase 0")}, {lane_color(1, 5), tr("phase 1 ...")},
                                {dim(id_color(0), 0.3f), tr("untouched: the hue of its bank")}});
    else
      legend_swatches(tr("cells"), {{dim(id_color(0), 0.3f), tr("the hue of its bank (which lane reads it: hidden until "
                                                            "you press Reveal)")}});
    Canvas cv("##tile", ui_.canvas[index], float(p.cols), float(p.rows), {0, 0}, font * 2);
    CellTexture& tex = texture(index);
    if (!tex.valid() || tex_phase_[index] != ui_.phase || tex_lanes_[index] != lanes) {
      tex_phase_[index] = ui_.phase;
      tex_lanes_[index] = lanes;
      std::vector<Rgba> px(static_cast<size_t>(p.rows) * p.cols);
      for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
          const TileCell& cell = pic.s.cell(r, c);
          const bool lit = lanes && cell.lane >= 0 && lane_in_phase(a, cell.lane);
          px[static_cast<size_t>(r) * p.cols + c] =
              lit ? lane_color(a.lanes[cell.lane].phase, cell.lane) : dim(id_color(cell.bank), 0.3f);
        }
      tex.upload(p.cols, p.rows, px);
    }
    cv.draw_cells(tex, 0, 0, float(p.cols), float(p.rows));
    cv.draw_grid_lines(0, 0, p.cols, p.rows, 6);
    ImDrawList* dl = cv.draw_list();
    if (cv.cell_fits("31")) {  // every cell's bank number, or none
      const ImVec2 v0 = cv.to_content(cv.min()), v1 = cv.to_content(cv.max());
      for (int r = std::max(0, int(v0.y)); r < std::min(p.rows, int(v1.y) + 1); ++r)
        for (int c = std::max(0, int(v0.x)); c < std::min(p.cols, int(v1.x) + 1); ++c)
          cv.label(float(c), float(r), c + 1.f, r + 1.f, std::to_string(pic.s.cell(r, c).bank).c_str(),
                   IM_COL32(0, 0, 0, 200));
    }
    const ImVec2 o = cv.to_screen(0, 0);
    cv.labels().text({std::max(o.x, cv.min().x + 2), o.y - font * 1.3f}, tr("col \xE2\x86\x92  (cells show their bank)"),
                     IM_COL32(200, 200, 210, 255));
    if (auto m = cv.mouse()) {
      const int c = int(std::floor(m->x)), r = int(std::floor(m->y));
      if (r >= 0 && r < p.rows && c >= 0 && c < p.cols) {
        const TileCell& cell = pic.s.cell(r, c);
        dl->AddRect(cv.to_screen(float(c), float(r)), cv.to_screen(c + 1.f, r + 1.f), kHighlight, 0, 0, 2);
        ImGui::BeginTooltip();
        tooltip_row(tr("element"), "(" + std::to_string(r) + ", " + std::to_string(c) + ")");
        tooltip_row(tr("address"), trf("byte %s", fmt_int(cell.byte).c_str()));
        tooltip_row(tr("bank"), std::to_string(cell.bank));
        if (!lanes)
          tooltip_row(tr("lane"), tr("? (press Reveal)"));
        else if (cell.lane >= 0)
          tooltip_row(tr("lane"), trf("%d, phase %d", cell.lane, a.lanes[cell.lane].phase));
        else
          tooltip_row(tr("lane"), tr("not touched by this instruction"));
        ImGui::EndTooltip();
      }
    }
  }

  CellTexture& texture(int index) {
    if (!textures_[index]) textures_[index] = std::make_unique<CellTexture>();
    if (tex_show_[index] != ui_.show) {
      textures_[index] = std::make_unique<CellTexture>();
      tex_show_[index] = ui_.show;
    }
    return *textures_[index];
  }

  BanksUiState ui_;
  bool dirty_ = true;
  std::string computed_key_, error_;
  std::vector<BankPicture> pictures_;  // [rowmajor,] chosen
  std::unique_ptr<CellTexture> textures_[2];
  std::string tex_show_[2];
  int tex_phase_[2] = {-2, -2};
  bool tex_lanes_[2] = {true, true};
};

}  // namespace

std::unique_ptr<View> make_banks_view() { return std::make_unique<BanksView>(); }

}  // namespace gemmlab::app
