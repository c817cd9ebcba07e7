// A launch as the simulator sees it, built in one place: a stage (or the learner's own settings)
// + a problem + a device -> occupancy, block plan, timeline, waves, per-tile spans and the L2
// replay's options. The Grid and Measured views, `gemmlab sim l2|schedule` and the validation
// tests all go through plan_launch, so that they cannot disagree about how a stage runs.
#pragma once
#include <optional>
#include <vector>

#include "gemmlab/device_presets.h"
#include "gemmlab/expected.h"
#include "gemmlab/l2_model.h"
#include "gemmlab/raster_analysis.h"
#include "gemmlab/schedule.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab {

// Everything plan_launch needs. stage_launch_spec fills it from a stage; the views and the CLI
// may then edit fields (the learner's "what if").
struct LaunchSpec {
  GemmCoord problem{4096, 4096, 4096};
  GemmCoord tile{128, 128, 32};
  KernelResources resources{256, 128, 32768};
  int blocks_per_sm = 0;              // > 0: use it instead of the occupancy of `resources`
  OrderSpec order;
  Partition partition = Partition::None;
  int split_k = 0;                    // slices; 0 with SplitKParallel: the kernel's own choice
  SliceRule slice_rule = SliceRule::FillSlots;  // the kernel's own choice: which rule (raster.h)
  CostModel cost;
  L2ReplayOptions l2;                 // element sizes, layouts, co-residency, global loads, multicast
  // > 0: the persistent stage. Its tile scheduler (persistent_schedule.h: clusters of this many
  // blocks along m, serpentine slabs of persistent_stride n tiles) on the device's resident
  // clusters sets the order, as a tile list: round by round, cluster by cluster, block by block,
  // which is the order in which 132 long-lived blocks take their tiles when all tiles take as
  // long. Where hopper/19_persistent/persistent.cu runs its stream-k tail, the tail's tiles become its pieces (a
  // block each, with the piece's k-tiles); the waves still count whole tiles.
  int persistent_cluster_m = 0;
  int persistent_stride = 0;
};

// The stage's launch at this problem: its tile, resources, raster, partition, layouts, loads and
// co-residency (stages.def). Fails for a stage without a threadblock tile (the naive stages) and
// for a Dispatch stage (`auto`), whose launch depends on the device: give it.
Expected<LaunchSpec> stage_launch_spec(const StageDesc& stage, GemmCoord problem);
// The same on `device`: a Dispatch stage's launch is that of the stage its rule picks there
// (stage_desc.h launched_stage).
Expected<LaunchSpec> stage_launch_spec(const StageDesc& stage, GemmCoord problem, const DeviceDesc& device);

// Per C tile of the plan: which blocks work on it and when (the Grid view's tile colours).
struct TileSpans {
  int tiles_m = 0, tiles_n = 0;
  std::vector<int> first_block;      // launch index of the first block that works on the tile
  std::vector<int> finishing_block;  // the block whose phase ends last on it (the epilogue)
  std::vector<int> blocks;           // how many blocks work on it
  std::vector<double> start, end;    // timeline units
  std::vector<int> segment_block;    // per plan segment: its block
  // Rows of the last tile row and columns of the last tile column inside the problem (the tile's
  // size when it divides M or N): the rest of those tiles is predicated off.
  int edge_rows = 0, edge_cols = 0;
  // Stage 19's narrowed rows (BlockPlan::row_tiles): each tile's first column and column count
  // (0 for the wide rows' missing last tile); empty where the grid is uniform.
  std::vector<int> col_first, col_count;
  long long alone = 0;               // tiles one block computes alone
  long long shared = 0;              // tiles several blocks share (split-k / stream-k fix-ups)
};
TileSpans tile_spans(const BlockPlan& plan, const Timeline& timeline);

// Stage 19's narrowed rows at this problem (persistent_schedule.h); rows = 0 where none.
struct NarrowedRows {
  int rows = 0;              // tile rows (both blocks of each cluster row)
  int tiles = 0;             // tiles in each of them (one more than the others)
  int cols = 0, wider = 0;   // their widths: `cols`, and cols + 8 for `wider` of them
  int tile_cols = 0;         // the others' width
  long long longest = 0;     // columns of the longest cluster, with and without the narrowing
  long long longest_whole = 0;
};

struct LaunchPlan {
  LaunchSpec spec;
  DeviceDesc device;
  Occupancy occupancy;               // of spec.resources (limiter "given" when blocks_per_sm was set)
  int blocks_per_sm = 0;
  int split_k = 1;                   // slices actually planned
  BlockPlan plan;
  Timeline timeline;
  WaveSummary waves;
  TileSpans tiles;
  long long tail_pieces = 0;         // the persistent stage's stream-k pieces (blocks past the whole tiles)
  NarrowedRows narrowed;
  std::uint64_t l2_lookups = 0;      // estimate_l2_lookups: whether the replay is affordable
};

Expected<LaunchPlan> plan_launch(const LaunchSpec& spec, const DeviceDesc& device);

// plan_launch, then replay_l2 with the plan's options (seconds for large problems); fails when
// the replay would exceed kMaxL2Lookups.
Expected<L2Report> replay_launch_l2(const LaunchPlan& plan);

}  // namespace gemmlab
