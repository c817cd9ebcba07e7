// The grid view's settings, predict facts and rules (views/view_spec.h); drawn by grid_view.cpp.
#include "views/setting_checks.h"
#include "gemmlab/device_presets.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab::app {

using namespace checks;

namespace {

// Stages the Grid view can launch: those with a threadblock tile.
std::vector<std::string> tiled_stage_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table())
    if (s.has_tile()) ids.push_back(s.id);
  return ids;
}

}  // namespace

const ViewSpec& grid_view_spec() {
  static const ViewSpec spec = {
      "grid",
      "Grid, SMs & L2",
      {{"stage", one_of(tiled_stage_ids())},
        {"problem", int_tuple(3, 1, gemmlab::kMaxProblemExtent, "[M, N, K]")},
        {"tile", int_tuple(3, 1, 4096, "[TM, TN, TK]")},
        {"order", parsed_by([](const std::string& x) { return parse_order(x); })},
        {"split_k", integer(1, 1024)},
        {"split_k_mode", one_of({"serial", "parallel"})},
        {"stream_k", boolean()},
        {"device", parsed_by([](const std::string& x) { return device_preset(x); })},
        {"threads", integer(1, 1024)},
        {"regs", integer(1, 255)},
        {"smem", integer(0, 1 << 20)},
        {"dtype", one_of({"f16", "f32"})},
        {"color_by", one_of({"order", "wave", "sm", "reuse"})},
        {"time", number(0.0, 1.0)},
        {"block_detail", boolean()},
        {"highlight_warp", integer(-1, 7)},
        {"highlight_tile", int_tuple(2, -1, 1 << 20, "[m, n] of a C tile (-1: none)")}},
      {
          {"grid.tiles", "the C tile grid (tiles, their block numbers, the partial tiles)"},
          {"grid.blocks", "the block count and the grid's dimensions"},
          {"grid.occupancy", "blocks per SM, what limits them, the SM slots"},
          {"grid.waves", "the waves, the last wave's fill, the colouring by wave"},
          {"grid.timeline", "the SM slots over time, the time and the slot efficiency"},
          {"grid.l2", "the L2 hit rate, the DRAM traffic and each tile's DRAM sectors"},
      },
      {
          {"grid.blocks", "the problem size, the tile and split-k",
       {"grid.blocks", "grid.waves", "grid.timeline"}, {"grid.tiles"}},
          {"grid.waves", "the block count and the SM slots", {"grid.waves", "grid.timeline"}, {}},
          {"grid.last_wave_blocks", "the block count and the SM slots",
       {"grid.waves", "grid.timeline"}, {}},
          {"grid.blocks_per_sm", "the block's threads, registers and shared memory, and the SM's limits",
       {"grid.occupancy", "grid.waves", "grid.timeline"}, {}},
          {"grid.l2_hit_rate", "the launch order, the tiles' footprint and the L2 size", {"grid.l2"}, {}},
      },
  };
  return spec;
}

}  // namespace gemmlab::app
