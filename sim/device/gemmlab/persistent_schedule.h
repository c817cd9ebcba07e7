// The tile scheduler of the persistent Hopper stage (kernels/stages/hopper/19_persistent/):
// which output tiles each cluster computes, in which order. No CUDA here; the kernel calls these
// functions and sim/tests/test_hopper_addressing.cpp checks that every tile is visited once.
//
// Work unit: a cluster tile, cluster_m vertically neighbouring tiles (the blocks of a cluster share
// their B columns). The units are ordered as stage 12's serpentine grid orders blocks: slabs of
// `stride` n tiles, a slab walked unit row by unit row (odd slabs upwards), so units that run at
// the same time share A rows and B columns in L2. Cluster c of `clusters` takes units c,
// c + clusters, c + 2 clusters, ...; a unit past N (the last slab's padding) is skipped.
//   4096^3, 128x256 tiles, clusters of 2, stride 8: 16 unit rows x 16 n tiles = 256 units;
//   unit 0 = tiles (0,0),(1,0); unit 8 = tiles (2,0),(3,0); unit 128 = (30,8),(31,8)
//
// Stream-k tail: 8192^3 is 1024 units, on 66 clusters 15 full rounds and 34 units, which would
// leave 32 clusters idle for the last round. Instead the last 34 units' k-tiles (34 x 128) are
// split evenly over all 66 clusters (65 or 66 each, the stream-k of lesson 13): cluster c takes
// tail iterations [c T K / C, (c + 1) T K / C). Only where the last round would be at most 3/4
// full: a split costs its pieces an extra epilogue and a wait (measured on the H100: 4096^3, 58
// of 66 clusters busy in the last round, ran 1.5 points slower with the tail; 8192^3 2.4 faster).
// Of a unit split between clusters, the segment that starts at k-tile 0 stores its sums into C
// and raises the unit's flag; every other segment adds its sums into C (the TMA's reduce-add) once
// the flag is up. Each cluster computes its tail segments last one first: its unit-starting
// segment, which waits for nothing, comes first.
//
// Fewer units than clusters (512 x 512 x 16384: 4 units of 256 k-tiles): without a split 4 of 66
// clusters would run the whole K; instead every unit is split over the clusters, where each piece
// keeps at least 8 k-tiles and the split saves at least 16 k-tiles on the longest cluster (an
// estimate: a piece's epilogue alone takes about 6 k-tiles' time, its wait and add a few more;
// HOPPER_NOTES.md measures both). Where at least two clusters per unit fit with at most 1/16 of
// them idle, every unit gets `group` clusters and the same k ranges (16 x 16 k-tiles on 64
// clusters, 2 idle), so that the units sharing A rows or B columns read each k-slice at the same
// time and the L2 serves the second read; otherwise the tail ranges above (1536 x 1536 x 8192: 36
// units, 69-70 k-tiles a cluster).
//
// Two clusters spare: where there is no tail and several rounds, the plan launches two clusters
// fewer than the GPU holds when that adds no round. 4096^3 is 256 units: on 66 clusters 58 run 4
// and 8 run 3, on 64 all run 4, the same longest cluster; yet 64 ran 0.7-1.7 points of cuBLAS
// faster on the H100 (GPU time, three to four alternating rounds each: 4096^3, 4096 x 8192 x 4096,
// 2048 x 8192 x 8192, 32768 x 1024 x 1024, 2560 x 6400 x 4096; 65 clusters about half as much)
// and 0.3 on the H200.
// The chip is short of bandwidth somewhere while every SM writes its C tile at once (HOPPER_NOTES.md,
// the epilogue): four idle SMs cost less than the contention they add. Measured only on these
// 66-cluster GPUs, so only where at least 32 clusters fit.
//
// Narrowed tiles: where the last round would leave `x` clusters idle and no tail runs, the last x
// unit rows are cut into tiles_n + 1 tiles instead of tiles_n: 240 or 248 columns instead of 256
// (wgmma N is any multiple of 8, and its time scales with N: 294.5 K against 314.2 K SM cycles for
// 512 tiles of 128 x 240 against 128 x 256, H200). Every cluster then takes the same number of
// units, and the longest one computes fewer columns.
//   4096^3 on 66 clusters: 256 units would leave 8 clusters idle in the last round; unit rows 8-15
//   in 17 tiles (15 of 240 columns, 2 of 248) make 264 = 4 x 66 units, and no cluster's four add
//   up to more than 1,000 columns (1,024 before): 0.9-1.1% less time than the 64 clusters of
//   "two clusters spare" on an H100 and an H200, 100.7-101.1% of cuBLAS (HOPPER_NOTES.md).
// The narrow rows come after the wide ones (the serpentine above over the wide rows, then slabs
// of the narrow rows, odd slabs upwards), so the last rounds are narrow. Only where the problem's
// columns are whole tiles, the widths are 240 or 248 (the kernel's instantiations), and the
// longest cluster computes at least 2% fewer columns.
#pragma once
#include "gemmlab/hd.h"
#include "gemmlab/raster.h"

namespace gemmlab::persistent {

struct Plan {
  int tiles_m = 0, tiles_n = 0;  // output tiles
  int cluster_m = 1;             // tiles per unit along m
  int stride = 1;                // n tiles per slab
  int unit_rows = 0;             // ceil(tiles_m / cluster_m)
  int slabs = 0;                 // ceil(tiles_n / stride)
  int k_tiles = 1;               // k-tiles per unit
  int clusters = 1;              // launched
  int dp_units = 0;              // units computed whole: clusters x full rounds (all, without a tail)
  int tail_units = 0;            // units split by k-tile over all clusters (stream-k)
  int group = 0;                 // > 0: every unit split into `group` equal k ranges, one per cluster
  int tile_cols = 0;             // columns of a tile (the kernel's kTileN; unit_columns needs it)
  int narrow_rows = 0;           // > 0: the last unit rows hold tiles_n + 1 narrowed tiles each
  int narrow_cols = 0;           // columns of a narrowed tile; tiles from narrow_wider_from on have 8 more
  int narrow_wider_from = 0;
  GL_HD constexpr int wide_rows() const { return unit_rows - narrow_rows; }
  GL_HD constexpr int units() const {  // padding included
    return wide_rows() * stride * slabs + narrow_rows * (tiles_n + 1);
  }
  GL_HD constexpr long long tail_iterations() const { return static_cast<long long>(tail_units) * k_tiles; }
  // Start of cluster c's tail range (c = clusters: the end).
  GL_HD constexpr long long tail_begin(int c) const { return tail_iterations() * c / clusters; }
};

// Clusters left idle by the plan where that adds no round (see the top of the file).
inline constexpr int kSpareClusters = 2;
GL_HD constexpr bool spare_clusters_pay(int units, int clusters) {
  if (clusters < 32 || units <= clusters) return false;
  const int spare = clusters - kSpareClusters;
  return (units + spare - 1) / spare == (units + clusters - 1) / clusters;
}

// The split of fewer units than clusters over all of them pays (see the top of the file).
GL_HD constexpr bool split_all_pays(int units, int k_tiles, int clusters) {
  return static_cast<long long>(units) * k_tiles >= 8LL * clusters &&
         static_cast<long long>(k_tiles) * (clusters - units) >= 16LL * clusters;
}

// The columns unit u's block `rank` computes: tile row m_tile, the unit's n index in its row
// (0 .. tiles_n, tiles_n only in a narrow row), its first column and how many; cols = 0 for the
// padding units of the last slab.
struct UnitColumns {
  int m_tile = 0, n_index = 0, col0 = 0, cols = 0;
};
GL_HD constexpr UnitColumns narrow_unit_columns(const Plan& p, int v, int rank) {
  const int per_row = p.tiles_n + 1;
  const int slabs = per_row / 8 > 1 ? per_row / 8 : 1, base = per_row / slabs, extra = per_row % slabs;
  int z = 0, first = 0;  // slab z, its first n index
  for (; z + 1 < slabs; ++z) {
    const int width = base + (z < extra ? 1 : 0);
    if (v < p.narrow_rows * width) break;
    v -= p.narrow_rows * width;
    first += width;
  }
  const int width = base + (z < extra ? 1 : 0);
  const int row = (z & 1) ? p.narrow_rows - 1 - v / width : v / width;
  const int j = first + v % width;
  const int wider = j > p.narrow_wider_from ? j - p.narrow_wider_from : 0;
  return UnitColumns{(p.wide_rows() + row) * p.cluster_m + rank, j, j * p.narrow_cols + 8 * wider,
                     p.narrow_cols + (j >= p.narrow_wider_from ? 8 : 0)};
}
GL_HD constexpr UnitColumns unit_columns(const Plan& p, int u, int rank) {
  const int wide_units = p.wide_rows() * p.stride * p.slabs;
  if (u >= wide_units) return narrow_unit_columns(p, u - wide_units, rank);
  const Dim3 grid{p.stride, p.wide_rows(), p.slabs};
  const Dim3 index{u % p.stride, (u / p.stride) % p.wide_rows(), u / (p.stride * p.wide_rows())};
  const GemmCoord unit = serpentine_swizzle::get_tile_offset(index, grid);
  return UnitColumns{unit.m * p.cluster_m + rank, unit.n, unit.n * p.tile_cols, unit.n < p.tiles_n ? p.tile_cols : 0};
}

// The most columns one cluster computes (units c, c + clusters, ...).
GL_HD constexpr long long longest_cluster_cols(const Plan& p) {
  long long longest = 0;
  for (int c = 0; c < p.clusters; ++c) {
    long long cols = 0;
    for (int u = c; u < p.units(); u += p.clusters) cols += unit_columns(p, u, 0).cols;
    longest = cols > longest ? cols : longest;
  }
  return longest;
}

// The most columns one cluster would compute with every unit row whole (narrowed rows or not):
// whole-tile units over the clusters, rounded up, times a tile's columns.
GL_HD constexpr long long whole_rows_longest_cols(const Plan& p) {
  const int units = p.unit_rows * p.stride * p.slabs;
  return static_cast<long long>(ceil_div(units, p.clusters)) * p.tile_cols;
}

// The kernel's narrowed widths (hopper/19_persistent/persistent.cuh): 240 and 248 columns.
inline constexpr int kNarrowMinCols = 240, kNarrowMaxCols = 248;

// Plan p (no tail, every unit real, rest clusters busy in its last round) with its last rows
// narrowed, where that pays (see the top of the file); p itself otherwise.
GL_HD constexpr Plan narrowed(const Plan& p, int rest, int clusters) {
  const int x = clusters - rest;
  if (p.tile_cols == 0 || rest == 0 || x > p.unit_rows || p.units() <= clusters) return p;
  const int cols = p.tiles_n * p.tile_cols, per_row = p.tiles_n + 1;
  const int narrow = cols / per_row / 8 * 8;
  if (narrow < kNarrowMinCols || narrow > kNarrowMaxCols) return p;  // its wider tiles: 248 or 256
  Plan q = p;
  q.clusters = clusters;
  q.narrow_rows = x;
  q.narrow_cols = narrow;
  q.narrow_wider_from = per_row - (cols - per_row * narrow) / 8;  // the last tiles take the 8-column rest
  return 50 * longest_cluster_cols(q) <= 49 * whole_rows_longest_cols(q) ? q : p;
}

// clusters: as many as run at once. The stream-k tail (when `tail` allows it) only where every
// unit is real (no padding slab), and either at least one whole round precedes it and the last
// round would be at most 3/4 full, or there are fewer units than clusters and split_all_pays
// (then every cluster runs; otherwise at most units() clusters are launched).
// tile_cols > 0 and problem_cols = tiles_n x tile_cols (the columns are whole tiles) allow the
// narrowed tiles.
GL_HD constexpr Plan make_plan(int tiles_m, int tiles_n, int cluster_m, int max_stride, int k_tiles = 1,
                               int clusters = 1, bool tail = false, int tile_cols = 0, int problem_cols = 0) {
  Plan p;
  p.tile_cols = tile_cols;
  p.tiles_m = tiles_m;
  p.tiles_n = tiles_n;
  p.cluster_m = cluster_m;
  p.stride = serpentine_swizzle::launch_stride(tiles_n, max_stride);
  p.unit_rows = ceil_div(tiles_m, cluster_m);
  p.slabs = ceil_div(tiles_n, p.stride);
  p.k_tiles = k_tiles;
  p.clusters = clusters < p.units() ? clusters : p.units();
  const int rest = p.units() % p.clusters;
  const bool every_unit_real = tiles_n % p.stride == 0;
  if (tail && every_unit_real && p.units() < clusters && split_all_pays(p.units(), k_tiles, clusters)) {
    p.clusters = clusters;
    p.tail_units = p.units();
    // The same k ranges for every unit when that leaves at most 1/16 of the clusters idle: units
    // that share A rows or B columns then read the same k-slices at the same time.
    const int g = clusters / p.units();
    if (g >= 2 && 16 * (clusters - g * p.units()) <= clusters) p.group = g;
  } else {
    const bool partial_round = rest != 0 && 4 * rest <= 3 * p.clusters && p.units() > p.clusters;
    p.tail_units = tail && every_unit_real && partial_round ? rest : 0;
    if (p.tail_units == 0 && every_unit_real && tiles_m % cluster_m == 0 && problem_cols == tiles_n * tile_cols &&
        p.clusters == clusters)
      p = narrowed(p, rest, clusters);
    if (p.tail_units == 0 && p.narrow_rows == 0 && spare_clusters_pay(p.units(), p.clusters))
      p.clusters -= kSpareClusters;
  }
  p.dp_units = p.units() - p.tail_units;
  return p;
}

// A piece of a unit's k range: [k_begin, k_end) of unit `unit`. The piece with k_begin 0 stores
// C; the others add to it.
struct Segment {
  int unit = 0, k_begin = 0, k_end = 0;
  GL_HD constexpr bool whole(int k_tiles) const { return k_begin == 0 && k_end == k_tiles; }
  GL_HD constexpr bool stores() const { return k_begin == 0; }
};

// Cluster c's work: its whole units, then its tail segments (the last one first); with a group,
// the one piece c % group of unit c / group (clusters past group x units idle).
GL_HD constexpr int segments(const Plan& p, int c) {
  if (p.group > 0) return c < p.group * p.tail_units ? 1 : 0;
  const int whole = p.dp_units / p.clusters + (c < p.dp_units % p.clusters ? 1 : 0);
  const long long lo = p.tail_begin(c), hi = p.tail_begin(c + 1);
  const int tail = hi > lo ? int((hi - 1) / p.k_tiles - lo / p.k_tiles + 1) : 0;
  return whole + tail;
}
GL_HD constexpr Segment segment(const Plan& p, int c, int s) {
  if (p.group > 0) {  // cluster c: piece c % group of unit c / group
    const int j = c % p.group;
    return Segment{p.dp_units + c / p.group, int(static_cast<long long>(j) * p.k_tiles / p.group),
                   int(static_cast<long long>(j + 1) * p.k_tiles / p.group)};
  }
  const int whole = p.dp_units / p.clusters + (c < p.dp_units % p.clusters ? 1 : 0);
  if (s < whole) return Segment{c + s * p.clusters, 0, p.k_tiles};
  const long long lo = p.tail_begin(c), hi = p.tail_begin(c + 1);
  const int u = int((hi - 1) / p.k_tiles) - (s - whole);  // tail unit, last one first
  const long long first = static_cast<long long>(u) * p.k_tiles;
  return Segment{p.dp_units + u, int((lo > first ? lo : first) - first),
                 int((hi < first + p.k_tiles ? hi : first + p.k_tiles) - first)};
}
// Tile (m, n) that block `rank` of a cluster computes for unit u; n >= tiles_n for padding units,
// m >= tiles_m for the blocks of a last unit row that sticks out past M.
GL_HD constexpr GemmCoord unit_tile(const Plan& p, int u, int rank) {
  const Dim3 grid{p.stride, p.unit_rows, p.slabs};
  const Dim3 index{u % p.stride, (u / p.stride) % p.unit_rows, u / (p.stride * p.unit_rows)};
  const GemmCoord unit = serpentine_swizzle::get_tile_offset(index, grid);
  return GemmCoord{unit.m * p.cluster_m + rank, unit.n, 0};
}

// The flag of a split unit: raised when its k-tile-0 segment has stored C.
GL_HD constexpr int tail_flag(const Plan& p, int unit) { return unit - p.dp_units; }

static_assert(unit_tile(make_plan(32, 16, 2, 8), 0, 1) == GemmCoord{1, 0, 0});
static_assert(unit_tile(make_plan(32, 16, 2, 8), 8, 0) == GemmCoord{2, 0, 0});
static_assert(unit_tile(make_plan(32, 16, 2, 8), 128, 1) == GemmCoord{31, 8, 0});
// 8192^3 on 66 clusters: 15 rounds (990 units), 34 tail units of 128 k-tiles; cluster 1's tail
// [65, 131) is the start of tail unit 1 (computed first: it stores) and the end of tail unit 0
// (added to C after cluster 0's [0, 65) stored it). 4096^3 (58 of 66 in the last round): no tail.
constexpr Plan kPlan8192 = make_plan(64, 32, 2, 8, 128, 66, true);
static_assert(kPlan8192.dp_units == 990 && kPlan8192.tail_units == 34 && segments(kPlan8192, 1) == 17);
static_assert(segment(kPlan8192, 1, 15).unit == 991 && segment(kPlan8192, 1, 15).k_end == 3 &&
              segment(kPlan8192, 1, 15).stores());
static_assert(segment(kPlan8192, 1, 16).unit == 990 && segment(kPlan8192, 1, 16).k_begin == 65);
// 512 x 512 x 16384: 4 units on 66 clusters, all split in groups of 16 (16 k-tiles a cluster, the
// last 2 clusters idle); 1536 x 1536 x 8192 (36 units) over the tail ranges; 1000 x 1500 x 712 (24
// units of 12 k-tiles) not at all: 66 pieces of 4-5 k-tiles would each pay an epilogue.
constexpr Plan kPlan512 = make_plan(4, 2, 2, 8, 256, 66, true);
static_assert(kPlan512.clusters == 66 && kPlan512.tail_units == 4 && kPlan512.dp_units == 0 && kPlan512.group == 16 &&
              segments(kPlan512, 0) == 1 && segment(kPlan512, 0, 0).k_end == 16 && segments(kPlan512, 64) == 0 &&
              segment(kPlan512, 63, 0).unit == 3 && segment(kPlan512, 63, 0).k_begin == 240);
static_assert(make_plan(12, 6, 2, 8, 128, 66, true).tail_units == 36 &&
              make_plan(12, 6, 2, 8, 128, 66, true).group == 0);
static_assert(make_plan(8, 6, 2, 8, 12, 66, true).tail_units == 0 &&
              make_plan(8, 6, 2, 8, 12, 66, true).clusters == 24);
static_assert(make_plan(64, 32, 2, 8, 128, 66, false).tail_units == 0 &&
              make_plan(32, 16, 2, 8, 64, 66, true).tail_units == 0);
// 4096^3 with whole-tile columns: unit rows 8-15 narrowed, 264 units on all 66 clusters; unit 128
// is the first narrow one (slab 0: n indices 0-8 down rows 8-15, slab 1: 9-16 up), the last two
// tiles of a narrow row 248 columns wide; the longest cluster computes 1,000 columns, not 1,024.
constexpr Plan kPlan4096 = make_plan(32, 16, 2, 8, 64, 66, true, 256, 4096);
static_assert(kPlan4096.clusters == 66 && kPlan4096.narrow_rows == 8 && kPlan4096.units() == 264 &&
              kPlan4096.narrow_cols == 240 && kPlan4096.narrow_wider_from == 15 && kPlan4096.tail_units == 0 &&
              longest_cluster_cols(kPlan4096) == 1000 && whole_rows_longest_cols(kPlan4096) == 1024 &&
              segments(kPlan4096, 65) == 4);
static_assert(unit_columns(kPlan4096, 127, 1).m_tile == 1 && unit_columns(kPlan4096, 127, 1).col0 == 15 * 256 &&
              unit_columns(kPlan4096, 128, 0).m_tile == 16 && unit_columns(kPlan4096, 128, 0).cols == 240 &&
              unit_columns(kPlan4096, 128 + 72, 1).m_tile == 31 && unit_columns(kPlan4096, 128 + 72, 1).col0 == 9 * 240 &&
              unit_columns(kPlan4096, 263, 0).m_tile == 16 && unit_columns(kPlan4096, 263, 0).col0 == 3848 &&
              unit_columns(kPlan4096, 263, 0).cols == 248);
// Without whole-tile columns (4090 columns, 16 tiles) or on 64 clusters (256 units: whole rounds)
// nothing is narrowed; 8192^3 keeps its stream-k tail.
static_assert(make_plan(32, 16, 2, 8, 64, 66, true, 256, 4090).narrow_rows == 0 &&
              make_plan(32, 16, 2, 8, 64, 64, true, 256, 4096).narrow_rows == 0 &&
              make_plan(64, 32, 2, 8, 128, 66, true, 256, 8192).narrow_rows == 0);
// 4096^3 without narrowing (no tile columns given, or 4090 columns): 256 units, no tail (58 of 66
// in the last round) -> 64 clusters, 4 full rounds; 8192^3 keeps its 66 and the tail; 130 units
// would need a third round on 64 -> 66.
static_assert(make_plan(32, 16, 2, 8, 64, 66, true).clusters == 64 && kPlan8192.clusters == 66 &&
              !spare_clusters_pay(130, 66) && spare_clusters_pay(256, 66) && !spare_clusters_pay(256, 31));

}  // namespace gemmlab::persistent
