// Run-time form of raster.h and streamk.h: validates what the learner typed and lists, for every
// block of the launch (in launch order), which C tile(s) and which k iterations it works on.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"
#include "gemmlab/raster.h"
#include "gemmlab/streamk.h"

namespace gemmlab {

enum class OrderKind { Launch, Identity, Serpentine, AlongM, AlongN, List };

struct OrderSpec {
  OrderKind kind = OrderKind::Launch;
  int param = 1;                      // identity N, serpentine stride, SM90 max swizzle size
  std::vector<GemmCoord> tile_list;   // OrderKind::List: (m, n) tiles in launch order
};

// "launch", "identity:N" (N = 1,2,4,8), "serpentine[:S]" (S default 16, the hand-written mma_base HGEMM),
// "along-m:S" / "along-n:S" (S = 1,2,4,8), "list:m,n;m,n;..." (every tile exactly once).
Expected<OrderSpec> parse_order(const std::string& text);
std::string order_name(const OrderSpec& o);

enum class Partition { None, SplitKSerial, SplitKParallel, StreamK };
// How a split-k stage picks its slice count (gemmlab/raster.h): enough blocks to fill every slot
// (split_k_parallel_slices, stage 13a) or as many as fit one wave (split_k_wave_slices, stage 19b).
enum class SliceRule { FillSlots, OneWave };

struct PlanRequest {
  GemmCoord problem;           // M, N, K
  GemmCoord tile;              // TM, TN, TK
  OrderSpec order;
  Partition partition = Partition::None;
  int split_k = 1;             // slices for the split-k partitions
  // Stream-k only: the machine its heuristics balance across.
  int sms = 0;
  int sm_occupancy = 1;
  // Serpentine only: blocks per thread block cluster along gridDim.y (stage 18). The kernel's
  // grid rounds its m tiles up to whole clusters (hopper_launch.cuh serpentine_cluster_grid), and
  // a block past M still runs the main loop to load its part of B for its peer (ClusterPad).
  //   64 x 28672 with 128 x 256 tiles, clusters of 2: 1 x 112 tiles in 224 blocks
  int cluster_m = 1;
};

// What one block does on one C tile.
enum class SegmentRole {
  Full,          // all k iterations of the tile, then the epilogue
  SplitSerial,   // one k slice; waits for the previous slice, reads its C, writes C
  SplitParallel, // one k slice; writes its own partial C to the workspace
  SkPartial,     // stream-k: part of the tile's k; stores partial accumulators for the finisher
  SkFinish,      // stream-k: covers the tile's last iteration; waits for peers, fix-up, epilogue
  ReduceAdd,     // stage 19's stream-k tail: part of the tile's k, then adds its sums into C (the
                 // TMA's reduce-add in L2) once the tile's k-tile-0 piece has stored it
  ClusterPad,    // stage 18's block past M (its cluster rounded up): the whole main loop, loading
                 // its part of B for its peer, and no epilogue; m_tile is past the problem and
                 // tile_index is -1
};
const char* segment_role_name(SegmentRole r);

struct WorkSegment {
  int m_tile = 0;
  int n_tile = 0;
  int k_iter_begin = 0;  // in units of TK, within the tile
  int k_iter_end = 0;
  SegmentRole role = SegmentRole::Full;
  int tile_index = 0;    // m_tile * tiles_n + n_tile
  int slice = 0;         // split-k slice (blockIdx.z)
  int peers = 0;         // SkFinish: partial tiles to wait for and add
  // Stage 19's narrowed tiles (persistent_schedule.h): columns [col0, col0 + cols) instead of
  // n_tile's; n_tile is then the tile's index in its row. cols = 0: n_tile's columns.
  int col0 = 0;
  int cols = 0;
};

enum class BlockKind { Work, NoOp };  // NoOp: swizzle padding or stream-k filler, returns at once

struct BlockWork {
  Dim3 block_idx;
  GemmCoord tile{-1, -1, 0};  // the tile the order names for this block, even past the edge
                              // (k = split-k slice); stream-k: its first tile, or -1 for fillers
  BlockKind kind = BlockKind::Work;
  int first_segment = 0;
  int segment_count = 0;
  int logical_index = -1;  // stream-k: get_block_idx(); -1 elsewhere
};

struct BlockPlan {
  GemmCoord problem;
  GemmCoord tile;
  GemmCoord tiled_shape;   // (m tiles, n tiles, slices)
  Dim3 grid;
  int log_tile = 0;        // identity swizzle log_tile, or SM90 log swizzle size
  int k_iterations = 0;    // ceil(K / TK) per tile
  OrderSpec order;
  Partition partition = Partition::None;
  int split_k = 1;
  bool has_streamk = false;
  streamk::Plan streamk;
  std::vector<BlockWork> blocks;  // launch order
  std::vector<WorkSegment> segments;
  // Tiles in each tile row where the rows differ (stage 19's narrowed rows hold one tile more,
  // tiled_shape.n is then the most); empty: tiled_shape.n in every row.
  std::vector<int> row_tiles;
  // Block b runs on SM slot b % slots, after the slot's block before it (stage 19's resident
  // blocks with narrowed rows, whose tiles do not all take as long); false: a freed slot takes the
  // next block of the list.
  bool static_slots = false;
  long long tiles() const { return static_cast<long long>(tiled_shape.m) * tiled_shape.n; }
  bool tile_exists(int m, int n) const {
    return row_tiles.empty() ? n < tiled_shape.n : n < row_tiles[static_cast<size_t>(m)];
  }
};

// The C columns segment s computes: [first, first + count).
struct ColumnRange {
  long long first = 0, count = 0;
};
ColumnRange segment_columns(const BlockPlan& plan, const WorkSegment& s);

// Limits that keep a typed size from turning into a huge allocation.
inline constexpr int kMaxProblemExtent = 1 << 20;   // M, N or K
inline constexpr long long kMaxBlocks = 1LL << 20;  // blocks in one launch plan (~250 MB of plan + timeline)
inline constexpr long long kMaxTiles = 1LL << 20;   // C tiles

Expected<BlockPlan> make_block_plan(const PlanRequest& request);

// Checks the plan's coverage invariants: every in-range C tile gets each of its k iterations
// exactly once (summed over blocks), and no block works outside the problem. "" when they hold.
std::string check_plan_coverage(const BlockPlan& plan);

}  // namespace gemmlab
