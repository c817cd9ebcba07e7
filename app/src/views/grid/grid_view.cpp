// The grid view's settings, predict answers, export, layout and controls (grid_view.h).
#include "views/grid/grid_view.h"

#include "gemmlab/dispatch.h"

namespace gemmlab::app::grid {

GridView::~GridView() {
  if (l2_job_.valid()) l2_job_.wait();
}

void GridView::apply(const Json& s) {
  ui_ = GridUiState{};
  auto get3 = [&](const char* k, int* v) {
    if (s.contains(k))
      for (int i = 0; i < 3; ++i) v[i] = s[k][i];
  };
  get3("problem", ui_.problem);
  if (s.contains("stage")) ui_.stage = s["stage"];
  if (s.contains("stage") && s.contains("order")) ui_.stage_order = s["order"];
  get3("tile", ui_.tile);
  if (s.contains("order")) ui_.order = s["order"];
  if (s.contains("split_k")) ui_.split_k = s["split_k"];
  if (s.contains("split_k_mode")) ui_.split_k_mode = s["split_k_mode"];
  if (s.contains("stream_k")) ui_.stream_k = s["stream_k"];
  if (s.contains("device")) ui_.device = s["device"];
  if (s.contains("threads")) ui_.threads = s["threads"];
  if (s.contains("regs")) ui_.regs = s["regs"];
  if (s.contains("smem")) ui_.smem = s["smem"];
  if (s.contains("dtype")) ui_.dtype = s["dtype"];
  if (s.contains("color_by")) ui_.color_by = s["color_by"];
  if (s.contains("block_detail")) ui_.block_detail = s["block_detail"];
  if (s.contains("highlight_warp")) ui_.highlight_warp = s["highlight_warp"];
  if (s.contains("highlight_tile")) ui_.highlight_tile[0] = s["highlight_tile"][0], ui_.highlight_tile[1] = s["highlight_tile"][1];
  if (s.contains("time")) ui_.time = s["time"].get<float>();
  // time = 0 in a lesson means "before launch": show the finished picture until Play.
  if (s.contains("time") && ui_.time <= 0) ui_.time = 1.0f;
  show_stage_values();
}

void GridView::set_playing(bool on) {
  if (on && ui_.time >= 1.0f) ui_.time = 0;
  ui_.playing = on;
}

std::optional<std::string> GridView::answer_in_settings(const PredictSpec& spec, double) const {
  if (spec.quantity == "grid.l2_hit_rate" && ui_.color_by == "reuse")
    return std::string("grid.color_by = \"reuse\" colours the tiles by the DRAM sectors the hit rate comes from (blank "
                       "until Reveal); colour by \"order\", what the answer is computed from");
  if ((spec.quantity == "grid.waves" || spec.quantity == "grid.last_wave_blocks") && ui_.color_by == "wave")
    return std::string("grid.color_by = \"wave\" colours the tiles by the answer (blank until Reveal); colour by \"order\"");
  return std::nullopt;
}

Expected<double> GridView::predict(const PredictSpec& spec) const {
  auto* self = const_cast<GridView*>(this);
  self->recompute();
  if (!model_) return Error{error_};
  const GridModel& m = *model_;
  if (spec.quantity == "grid.blocks") return double(m.waves.blocks);
  if (spec.quantity == "grid.waves") return m.waves.waves;
  if (spec.quantity == "grid.blocks_per_sm") return double(m.occupancy.blocks_per_sm);
  if (spec.quantity == "grid.last_wave_blocks") {
    return double(m.waves.last_wave_blocks);
  }
  if (spec.quantity == "grid.l2_hit_rate") {
    self->wait_for_l2();
    if (!l2_) return Error{l2_error_.empty() ? "the L2 replay did not run" : l2_error_};
    return 100.0 * l2_->hit_rate;
  }
  return View::predict(spec);
}

Json GridView::export_data() const {
  auto* self = const_cast<GridView*>(this);
  self->recompute();
  Json out;
  out["view"] = id();
  out["problem"] = {ui_.problem[0], ui_.problem[1], ui_.problem[2]};
  if (!ui_.stage.empty()) out["stage"] = ui_.stage;
  out["tile"] = {ui_.tile[0], ui_.tile[1], ui_.tile[2]};
  out["order"] = ui_.order;
  out["device"] = ui_.device;
  if (!model_) {
    out["error"] = error_;
    return out;
  }
  const GridModel& m = *model_;
  if (!ui_.stage.empty()) {
    out["tile"] = {m.spec.tile.m, m.spec.tile.n, m.spec.tile.k};
    out["order"] = order_name(m.plan.order);
  }
  if (facts_) {  // the facts the settings row and the line above the tiles show
    const LaunchFacts& f = *facts_;
    out["launch"] = {{"stage", f.stage->id},
                     {"launched", f.launched->id},
                     {"tile", {f.tile.m, f.tile.n, f.tile.k}},
                     {"threads", f.resources.threads},
                     {"regs", f.resources.regs_per_thread},
                     {"smem", f.resources.smem_per_block},
                     {"cluster_m", f.cluster_m},
                     {"split_k", f.split_k},
                     {"blocks", f.blocks},
                     {"facts", f.line}};
    out["settings_row"] = {{"tile", {ui_.tile[0], ui_.tile[1], ui_.tile[2]}}, {"threads", ui_.threads},
                           {"regs", ui_.regs},  {"smem", ui_.smem}, {"split_k", ui_.split_k},
                           {"stream_k", ui_.stream_k}};
  }
  out["blocks_per_sm"] = m.occupancy.blocks_per_sm;
  out["occupancy_limiter"] = m.occupancy.limiter;
  out["blocks"] = m.waves.blocks;
  out["slots"] = m.waves.slots;
  out["waves"] = m.waves.waves;
  out["tiled_shape"] = {m.tiles.tiles_m, m.tiles.tiles_n};
  if (ui_.highlight_tile[0] >= m.tiles.tiles_m || ui_.highlight_tile[1] >= m.tiles.tiles_n) {
    out["error"] = "grid.highlight_tile = [" + std::to_string(ui_.highlight_tile[0]) + ", " +
                   std::to_string(ui_.highlight_tile[1]) + "] is outside the " + std::to_string(m.tiles.tiles_m) + " x " +
                   std::to_string(m.tiles.tiles_n) + " tiles";
    return out;
  }
  out["relative_time"] = m.timeline.makespan;
  Json tiles = Json::array();
  for (size_t t = 0; t < m.tiles.first_block.size(); ++t) {
    Json row = {t / m.tiles.tiles_n, t % m.tiles.tiles_n, m.tiles.first_block[t], m.tiles.finishing_block[t],
                m.tiles.blocks[t], m.tiles.start[t], m.tiles.end[t]};
    if (narrowed()) {  // stage 19's narrowed rows: each tile's columns; a wide row has no last tile
      if (m.tiles.col_count[t] == 0) continue;
      row.push_back(m.tiles.col_first[t]);
      row.push_back(m.tiles.col_count[t]);
    }
    tiles.push_back(row);
  }
  out["tiles_columns"] = {"m_tile", "n_tile", "first_block", "finishing_block", "blocks", "start", "end"};
  if (narrowed()) {
    out["tiles_columns"].push_back("col0");
    out["tiles_columns"].push_back("cols");
    const NarrowedRows& n = m.narrowed;
    out["narrowed"] = {{"rows", n.rows}, {"tiles", n.tiles}, {"cols", n.cols}, {"wider", n.wider},
                       {"longest_cluster_cols", n.longest}, {"longest_cluster_cols_whole", n.longest_whole}};
  }
  out["tiles"] = tiles;
  Json runs = Json::array();
  for (size_t b = 0; b < m.timeline.blocks.size(); ++b) {
    const BlockRun& r = m.timeline.blocks[b];
    runs.push_back({b, r.slot, r.sm, r.start, r.end, r.wait_time});
  }
  out["blocks_columns"] = {"block", "slot", "sm", "start", "end", "wait"};
  out["block_runs"] = runs;
  if (l2_) {
    out["l2_hit_rate"] = l2_->hit_rate;
    out["l2_hit_rate_over_time"] = l2_->hit_rate_over_time;
    out["dram_bytes_read"] = l2_->dram_bytes_read;
    out["c_tile_dram_sectors"] = l2_->c_tile_dram_sectors;
  }
  return out;
}

void GridView::draw(ViewContext& ctx) {
  draw_controls();
  recompute();
  if (!model_) {
    error_box(error_);
    return;
  }
  poll_l2(ctx.headless);
  if (ui_.playing && !ctx.headless) {
    // A launch plays in about 8 seconds, whatever its size.
    ui_.time = std::min(1.0f, ui_.time + ctx.dt / 8.0f);
    if (ui_.time >= 1.0f) ui_.playing = false;
  }
  draw_summary();
  draw_time_bar();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // A grid much wider than tall (lesson 18's 2 x 128 tiles) would be a thin strip in half the
  // width: it gets the whole width on top, and the slots and the L2 sit side by side below.
  const bool wide = !ui_.block_detail && grid_aspect() > kStackedAspect;
  const ImVec2 tiles_size = wide ? ImVec2{0, wide_tiles_height(avail)} : ImVec2{std::floor(avail.x * 0.5f), 0};
  ImGui::BeginChild("##tiles", tiles_size, false, ImGuiWindowFlags_NoScrollWithMouse);
  if (ui_.block_detail)
    draw_simt_block_detail(ui_.block_canvas, ui_.highlight_warp);
  else
    draw_tiles();
  ImGui::EndChild();
  if (wide) {
    const float h = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("##slots_below", {std::floor(ImGui::GetContentRegionAvail().x * 0.5f), 0}, false,
                      ImGuiWindowFlags_NoScrollWithMouse);
    draw_slots(h);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##l2_below", {0, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
    draw_l2(h);
    ImGui::EndChild();
    return;
  }
  ImGui::SameLine();
  ImGui::BeginChild("##right", {0, 0}, false, ImGuiWindowFlags_NoScrollWithMouse);
  const float right_h = ImGui::GetContentRegionAvail().y;
  draw_slots(right_h * 0.6f);
  draw_l2(right_h * 0.4f - ImGui::GetStyle().ItemSpacing.y);
  ImGui::EndChild();
}

void GridView::draw_controls() {
  // A stage of the ladder fixes tile, resources, raster, partition and operands (stages.def).
  std::vector<std::string> stages = {"(own settings)"};
  for (const StageDesc& st : stage_table())
    if (st.has_tile()) stages.push_back(st.id);
  std::string stage = ui_.stage.empty() ? stages.front() : ui_.stage;
  if (combo_string(tr("stage"), &stage, stages, 10)) {
    ui_.stage = stage == stages.front() ? "" : stage;
    ui_.stage_order.clear();
    show_stage_values();
  }
  help_marker(tr("A stage launches as its kernel does: its tile, threads, registers and shared memory, "
              "block order, split-k / stream-k plan, operand layouts and co-residency (stages.def). "
              "\"(own settings)\" lets you set each of them."));
  ImGui::SameLine();
  input_int3(tr("problem M,N,K"), ui_.problem, 1, kMaxProblemExtent, 6);
  static const std::vector<std::string> orders = {"launch", "identity:1", "identity:2", "identity:4",
                                                  "identity:8", "serpentine", "serpentine:8", "along-m:2",
                                                  "along-m:4", "along-m:8", "along-n:2", "along-n:4", "along-n:8"};
  const bool own = ui_.stage.empty();
  if (!own) {
    ImGui::SameLine();
    std::vector<std::string> with_stage = {"the stage's"};
    with_stage.insert(with_stage.end(), orders.begin(), orders.end());
    std::string order = ui_.stage_order.empty() ? with_stage.front() : ui_.stage_order;
    if (combo_string(tr("order"), &order, with_stage, 10)) ui_.stage_order = order == with_stage.front() ? "" : order;
  }
  ImGui::BeginDisabled(!own);
  if (own) ImGui::SameLine();
  input_int3(tr("tile TM,TN,TK"), ui_.tile, 1, 4096, 4);
  if (own) {
    ImGui::SameLine();
    std::string order = ui_.order;
    if (combo_string(tr("order"), &order, orders, 10)) ui_.order = order;
  }
  help_marker(tr("launch: blockIdx.x along M. identity:N: CUTLASS GemmIdentityThreadblockSwizzle<N>. "
              "serpentine: the hand-written mma_base HGEMM's zig-zag. along-m:S / along-n:S: CUTLASS 3 rasterisation "
              "with swizzle size S."));
  ImGui::EndDisabled();
  same_line_if_fits(field_width(6) + ImGui::CalcTextSize(tr("device")).x + 8);
  static const std::vector<std::string> devices = {"h100", "h200", "a100", "rtx4090"};
  combo_string(tr("device"), &ui_.device, devices, 6);

  ImGui::BeginDisabled(!own);
  input_int(tr("split-k"), &ui_.split_k, 1, 1024, 4);
  if (ui_.split_k > 1) {
    ImGui::SameLine();
    static const std::vector<std::string> modes = {"serial", "parallel"};
    combo_string(tr("mode"), &ui_.split_k_mode, modes, 7);
  }
  same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(tr("stream-k")).x + 8);
  ImGui::Checkbox(tr("stream-k"), &ui_.stream_k);
  ImGui::SameLine();
  input_int(tr("threads"), &ui_.threads, 1, 1024, 4);
  ImGui::SameLine();
  input_int(tr("regs"), &ui_.regs, 1, 255, 3);
  same_line_if_fits(field_width(6) + ImGui::CalcTextSize(tr("smem B")).x + 8);
  input_int(tr("smem B"), &ui_.smem, 0, 1 << 20, 6);
  same_line_if_fits(field_width(3) + ImGui::CalcTextSize(tr("dtype")).x + 8);
  static const std::vector<std::string> dtypes = {"f16", "f32"};
  combo_string(tr("dtype"), &ui_.dtype, dtypes, 3);
  ImGui::EndDisabled();
  same_line_if_fits(field_width(5) + ImGui::CalcTextSize(tr("colour by")).x + 8);
  static const std::vector<std::string> colorings = {"order", "wave", "sm", "reuse"};
  combo_string(tr("colour by"), &ui_.color_by, colorings, 5);
  same_line_if_fits(ImGui::CalcTextSize(tr("one block")).x + ImGui::GetFrameHeight() * 2);
  ImGui::Checkbox(tr("one block"), &ui_.block_detail);
  if (ui_.block_detail) {
    same_line_if_fits(field_width(3) + ImGui::CalcTextSize(tr("warp (-1: all)")).x + 8);
    input_int(tr("warp (-1: all)"), &ui_.highlight_warp, -1, 7, 3);
  }
}

void GridView::draw_summary() {
  const GridModel& m = *model_;
  // What a predict step leaves out is named by the facts of model/predict_rules.h.
  const bool hide_blocks = !shows("grid.blocks");
  const bool hide_per_sm = !shows("grid.occupancy");
  const bool hide_waves = !shows("grid.waves");
  const bool hide_tiles = !shows("grid.tiles");
  const std::string waves = trf("%.2f waves, last wave %.0f%% full", m.waves.waves, 100.0 * m.waves.tail_utilisation);
  // The persistent stage launches one block per slot; its "blocks" here are the tiles they take.
  const bool persistent = m.spec.persistent_cluster_m > 0;
  ImGui::TextWrapped(persistent ? tr("%s x %s tiles, %s turns of the resident blocks (%s)   %s per SM (%s) x %d SMs = %s slots   %s")
                         : tr("%s x %s tiles, %s blocks (grid %s)   %s per SM (%s) x %d SMs = %s slots   %s"),
              hide_tiles ? "?" : std::to_string(m.tiles.tiles_m).c_str(),
              hide_tiles       ? "?"
              : m.narrowed.rows ? (std::to_string(m.tiles.tiles_n - 1) + "-" + std::to_string(m.tiles.tiles_n)).c_str()
                                : std::to_string(m.tiles.tiles_n).c_str(),
              hide_blocks ? "?" : fmt_int(m.waves.blocks).c_str(),
              hide_blocks ? "?"
              : persistent ? tr("the scheduler's list")
                           : (std::to_string(m.plan.grid.x) + "," + std::to_string(m.plan.grid.y) + "," +
                              std::to_string(m.plan.grid.z)).c_str(),
              hide_per_sm ? "?" : std::to_string(m.occupancy.blocks_per_sm).c_str(),
              hide_per_sm ? "?" : tr(m.occupancy.limiter.c_str()), m.timeline.sms,
              hide_per_sm ? "?" : std::to_string(m.waves.slots).c_str(),
              hide_waves ? tr("waves: ?") : waves.c_str());
  if (m.spec.persistent_cluster_m > 0 && !hide_per_sm && !hide_waves && m.tail_pieces == 0)
    note_text(trf("Persistent: %d blocks (%d clusters of %d) stay resident and take the tiles in the scheduler's "
                  "order: here each tile is one of their turns, a 'wave' one round. No tile is split into a "
                  "stream-k tail here.",
                  m.timeline.sms * m.blocks_per_sm, m.timeline.sms * m.blocks_per_sm / m.spec.persistent_cluster_m,
                  m.spec.persistent_cluster_m));
  else if (m.spec.persistent_cluster_m > 0 && !hide_per_sm && !hide_waves)
    note_text(trf("Persistent: %d blocks (%d clusters of %d) stay resident and take the tiles in the scheduler's "
                  "order: here each tile is one of their turns, a 'wave' one round. Where the last round would be "
                  "at most 3/4 full, or there are fewer cluster tiles than clusters and K is long, its tiles run as "
                  "the kernel's stream-k tail (here %lld pieces, each a part of one tile's k-tiles, all in the last "
                  "round).",
                  m.timeline.sms * m.blocks_per_sm, m.timeline.sms * m.blocks_per_sm / m.spec.persistent_cluster_m,
                  m.spec.persistent_cluster_m, m.tail_pieces));
  if (const NarrowedRows& n = m.narrowed; n.rows > 0 && !hide_tiles && !hide_waves)
    note_text(trf("Narrowed tiles: the last %d tile rows hold %d tiles each, of %d columns (%d of them %d), instead "
                  "of tiles of %d, so that every cluster takes as many tiles; the longest cluster computes %s "
                  "columns of C instead of %s.",
                  n.rows, n.tiles, n.cols, n.wider, n.cols + 8, n.tile_cols, fmt_int(n.longest).c_str(),
                  fmt_int(n.longest_whole).c_str()));
  if (m.spec.persistent_cluster_m > 0 && !hide_per_sm && m.timeline.sms < m.device.sms)
    note_text(trf("The scheduler leaves %d of the %d SMs idle: with two clusters spare the tiles still take no "
                  "more rounds, and no stream-k tail is needed.",
                  m.device.sms - m.timeline.sms, m.device.sms));
  // The dispatcher (`auto`) draws the launch its rule picks at this problem: say which, and why.
  if (facts_ && facts_->dispatched() && !hide_tiles) {
    if (!hide_blocks) ImGui::TextWrapped("%s", fill_sentence(tr(facts_->format), facts_->args).c_str());
    if (const auto d = dispatch_auto(m.spec.problem, m.device))
      note_text(trf("The rule: %s", fill_sentence(tr(d->format), d->args).c_str()));
  }
  if (m.spec.l2.multicast_b > 1)
    note_text(trf("Outlined pairs: the %d blocks of a cluster (neighbouring m tiles, the same n tile). One B load "
                  "per cluster reaches L2; the TMA multicasts it into both blocks' shared memory.",
                  m.spec.l2.multicast_b));
  const double eff = m.timeline.efficiency();
  if (shows("grid.timeline"))
    ImGui::TextWrapped(tr("time %.0f (units of one k iteration)   ideal %.0f   slot efficiency %.0f%%"),
                m.timeline.makespan, m.timeline.ideal_time(), 100 * eff);
  else
    ImGui::TextWrapped("%s", tr("time ?   ideal ?   slot efficiency ?"));
  if (m.plan.partition != Partition::None && !hide_blocks && !hide_tiles) {
    const long long alone = m.tiles.alone, shared = m.tiles.shared;
    ImGui::SameLine();
    if (m.plan.has_streamk)
      ImGui::TextWrapped(tr("   stream-k: %d SK + %d DP blocks; %lld tiles done by one block, %lld shared (fix-up)"),
                  m.plan.streamk.sk_blocks, m.plan.streamk.dp_blocks, alone, shared);
    else
      ImGui::TextWrapped(tr("   split-k: %d slices; %lld tiles shared by several blocks"), m.plan.split_k, shared);
  }
}

void GridView::draw_time_bar() {
  if (ImGui::Button(ui_.playing ? tr("Pause") : tr("Play"))) set_playing(!ui_.playing);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field_width(30));
  const double t = ui_.time * model_->timeline.makespan;
  char fmt[64];
  if (hides("grid.timeline"))
    std::snprintf(fmt, sizeof fmt, "t = ?");
  else
    std::snprintf(fmt, sizeof fmt, "%s", trf("t = %.0f of %.0f", t, model_->timeline.makespan).c_str());
  ImGui::SliderFloat("##time", &ui_.time, 0, 1, fmt);
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(tr("Tiles: grey = not started, white = running. Slot timeline: waits red, "
                      "partial stores orange, fix-ups purple, epilogues white."));
}

}  // namespace gemmlab::app::grid

namespace gemmlab::app {

std::unique_ptr<View> make_grid_view() { return std::make_unique<grid::GridView>(); }

}  // namespace gemmlab::app
