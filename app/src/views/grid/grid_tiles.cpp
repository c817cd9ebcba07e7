// The grid view's C tile grid: one texel per tile, coloured by launch order, wave, SM or DRAM
// traffic, with the partial tiles, the legend and a tooltip per tile.
#include "views/grid/grid_view.h"

namespace gemmlab::app::grid {

float GridView::grid_width() const {
  const GridModel& m = *model_;
  return narrowed() ? float(m.spec.problem.n) / float(m.spec.tile.n) : float(m.tiles.tiles_n);
}

float GridView::grid_aspect() const {
  const GridModel& m = *model_;
  return grid_width() * float(m.spec.tile.n) / std::max(1.f, float(m.tiles.tiles_m) * float(m.spec.tile.m));
}

// 40% of the view, or more (at most 60%) where the text above the grid and the canvas's margins
// would leave the grid a line of pixels: auto at 16 x 8192 x 8192 draws 1 x 64 tiles at 8:1, 88
// pixels tall across 800, below four lines of caption and legend.
float GridView::wide_tiles_height(ImVec2 avail) const {
  const GridModel& m = *model_;
  const bool partial = m.tiles.edge_rows < m.spec.tile.m || m.tiles.edge_cols < m.spec.tile.n;
  const bool not_to_scale = grid_aspect() > kMaxGridRatio;  // draw_tiles' note
  const float text = ImGui::GetTextLineHeightWithSpacing() * float(2 + partial + not_to_scale);
  const float grid = (avail.x - 2 * tiles_margin()) / std::min(grid_aspect(), kMaxGridRatio);
  return std::floor(std::clamp(text + 2 * tiles_margin() + grid, avail.y * 0.4f, avail.y * 0.6f));
}

ImVec2 GridView::tile_x(size_t t) const {
  const GridModel& m = *model_;
  if (!narrowed()) {
    const float c = float(t % static_cast<size_t>(m.tiles.tiles_n));
    return {c, c + 1};
  }
  const float tn = float(m.spec.tile.n);
  return {m.tiles.col_first[t] / tn, (m.tiles.col_first[t] + m.tiles.col_count[t]) / tn};
}

int GridView::tile_at(int r, float x) const {
  const GridModel& m = *model_;
  if (!narrowed()) return x >= 0 && x < m.tiles.tiles_n ? int(std::floor(x)) : -1;
  for (int c = 0; c < m.tiles.tiles_n; ++c) {
    const ImVec2 e = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c);
    if (e.y > e.x && x >= e.x && x < e.y) return c;
  }
  return -1;
}

void GridView::draw_partial_tiles(const Canvas& cv) const {
  const GridModel& m = *model_;
  const int tm = m.spec.tile.m, tn = m.spec.tile.n;
  const float rows = float(m.tiles.tiles_m), cols = grid_width();
  const float y_cut = rows - 1 + float(m.tiles.edge_rows) / float(tm);
  const float x_cut = cols - 1 + float(m.tiles.edge_cols) / float(tn);
  ImDrawList* dl = cv.draw_list();
  auto hatch = [&](float x0, float y0, float x1, float y1) {
    const ImVec2 a = cv.to_screen(x0, y0), b = cv.to_screen(x1, y1);
    dl->AddRectFilled(a, b, IM_COL32(15, 15, 18, 200));
    dl->PushClipRect(a, b, true);
    const float step = 6;
    for (float s = a.x - (b.y - a.y); s < b.x; s += step)
      dl->AddLine({s, b.y}, {s + (b.y - a.y), a.y}, IM_COL32(200, 90, 90, 160), 1);
    dl->PopClipRect();
  };
  if (m.tiles.edge_rows < tm) hatch(0, y_cut, cols, rows);
  if (m.tiles.edge_cols < tn) hatch(x_cut, 0, cols, y_cut);
}

void GridView::draw_tile_legend() const {
  const GridModel& m = *model_;
  if (m.tiles.edge_rows < m.spec.tile.m || m.tiles.edge_cols < m.spec.tile.n) {
    legend_swatches(tr("hatched"), {{IM_COL32(200, 90, 90, 255),
                                 trf("past M or N: the last tiles hold %d of %d rows, %d of %d columns; the rest is "
                                     "predicated off",
                                     m.tiles.edge_rows, m.spec.tile.m, m.tiles.edge_cols, m.spec.tile.n)}});
  }
  if (ui_.time < 1.0f) {
    legend_swatches(tr("now"), {{kEmptyCell, tr("not started")}, {rgba(255, 255, 255), tr("running")}});
    ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  }
  if (ui_.color_by == "wave" && shows("grid.waves")) {
    legend_ids(tr("wave"), static_cast<int>(std::ceil(m.waves.waves)));
  } else if (ui_.color_by == "wave") {
    ImGui::TextDisabled(tr("wave: ?"));
  } else if (ui_.color_by == "sm" && shows("grid.occupancy")) {
    legend_ids(tr("SM slot of the block that ends the tile"), m.waves.slots, 0, 8);
  } else if (ui_.color_by == "sm") {
    ImGui::TextDisabled(tr("SM slot of the block that ends the tile (how many slots: ?)"));
  } else if (ui_.color_by == "reuse") {
    // The largest count stays hidden while the hit rate is a prediction.
    if (l2_ && !l2_->c_tile_dram_sectors.empty())
      legend_heat(tr("DRAM sectors"), tr("0 (all from L2)"),
                  hides("grid.l2")
                      ? std::string(tr("the most of any tile"))
                      : fmt_int(*std::max_element(l2_->c_tile_dram_sectors.begin(), l2_->c_tile_dram_sectors.end())));
  } else if (ui_.color_by == "order") {
    legend_heat(tr("launch order"), tr("first block"), tr("last block"));
  } else {
    ImGui::NewLine();
  }
}

Rgba GridView::tile_color(size_t t) const {
  const GridModel& m = *model_;
  const int first = m.tiles.first_block[t];
  if (first < 0) return kEmptyCell;
  const int finishing = m.tiles.finishing_block[t] >= 0 ? m.tiles.finishing_block[t] : first;
  if (ui_.color_by == "wave")
    return hides("grid.waves") ? kEmptyCell : id_color(static_cast<int>(m.waves.wave_of(first)));
  if (ui_.color_by == "sm") return id_color(m.timeline.blocks[finishing].sm);
  if (ui_.color_by == "reuse") {
    if (!l2_ || l2_->c_tile_dram_sectors.size() != m.tiles.first_block.size() || hides("grid.l2")) return kEmptyCell;
    const auto& v = l2_->c_tile_dram_sectors;
    const double mx = std::max<double>(1, *std::max_element(v.begin(), v.end()));
    return heat_color(v[t] / mx);
  }
  return heat_color(double(first) / std::max<double>(1, m.plan.blocks.size() - 1));
}

void GridView::draw_tiles() {
  const GridModel& m = *model_;
  if (!shows("grid.tiles")) {
    ImGui::TextWrapped(tr("C: %s x %s elements, tile %d x %d"), fmt_int(m.spec.problem.m).c_str(),
                fmt_int(m.spec.problem.n).c_str(), m.spec.tile.m, m.spec.tile.n);
    hidden_until_reveal("grid.tiles", ImGui::GetContentRegionAvail().y);
    return;
  }
  if (std::max(m.tiles.tiles_m, m.tiles.tiles_n) > CellTexture::max_size()) {
    error_box(trf("The grid is %d x %d tiles; this view draws at most %d along a side (the graphics driver's "
                  "texture limit). Use larger tiles.",
                  m.tiles.tiles_m, m.tiles.tiles_n, CellTexture::max_size()));
    return;
  }
  const double now = ui_.time * m.timeline.makespan;
  // The texture changes with the time (during play) and with the colouring.
  const std::string k = ui_.color_by + std::to_string(ui_.time) + (l2_ ? "l2" : "") +
                        (hides("grid.waves") ? "?" : "") + (hides("grid.l2") ? "?l2" : "");
  if (k != tiles_key_) {
    tiles_key_ = k;
    std::vector<Rgba> px(m.tiles.first_block.size());
    for (size_t t = 0; t < px.size(); ++t) {
      Rgba c = tile_color(t);
      if (ui_.time < 1.0f) {
        if (m.tiles.first_block[t] < 0 || m.tiles.start[t] > now) c = kEmptyCell;
        else if (m.tiles.end[t] > now) c = rgba(255, 255, 255);
      }
      px[t] = c;
    }
    if (narrowed()) {  // a texel per 8 columns, where every tile's edge falls (coarser past the texture limit)
      int texel = 8;
      while (m.spec.problem.n / texel >= CellTexture::max_size()) texel *= 2;
      const int w = (m.spec.problem.n + texel - 1) / texel;
      std::vector<Rgba> wide(static_cast<size_t>(w) * m.tiles.tiles_m, kEmptyCell);
      for (size_t t = 0; t < px.size(); ++t)
        for (int x = m.tiles.col_first[t] / texel; x < (m.tiles.col_first[t] + m.tiles.col_count[t]) / texel; ++x)
          wide[t / static_cast<size_t>(m.tiles.tiles_n) * static_cast<size_t>(w) + static_cast<size_t>(x)] = px[t];
      tiles_tex_.upload(w, m.tiles.tiles_m, wide);
    } else {
      tiles_tex_.upload(m.tiles.tiles_n, m.tiles.tiles_m, px);
    }
  }
  ImGui::PushTextWrapPos(0);  // the reuse caption is longer than a narrow column
  ImGui::TextWrapped(tr("C tiles (m down, n across), colour: %s%s"), ui_.color_by.c_str(),
              ui_.color_by == "reuse"
                  ? (l2_ ? tr(" = DRAM sectors its main loop fetched (dark: reused from L2)") : tr(" (L2 replay running...)"))
                  : ui_.color_by == "order" ? tr(" (dark: launched first)") : "");
  ImGui::PopTextWrapPos();
  draw_tile_legend();
  // A cell per tile, drawn tile.n wide by tile.m tall: a square problem stays square. A grid
  // more than kMaxGridRatio times wider than tall (or taller than wide), e.g. 2 x 128 tiles of
  // 256 x 32768, would be a line of pixels: it is drawn at that ratio instead, and says so.
  const float true_stretch = float(m.spec.tile.n) / float(std::max(1, m.spec.tile.m));
  const float ratio = grid_width() * true_stretch / float(std::max(1, m.tiles.tiles_m));
  const float stretch = true_stretch * std::clamp(ratio, 1.f / kMaxGridRatio, kMaxGridRatio) / ratio;
  if (stretch != true_stretch)
    note_text(trf("Not to scale: %d x %d tiles drawn %g times %s than they are.", m.tiles.tiles_m, m.tiles.tiles_n,
                  std::round(10 * std::max(stretch / true_stretch, true_stretch / stretch)) / 10,
                  stretch < true_stretch ? tr("narrower") : tr("wider")));
  Canvas cv("##grid", ui_.grid_canvas, grid_width(), float(m.tiles.tiles_m), {0, 0}, tiles_margin(), stretch);
  cv.draw_cells(tiles_tex_, 0, 0, grid_width(), float(m.tiles.tiles_m));
  if (!narrowed()) {
    cv.draw_grid_lines(0, 0, m.tiles.tiles_n, m.tiles.tiles_m, 5);
  } else if (cv.scale() >= 5) {  // each row's own tile edges
    ImDrawList* dl = cv.draw_list();
    for (int r = 0; r < m.tiles.tiles_m; ++r) {
      dl->AddLine(cv.to_screen(0, float(r)), cv.to_screen(grid_width(), float(r)), IM_COL32(0, 0, 0, 90));
      for (int c = 0; c < m.tiles.tiles_n; ++c) {
        const float x = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c).x;
        if (c > 0 && x > 0) dl->AddLine(cv.to_screen(x, float(r)), cv.to_screen(x, r + 1.f), IM_COL32(0, 0, 0, 90));
      }
    }
  }
  // Ticks at tile edges, labelled in elements of C.
  cv.axis_x(float(m.tiles.tiles_m), grid_width(), m.spec.tile.n, tr("n, elements"));
  cv.axis_y(0, float(m.tiles.tiles_m), m.spec.tile.m, "m");
  draw_partial_tiles(cv);
  // Clusters (stages 18, 19): m tiles 2j and 2j+1 of one n tile form a cluster.
  if (const int cm = m.spec.l2.multicast_b; cm > 1 && cv.scale() * cm >= 6 && cv.scale_x() >= 6) {
    ImDrawList* dl = cv.draw_list();
    for (int r = 0; r < m.tiles.tiles_m; r += cm)
      for (int c = 0; c < m.tiles.tiles_n; ++c) {
        const ImVec2 e = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c);
        if (e.y <= e.x) continue;
        const ImVec2 a = cv.to_screen(e.x + 0.08f, r + 0.08f),
                     b = cv.to_screen(e.y - 0.08f, std::min<float>(float(r + cm), float(m.tiles.tiles_m)) - 0.08f);
        dl->AddRect(a, b, IM_COL32(255, 230, 90, 200), 2, 0, 1.5f);
      }
  }
  if (shows("grid.blocks")) draw_block_numbers(cv);
  draw_highlight_tile(cv);
  if (auto mouse = cv.mouse()) {
    const int r = int(std::floor(mouse->y));
    const int c = r >= 0 && r < m.tiles.tiles_m ? tile_at(r, mouse->x) : -1;
    if (c >= 0) tile_tooltip(cv, r, c);
  }
}

// Each tile's first block number: on every tile, or on none where the widest does not fit a tile
// (a narrowed row's tiles have their own widths: each is labelled if the widest fits it).
void GridView::draw_block_numbers(Canvas& cv) {
  const GridModel& m = *model_;
  const std::string widest = std::to_string(std::max<size_t>(1, m.plan.blocks.size()) - 1);
  if (!narrowed() && !cv.cell_fits(widest.c_str())) return;
  const ImVec2 v0 = cv.to_content(cv.min()), v1 = cv.to_content(cv.max());
  for (int r = std::max(0, int(v0.y)); r < std::min(m.tiles.tiles_m, int(v1.y) + 1); ++r)
    for (int c = 0; c < m.tiles.tiles_n; ++c) {
      const size_t t = static_cast<size_t>(r) * m.tiles.tiles_n + c;
      const ImVec2 e = tile_x(t);
      if (e.y < v0.x || e.x > v1.x + 1 || !cv.cell_fits(widest.c_str(), e.y - e.x, 1)) continue;
      const int b = m.tiles.first_block[t];
      if (b >= 0) cv.label(e.x, float(r), e.y, r + 1.f, std::to_string(b).c_str(), IM_COL32(0, 0, 0, 220));
    }
}

// The tile a lesson step talks about (grid.highlight_tile = [m, n]), outlined.
void GridView::draw_highlight_tile(Canvas& cv) {
  const GridModel& m = *model_;
  const int r = ui_.highlight_tile[0], c = ui_.highlight_tile[1];
  if (r < 0 || c < 0 || r >= m.tiles.tiles_m || c >= m.tiles.tiles_n) return;
  const ImVec2 e = tile_x(static_cast<size_t>(r) * m.tiles.tiles_n + c);
  if (e.y <= e.x) return;
  cv.draw_list()->AddRect(cv.to_screen(e.x, float(r)), cv.to_screen(e.y, r + 1.f), kHighlight, 0, 0, 3);
}

void GridView::tile_tooltip(const Canvas& cv, int r, int c) {
  const GridModel& m = *model_;
  const size_t t = static_cast<size_t>(r) * m.tiles.tiles_n + c;
  const ImVec2 e = tile_x(t);
  cv.draw_list()->AddRect(cv.to_screen(e.x, float(r)), cv.to_screen(e.y, r + 1.f), kHighlight, 0, 0, 2);
  ImGui::BeginTooltip();
  const long long col0 = narrowed() ? m.tiles.col_first[t] : static_cast<long long>(c) * m.spec.tile.n;
  tooltip_row(tr("tile"), trf("(m %d, n %d): rows %s.., cols %s..", r, c, fmt_int(static_cast<long long>(r) * m.spec.tile.m).c_str(),
                            fmt_int(col0).c_str()));
  if (narrowed()) tooltip_row(tr("width"), trf("%d columns", m.tiles.col_count[t]));
  // Its blocks, SMs, waves and times would answer an open predict question.
  if (hides("grid.blocks") || hides("grid.waves") || hides("grid.occupancy") || hides("grid.timeline")) {
    tooltip_row(tr("blocks"), tr("? (press Reveal)"));
  } else if (m.tiles.first_block[t] < 0) {
    tooltip_row(tr("blocks"), "none");
  } else {
    int shown = 0;
    for (size_t si = 0; si < m.plan.segments.size() && shown < 8; ++si) {
      const WorkSegment& s = m.plan.segments[si];
      if (s.tile_index != static_cast<int>(t)) continue;
      const int b = m.tiles.segment_block[si];
      const BlockWork& w = m.plan.blocks[b];
      const BlockRun& run = m.timeline.blocks[b];
      tooltip_row(shown == 0 ? tr("blocks") : "",
                  "#" + std::to_string(b) + " blockIdx (" + std::to_string(w.block_idx.x) + "," +
                      std::to_string(w.block_idx.y) + "," + std::to_string(w.block_idx.z) + "), k " +
                      std::to_string(s.k_iter_begin) + ".." + std::to_string(s.k_iter_end) + ", " +
                      segment_role_name(s.role) + ", SM " + std::to_string(run.sm) + ", wave " +
                      std::to_string(m.waves.wave_of(b)));
      ++shown;
    }
    if (m.tiles.blocks[t] > shown) tooltip_row("", trf("... %d more", m.tiles.blocks[t] - shown));
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f .. %.1f", m.tiles.start[t], m.tiles.end[t]);
    tooltip_row(tr("time"), buf);
    if (l2_ && t < l2_->c_tile_dram_sectors.size() && !hides("grid.l2"))
      tooltip_row(tr("DRAM"), trf("%s sectors (32 B) fetched by its main loop", fmt_int(l2_->c_tile_dram_sectors[t]).c_str()));
  }
  ImGui::EndTooltip();
}

}  // namespace gemmlab::app::grid
