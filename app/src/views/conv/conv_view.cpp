// View 8, "Conv": an implicit-GEMM convolution (the conv stages 14a-14c). Left, one input image with
// the selected output pixel's filter window sliding over it, padding drawn around; right, the
// block's slice of the im2col matrix that is never stored (its rows = output pixels, its columns =
// filter taps), and below it the A tile of one k-tile as the block's threads copy it (which thread
// loads which 16-byte vector from which (n, h, w, c); zero-filled in the padding). Hover a cell on
// either side and the other side lights up. For int4, the packing of one vector (eight channels per
// 32-bit word) and the m8n8k32 lane that holds it. Numbers from gemmlab/conv_picture.h.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "canvas.h"
#include "gemmlab/conv_picture.h"
#include "gemmlab/fragments.h"
#include "gemmlab/stage_desc.h"
#include "palette.h"
#include "ui_util.h"
#include "view.h"

namespace gemmlab::app {
namespace {

struct ConvUiState {
  int problem[10] = {1, 8, 8, 64, 64, 3, 3, 1, 1, 1};  // N, H, W, C, K, R, S, pad, stride, dilation
  std::string element = "f16";
  std::string copy = "cp.async";  // or "tma": stage 14d's im2col box
  int row = 9;            // the selected GEMM row (output pixel)
  int block = 0;          // block along M
  int k_tile = 0;
  int sms = 132;
  CanvasState input_canvas, matrix_canvas, tile_canvas;
};

conv::Element element_of(const std::string& e) {
  return e == "s8" ? conv::Element::S8 : e == "s4" ? conv::Element::S4 : conv::Element::F16;
}

class ConvView final : public View {
 public:
  const char* id() const override { return "conv"; }

  void apply(const Json& s) override {
    ui_ = ConvUiState{};
    if (s.contains("problem"))
      for (int i = 0; i < 10; ++i) ui_.problem[i] = i < int(s["problem"].size()) ? s["problem"][i].get<int>() : ui_.problem[i];
    if (s.contains("element")) ui_.element = s["element"];
    if (s.contains("copy")) ui_.copy = s["copy"];
    if (s.contains("row")) ui_.row = s["row"];
    if (s.contains("block")) ui_.block = s["block"];
    if (s.contains("k_tile")) ui_.k_tile = s["k_tile"];
    if (s.contains("sms")) ui_.sms = s["sms"];
  }

  Expected<double> predict(const PredictSpec& spec) const override {
    const conv::Shape sh = shape();
    if (const char* why = conv::check_shape(sh, element_of(ui_.element))) return Error{why};
    if (spec.quantity == "conv.gemm_m") return double(sh.gemm_m());
    if (spec.quantity == "conv.gemm_k") return double(sh.gemm_k());
    if (spec.quantity == "conv.blocks") {  // the launch the view draws: stage 14a's tile, or stage 14d's
      auto l = compute();
      if (!l) return Error{l.error()};
      return double(l->blocks);
    }
    if (spec.quantity == "conv.padded_taps") {
      if (ui_.row < 0 || ui_.row >= sh.gemm_m()) return Error{"the selected row is outside the GEMM"};
      int padded = 0;
      for (const conv::WindowCell& c : conv::window_of(sh, ui_.row)) padded += !c.in_tensor;
      return double(padded);
    }
    return View::predict(spec);
  }

  Json export_data() const override {
    Json out;
    out["view"] = id();
    const conv::Shape sh = shape();
    out["problem"] = std::vector<int>(ui_.problem, ui_.problem + 10);
    out["element"] = ui_.element;
    out["copy"] = ui_.copy;
    auto loads = compute();
    if (!loads) {
      out["error"] = loads.error();
      return out;
    }
    out["gemm"] = {sh.gemm_m(), sh.gemm_n(), sh.gemm_k()};
    out["output"] = {sh.p(), sh.q()};
    out["tile"] = {loads->tile_m, loads->tile_n};
    out["row"] = ui_.row;
    Json win = Json::array();
    for (const conv::WindowCell& c : conv::window_of(sh, ui_.row)) win.push_back({c.r, c.s, c.h, c.w, c.in_tensor});
    out["window_columns"] = {"r", "s", "h", "w", "in_tensor"};
    out["window"] = win;
    Json l = Json::array();
    for (const conv::TileLoad& x : loads->loads)
      l.push_back({x.thread, x.access, x.m, x.kk, x.in_tensor ? x.offset : -1});
    out["loads_columns"] = {"thread", "access", "row", "k", "input_offset"};
    out["loads"] = l;
    return out;
  }

  void draw(ViewContext&) override {
    draw_controls();
    const conv::Shape sh = shape();
    auto loads = compute();
    if (!loads) {
      error_box(loads.error());
      return;
    }
    // A predict step on M, K or the blocks leaves them (and what gives them away) out.
    const bool gemm = shows("conv.gemm_shape"), blocks = shows("conv.blocks");
    auto shown = [](bool on, const std::string& v) { return on ? v : std::string("?"); };
    ImGui::TextWrapped(tr("GEMM M = N*P*Q = %s, N = K = %d, K = R*S*C = %s   output %s x %s   tile %d x %d, %s blocks, %s k-tiles of %d"),
                shown(gemm, fmt_int(sh.gemm_m())).c_str(), sh.k, shown(gemm, fmt_int(sh.gemm_k())).c_str(),
                shown(gemm, std::to_string(sh.p())).c_str(), shown(gemm, std::to_string(sh.q())).c_str(), loads->tile_m,
                loads->tile_n, shown(blocks, fmt_int(loads->blocks)).c_str(),
                shown(gemm, std::to_string(loads->k_tiles)).c_str(), loads->k_tile_elements);
    ui_.row = std::clamp<int>(ui_.row, 0, int(std::min<long long>(sh.gemm_m(), 1 << 30) - 1));
    hover_row_ = -1, hover_tap_ = -1, hover_h_ = hover_w_ = -1000;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float left_w = std::floor(avail.x * 0.42f);
    const float strip = ui_.element == "s4" ? ImGui::GetTextLineHeightWithSpacing() * 6 : 0.f;
    ImGui::BeginChild("##input", {left_w, avail.y - strip}, false, ImGuiWindowFlags_NoScrollWithMouse);
    draw_input(sh, *loads);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##gemm", {0, avail.y - strip}, false, ImGuiWindowFlags_NoScrollWithMouse);
    const float h = ImGui::GetContentRegionAvail().y;
    draw_matrix(sh, *loads, h * 0.5f);
    draw_tile(sh, *loads);
    ImGui::EndChild();
    if (strip > 0) draw_int4_packing();
    last_hover_row_ = hover_row_, last_hover_tap_ = hover_tap_, last_hover_h_ = hover_h_, last_hover_w_ = hover_w_;
  }

 private:
  conv::Shape shape() const {
    const int* p = ui_.problem;
    return {p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9]};
  }
  long long block_m0(const conv::TileLoads& l) const { return 1ll * ui_.block * l.tile_m; }

  // How many units wide a column of a rows x cols picture is drawn so that it fills the space left
  // in the panel (tall, thin matrices otherwise draw as a sliver).
  static float column_stretch(int rows, int cols) {
    const ImVec2 a = ImGui::GetContentRegionAvail();
    if (a.y < 1 || cols < 1) return 1.f;
    return std::clamp(a.x / a.y * float(rows) / float(cols), 1.f, 64.f);
  }

  Expected<conv::TileLoads> compute() const {
    conv::TileLoadRequest q;
    q.shape = shape();
    q.element = element_of(ui_.element);
    q.sms = ui_.sms;
    q.block_m = ui_.block;
    q.k_tile = ui_.k_tile;
    q.tma_box = ui_.copy == "tma";
    return conv::tile_loads(q);
  }

  void draw_controls() {
    // Ten fields wide enough for 5 digits each (C and K of ResNet's layers are 3-4 digits); the
    // other controls go on the next line.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float field = ImGui::CalcTextSize("00000").x + 2 * style.FramePadding.x;
    ImGui::SetNextItemWidth(10 * field + 9 * style.ItemInnerSpacing.x);
    ImGui::InputScalarN("N,H,W,C,K,R,S,pad,stride,dil", ImGuiDataType_S32, ui_.problem, 10);
    for (int i = 0; i < 10; ++i) ui_.problem[i] = std::clamp(ui_.problem[i], i == 7 ? 0 : 1, i >= 5 ? 64 : 65536);
    combo_string(tr("element"), &ui_.element, {"f16", "s8", "s4"}, 4);
    help_marker(trf("f16: stage %s (8 channels per 16-byte vector), s8: stage %s (16), s4: stage %s (32, packed "
                    "eight per 32-bit word).",
                    stage_numbers_of(StageTrack::conv_fp16).c_str(),
                    stage_numbers_of(StageTrack::conv_int8).c_str(),
                    stage_numbers_of(StageTrack::conv_int4).c_str())
                    .c_str());
    ImGui::SameLine();
    combo_string(tr("copy"), &ui_.copy, {"cp.async", "tma"}, 7);
    const std::string cp_async = stage_numbers_of(StageTrack::conv_fp16) + ", " +
                                 stage_numbers_of(StageTrack::conv_int8) + ", " +
                                 stage_numbers_of(StageTrack::conv_int4);
    help_marker(trf("cp.async: the threads of stages %s copy 16-byte vectors through the address function. tma: "
                    "stage %s's copy, one TMA im2col box per k-tile that the copy engine fills row by row (fp16, C a "
                    "multiple of 64).",
                    cp_async.c_str(), stage_numbers_of(StageTrack::conv_hopper).c_str())
                    .c_str());
    ImGui::SameLine();
    input_int(tr("row"), &ui_.row, 0, 1 << 30, 6);
    ImGui::SameLine();
    input_int(tr("block"), &ui_.block, 0, 1 << 24, 5);
    ImGui::SameLine();
    input_int(tr("k-tile"), &ui_.k_tile, 0, 1 << 20, 4);
    ImGui::SameLine();
    input_int(tr("SMs"), &ui_.sms, 1, 1024, 4);
    help_marker(tr("The tile follows the problem and the GPU's SM count (gemmlab/conv_problem.h, choose_tile)."));
  }

  // Input image n of the selected row, with `pad` cells of padding around it.
  void draw_input(const conv::Shape& sh, const conv::TileLoads& l) {
    const conv::Npq o = conv::row_pixel(sh, ui_.row);
    ImGui::TextWrapped(tr("image n %d, %d x %d, padding %d; row %d = output (p %d, q %d)"), o.n, sh.h, sh.w, sh.pad, ui_.row, o.p,
                o.q);
    const int pad = sh.pad;
    const int cols = sh.w + 2 * pad, rows = sh.h + 2 * pad;
    if (cols > 512 || rows > 512) {
      note_text(tr("The image is too large to draw (more than 512 cells a side)."));
      return;
    }
    const bool window_shown = shows("conv.window");
    if (window_shown)
      legend_swatches(tr("window"), {{id_color(0), tr("tap 0")}, {id_color(1), tr("tap 1")}, {id_color(2), "2 ..."},
                                 {dim(id_color(0), 0.35f), tr("a tap in the padding (reads 0)")}});
    else
      legend_swatches(tr("image"), {{rgba(70, 74, 86), tr("the input")}, {rgba(36, 36, 40), tr("padding")}});
    Canvas cv("##incv", ui_.input_canvas, float(cols), float(rows), {0, 0}, ImGui::GetFontSize() * 2.5f);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(float(rows), float(cols), 1, "w", -pad);  // image coordinates: the padding is negative
    cv.axis_y(0, float(rows), 1, "h", -pad);
    const auto window = conv::window_of(sh, ui_.row);
    // The window of the hovered (row, tap) on the right, else of the selected row.
    const long long shown_row = last_hover_row_ >= 0 ? last_hover_row_ : ui_.row;
    const auto shown = !window_shown ? std::vector<conv::WindowCell>{}
                       : shown_row == ui_.row ? window : conv::window_of(sh, shown_row);
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < cols; ++x) {
        const int h = y - pad, w = x - pad;
        const bool inside = h >= 0 && h < sh.h && w >= 0 && w < sh.w;
        Rgba c = inside ? rgba(70, 74, 86) : rgba(36, 36, 40);
        for (size_t t = 0; t < shown.size(); ++t)
          if (shown[t].h == h && shown[t].w == w) c = inside ? id_color(int(t)) : dim(id_color(int(t)), 0.35f);
        dl->AddRectFilled(cv.to_screen(float(x), float(y)), cv.to_screen(float(x + 1), float(y + 1)), c);
      }
    cv.draw_grid_lines(0, 0, cols, rows, 5);
    // The tensor's edge.
    dl->AddRect(cv.to_screen(float(pad), float(pad)), cv.to_screen(float(pad + sh.w), float(pad + sh.h)),
                IM_COL32(230, 230, 240, 200), 0, 0, 2);
    if (last_hover_tap_ >= 0 && last_hover_tap_ < int(shown.size())) {
      const auto& c = shown[size_t(last_hover_tap_)];
      dl->AddRect(cv.to_screen(float(c.w + pad), float(c.h + pad)), cv.to_screen(float(c.w + pad + 1), float(c.h + pad + 1)),
                  kHighlight, 0, 0, 3);
    }
    if (auto m = cv.mouse()) {
      const int x = int(std::floor(m->x)), y = int(std::floor(m->y));
      if (x >= 0 && x < cols && y >= 0 && y < rows) {
        hover_h_ = y - pad, hover_w_ = x - pad;
        const auto readers = conv::readers_of(sh, block_m0(l), l.tile_m, o.n, hover_h_, hover_w_);
        ImGui::BeginTooltip();
        tooltip_row(tr("input"), trf("(n %d, h %d, w %d)", o.n, hover_h_, hover_w_) +
                                 (hover_h_ < 0 || hover_h_ >= sh.h || hover_w_ < 0 || hover_w_ >= sh.w ? tr("  padding: reads as 0") : ""));
        tooltip_row(tr("read by"), trf("%zu (row, tap) cells of this block's rows", readers.size()));
        ImGui::EndTooltip();
      }
    }
  }

  // The block's rows x R*S taps of the implicit im2col matrix (each column stands for C channels).
  void draw_matrix(const conv::Shape& sh, const conv::TileLoads& l, float height) {
    const long long m0 = block_m0(l);
    const int rows = int(std::min<long long>(l.tile_m, sh.gemm_m() - m0));
    const int taps = sh.r * sh.s;
    ImGui::TextWrapped(tr("implicit im2col, block %d: rows %lld .. %lld x %d taps of C = %d channels"), ui_.block, m0,
                m0 + rows - 1, taps, sh.c);
    if (!shows("conv.window")) {  // its padding holes count the row's padded taps
      hidden_until_reveal("conv.window", height);
      return;
    }
    ImGui::BeginChild("##matrix", {0, height}, false, ImGuiWindowFlags_NoScrollWithMouse);
    const float xs = column_stretch(rows, taps);  // a tap column is xs units wide: fill the panel
    legend_swatches(tr("columns"), {{dim(id_color(0), 0.55f), tr("tap 0")}, {dim(id_color(1), 0.55f), tr("tap 1 ...")},
                                {id_color(0), tr("the shown row")}, {rgba(30, 30, 34), tr("padding: never loaded")}});
    Canvas cv("##mcv", ui_.matrix_canvas, float(taps) * xs, float(rows), {0, 0}, ImGui::GetFontSize() * 2.5f);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(float(rows), float(taps) * xs, 1.0 / xs, tr("tap (C channels each)"));
    cv.axis_y(0, float(rows), 1, tr("row"), double(m0));
    const int tap0 = int(1ll * ui_.k_tile * l.k_tile_elements / sh.c);
    const int tap1 = int((1ll * (ui_.k_tile + 1) * l.k_tile_elements - 1) / sh.c);
    const auto readers = last_hover_h_ > -1000
                             ? conv::readers_of(sh, m0, rows, conv::row_pixel(sh, ui_.row).n, last_hover_h_, last_hover_w_)
                             : std::vector<conv::RowTap>{};
    for (int y = 0; y < rows; ++y) {
      const auto win = conv::window_of(sh, m0 + y);
      for (int t = 0; t < taps; ++t) {
        Rgba c = win[size_t(t)].in_tensor ? dim(id_color(t), 0.55f) : rgba(30, 30, 34);
        if (m0 + y == ui_.row) c = win[size_t(t)].in_tensor ? id_color(t) : rgba(60, 50, 50);
        dl->AddRectFilled(cv.to_screen(t * xs, float(y)), cv.to_screen((t + 1) * xs, float(y + 1)), c);
      }
    }
    for (const conv::RowTap& r : readers) {
      const float y = float(r.m - m0), x = float(r.r * sh.s + r.s) * xs;
      dl->AddRect(cv.to_screen(x, y), cv.to_screen(x + xs, y + 1), kHighlight, 0, 0, 2);
    }
    // The taps the selected k-tile covers.
    dl->AddRect(cv.to_screen(tap0 * xs, 0), cv.to_screen((std::min(tap1, taps - 1) + 1) * xs, float(rows)),
                IM_COL32(255, 255, 255, 200), 0, 0, 2);
    for (int t = 1; t < taps; ++t)
      dl->AddLine(cv.to_screen(t * xs, 0), cv.to_screen(t * xs, float(rows)), kGridLine);
    if (auto m = cv.mouse()) {
      const int t = int(std::floor(m->x / xs)), y = int(std::floor(m->y));
      if (t >= 0 && t < taps && y >= 0 && y < rows) {
        hover_row_ = m0 + y, hover_tap_ = t;
        const auto win = conv::window_of(sh, m0 + y);
        const conv::Npq o = conv::row_pixel(sh, m0 + y);
        ImGui::BeginTooltip();
        tooltip_row(tr("row"), trf("%lld = output (n %d, p %d, q %d)", m0 + y, o.n, o.p, o.q));
        tooltip_row(tr("tap"), trf("(r %d, s %d): k %d .. %d", t / sh.s, t % sh.s, t * sh.c, t * sh.c + sh.c - 1));
        const auto& c = win[size_t(t)];
        tooltip_row(tr("reads"), c.in_tensor ? trf("input (h %d, w %d)", c.h, c.w) : trf("padding (h %d, w %d): zero-filled", c.h, c.w));
        ImGui::EndTooltip();
        if (cv.clicked()) ui_.row = int(m0 + y);
      }
    }
    ImGui::EndChild();
  }

  // The A tile of the selected k-tile: rows x vectors, coloured by the thread that copies each.
  void draw_tile(const conv::Shape& sh, const conv::TileLoads& l) {
    if (l.tile < 0) return draw_box(sh, l);
    const int vectors = l.k_tile_elements / l.elements_per_vector;
    ImGui::TextWrapped(tr("A tile, k-tile %d (k %d .. %d): %d threads x %d cp.async of 16 bytes (%d channels)"),
                ui_.k_tile, ui_.k_tile * l.k_tile_elements, (ui_.k_tile + 1) * l.k_tile_elements - 1, l.threads,
                l.accesses_per_thread, l.elements_per_vector);
    if (!shows("conv.window")) {  // its zero-filled vectors count the row's padded taps
      hidden_until_reveal("conv.window", ImGui::GetContentRegionAvail().y);
      return;
    }
    const float xs = column_stretch(l.rows, vectors);
    legend_swatches(tr("vectors: the thread that copies it, its warp's hue, lighter by lane"),
                    {{lane_color(0, 0), tr("warp 0 lane 0")}, {lane_color(0, 31), tr("lane 31")}, {lane_color(1, 0), tr("warp 1 ...")}});
    Canvas cv("##tcv", ui_.tile_canvas, float(vectors) * xs, float(l.rows), {0, 0}, ImGui::GetFontSize() * 2.5f);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(float(l.rows), float(vectors) * xs, double(l.elements_per_vector) / xs, tr("k in the k-tile"));
    cv.axis_y(0, float(l.rows), 1, tr("row in the tile"));
    const float font = ImGui::GetFontSize();
    for (const conv::TileLoad& x : l.loads) {
      const float cx = float(x.k_in_tile / l.elements_per_vector) * xs, cy = float(x.row_in_tile);
      Rgba c = lane_color(x.thread / 32, x.thread % 32);
      if (!x.in_tensor) c = dim(c, 0.2f);
      if (x.m == ui_.row) c = x.in_tensor ? c : rgba(90, 60, 60);
      dl->AddRectFilled(cv.to_screen(cx, cy), cv.to_screen(cx + xs, cy + 1), c);
      if (cv.scale() > font * 1.1f)
        cv.label(cx, cy, cx + xs, cy + 1, ("T" + std::to_string(x.thread)).c_str(), IM_COL32(0, 0, 0, 255));
    }
    for (int v = 1; v < vectors; ++v)
      dl->AddLine(cv.to_screen(v * xs, 0), cv.to_screen(v * xs, float(l.rows)), kGridLine);
    if (auto m = cv.mouse()) {
      const int vx = int(std::floor(m->x / xs)), vy = int(std::floor(m->y));
      for (const conv::TileLoad& x : l.loads) {
        if (x.row_in_tile != vy || x.k_in_tile / l.elements_per_vector != vx) continue;
        dl->AddRect(cv.to_screen(vx * xs, float(vy)), cv.to_screen((vx + 1) * xs, float(vy + 1)), kHighlight, 0, 0, 2);
        ImGui::BeginTooltip();
        tooltip_row(tr("thread"), trf("%d (warp %d, lane %d), access %d", x.thread, x.thread / 32, x.thread % 32, x.access));
        tooltip_row(tr("GEMM"), trf("row %lld, k %d .. %d", (long long)x.m, x.kk, x.kk + l.elements_per_vector - 1));
        if (!x.row_valid) tooltip_row(tr("loads"), tr("nothing: the row is past M (zero-filled)"));
        else if (!x.k_valid) tooltip_row(tr("loads"), tr("nothing: k is past R*S*C (zero-filled)"));
        else if (!x.in_tensor)
          tooltip_row(tr("loads"), trf("nothing: input (h %d, w %d) is padding, cp.async src-size 0 zero-fills", x.input.h, x.input.w));
        else
          tooltip_row(tr("loads"), trf("input (n %d, h %d, w %d, c %d..%d), element offset %s", x.input.n, x.input.h, x.input.w, x.input.c,
                                      x.input.c + l.elements_per_vector - 1, fmt_int(x.offset).c_str()));
        ImGui::EndTooltip();
        if (cv.clicked() && x.row_valid) ui_.row = int(x.m);
        break;
      }
    }
    (void)sh;
  }

  // Stage 14d's A box of the selected k-tile: one row per output pixel, coloured by the image the
  // copy engine read it from, dark where it zero-filled (padding, or past the last image).
  void draw_box(const conv::Shape& sh, const conv::TileLoads& l) {
    const conv::Rsc tap = conv::k_tap(sh, ui_.k_tile * 64);
    if (l.matrix_box)
      ImGui::TextWrapped(tr("A box, k-tile %d (channels %d .. %d): a 1x1 filter at stride 1 reads pixel m for row m, so A "
                            "is the input itself; one cp.async.bulk.tensor.2d of %d rows x 64 channels, as in the GEMM stages"),
                         ui_.k_tile, tap.c, tap.c + 63, l.rows);
    else
      ImGui::TextWrapped(tr("A box, k-tile %d (tap r %d, s %d, channels %d .. %d): one cp.async.bulk.tensor.4d.im2col of %d "
                            "pixels x 64 channels; the copy engine walks the pixels (w, then h, then n)"),
                         ui_.k_tile, tap.r, tap.s, tap.c, tap.c + 63, l.rows);
    if (!shows("conv.window")) {  // its zero-filled rows count the row's padded taps
      hidden_until_reveal("conv.window", ImGui::GetContentRegionAvail().y);
      return;
    }
    legend_swatches(tr("rows: the image the pixel comes from"),
                    {{id_color(0), tr("image 0")}, {id_color(1), tr("image 1 ...")},
                     {dim(id_color(0), 0.22f), tr("padding: zero-filled")}, {rgba(70, 40, 40), tr("past M: zero-filled")}});
    const float xs = column_stretch(l.rows, 8);
    Canvas cv("##bcv", ui_.tile_canvas, 8 * xs, float(l.rows), {0, 0}, ImGui::GetFontSize() * 2.5f);
    ImDrawList* dl = cv.draw_list();
    cv.axis_x(float(l.rows), 8 * xs, 8.0 / xs, tr("channel in the k-tile"));
    cv.axis_y(0, float(l.rows), 1, tr("row in the tile"));
    const float font = ImGui::GetFontSize();
    for (const conv::TileLoad& x : l.loads) {
      const float cy = float(x.row_in_tile);
      Rgba c = x.in_tensor ? id_color(x.input.n) : x.row_valid ? dim(id_color(x.input.n), 0.22f) : rgba(70, 40, 40);
      if (x.m == ui_.row) c = x.in_tensor ? kHighlight : rgba(90, 60, 60);
      dl->AddRectFilled(cv.to_screen(0, cy), cv.to_screen(8 * xs, cy + 1), c);
      if (cv.scale() > font * 1.1f && x.in_tensor)
        cv.label(0, cy, 8 * xs, cy + 1, trf("(%d, %d, %d)", x.input.n, x.input.h, x.input.w).c_str(), IM_COL32(0, 0, 0, 255));
    }
    if (auto m = cv.mouse()) {
      const int vy = int(std::floor(m->y));
      if (vy >= 0 && vy < int(l.loads.size())) {
        const conv::TileLoad& x = l.loads[vy];
        dl->AddRect(cv.to_screen(0, float(vy)), cv.to_screen(8 * xs, float(vy + 1)), kHighlight, 0, 0, 2);
        ImGui::BeginTooltip();
        tooltip_row(tr("GEMM"), trf("row %lld, k %d .. %d", (long long)x.m, x.kk, x.kk + 63));
        if (!x.row_valid)
          tooltip_row(tr("loads"), trf("nothing: the row is past M; the walk is in image %d, past the last (zero-filled)", x.input.n));
        else if (!x.in_tensor)
          tooltip_row(tr("loads"), trf("nothing: input (h %d, w %d) is padding, the copy engine fills zeros", x.input.h, x.input.w));
        else
          tooltip_row(tr("loads"), trf("input (n %d, h %d, w %d, c %d..%d), element offset %s", x.input.n, x.input.h, x.input.w, x.input.c,
                                      x.input.c + 63, fmt_int(x.offset).c_str()));
        ImGui::EndTooltip();
        if (cv.clicked() && x.row_valid) ui_.row = int(x.m);
      }
    }
  }

  // int4: one 16-byte vector = 4 words x 8 nibbles (channel c in nibble c % 8 of word c / 8), and
  // the mma.m8n8k32 A fragment: lane l holds row l / 4, k 8 (l % 4) .. + 7: one word of its row.
  void draw_int4_packing() {
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);  // the whole sentence at any window width
    ImGui::TextUnformatted(tr("int4: one 16-byte vector = 32 channels, 8 per 32-bit word (channel c in nibble c % 8 of word c / 8); "
                           "in mma.m8n8k32 lane l holds word l % 4 of row l / 4:"));
    ImGui::PopTextWrapPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::min(ImGui::GetContentRegionAvail().x / 33.f, ImGui::GetFontSize() * 2.2f), h = ImGui::GetFontSize() * 1.6f;
    for (int c = 0; c < 32; ++c) {
      const int word = conv::s4_word(c), nibble = conv::s4_nibble(c);
      const ImVec2 a{p.x + (c + word * 0.25f) * w, p.y}, b{a.x + w - 1, a.y + h};
      dl->AddRectFilled(a, b, dim(id_color(word), 0.8f - 0.06f * nibble));
      const std::string t = std::to_string(c);
      dl->AddText({a.x + 2, a.y + 1}, IM_COL32(0, 0, 0, 255), t.c_str());
      if (ImGui::IsMouseHoveringRect(a, b)) {
        const FragCoord f = mma_m8n8k32_a(word, nibble);  // lanes 0-3 hold row 0
        ImGui::BeginTooltip();
        tooltip_row(tr("channel"), trf("%d of the vector", c));
        tooltip_row(tr("storage"), trf("word %d, bits %d..%d (s4_get(word, %d))", word, 4 * nibble, 4 * nibble + 3, nibble));
        tooltip_row("m8n8k32", "row 0's k " + std::to_string(f.col) + ": lane " + std::to_string(word) + ", a" +
                                   std::to_string(nibble));
        ImGui::EndTooltip();
      }
    }
    ImGui::Dummy({33 * w, h + 4});
  }

  ConvUiState ui_;
  long long hover_row_ = -1, last_hover_row_ = -1;
  int hover_tap_ = -1, last_hover_tap_ = -1;
  int hover_h_ = -1000, hover_w_ = -1000, last_hover_h_ = -1000, last_hover_w_ = -1000;
};

}  // namespace

std::unique_ptr<View> make_conv_view() { return std::make_unique<ConvView>(); }

}  // namespace gemmlab::app
