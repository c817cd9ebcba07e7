// The persistent schedule's part of a launch plan (gemmlab/persistent_launch.h): what
// plan_launch does differently for a stage whose row says schedule = Persistent.
#include "gemmlab/persistent_launch.h"

#include <algorithm>

namespace gemmlab::persistent {

void configure_launch(LaunchSpec& spec, const StageDesc& s) {
  spec.l2.multicast_b = s.cluster_m;
  spec.l2.multicast_rank_linear = true;  // the kernel's clusters take units by their linear rank
  spec.persistent_cluster_m = s.cluster_m;
  spec.persistent_stride = s.raster_param;  // the serpentine slab width of its units
}

Plan launch_plan(const LaunchSpec& spec, int clusters) {
  const int tm = ceil_div(spec.problem.m, spec.tile.m), tn = ceil_div(spec.problem.n, spec.tile.n);
  return persistent::make_plan(tm, tn, spec.persistent_cluster_m, spec.persistent_stride,
                               ceil_div(spec.problem.k, spec.tile.k), clusters, spec.problem.m % 4 == 0, spec.tile.n,
                               spec.problem.n);
}

OrderSpec tile_order(const Plan& p) {
  OrderSpec o;
  o.kind = OrderKind::List;
  if (p.narrow_rows > 0) {
    for (int m = 0; m < p.tiles_m; ++m)
      for (int n = 0; n < p.tiles_n; ++n) o.tile_list.push_back({m, n, 0});
    return o;
  }
  for (int u0 = 0; u0 < p.units(); u0 += p.clusters)
    for (int u = u0; u < std::min(u0 + p.clusters, p.units()); ++u)
      for (int r = 0; r < p.cluster_m; ++r) {
        const GemmCoord t = persistent::unit_tile(p, u, r);
        if (t.m < p.tiles_m && t.n < p.tiles_n) o.tile_list.push_back({t.m, t.n, 0});
      }
  return o;
}

namespace {

// A block of the persistent stage's list with one segment: tile (m, n), k-tiles [k_begin, k_end).
WorkSegment& add_persistent_block(BlockPlan& plan, int m, int n, int k_begin, int k_end) {
  WorkSegment w;
  w.m_tile = m;
  w.n_tile = n;
  w.tile_index = m * plan.tiled_shape.n + n;
  w.k_iter_begin = k_begin;
  w.k_iter_end = k_end;
  BlockWork b;
  b.block_idx = Dim3{static_cast<int>(plan.blocks.size()), 0, 0};
  b.tile = {m, n, 0};
  b.first_segment = static_cast<int>(plan.segments.size());
  b.segment_count = 1;
  plan.segments.push_back(w);
  plan.blocks.push_back(b);
  return plan.segments.back();
}

}  // namespace

// Narrowed rows: the blocks in the order the clusters take their units (round by round), each
// with its unit's columns; the narrow rows' tiles are indexed 0 .. tiles_n in their row.
// 4096^3 on 66 clusters: 264 units, 528 blocks, rows 16-31 of 17 tiles.
void narrow_rows(BlockPlan& plan, const Plan& p) {
  plan.blocks.clear();
  plan.segments.clear();
  plan.tiled_shape.n = p.tiles_n + 1;
  plan.static_slots = true;  // block 2u + r is cluster u % clusters' block r: slot (2u + r) % (2 x clusters)
  plan.row_tiles.assign(static_cast<size_t>(p.tiles_m), p.tiles_n);
  for (int m = p.wide_rows() * p.cluster_m; m < p.tiles_m; ++m) plan.row_tiles[static_cast<size_t>(m)] = p.tiles_n + 1;
  for (int u = 0; u < p.units(); ++u)
    for (int r = 0; r < p.cluster_m; ++r) {
      const persistent::UnitColumns c = persistent::unit_columns(p, u, r);
      if (c.cols == 0) continue;
      WorkSegment& w = add_persistent_block(plan, c.m_tile, c.n_index, 0, p.k_tiles);
      w.col0 = c.col0;
      w.cols = c.cols;
    }
  plan.grid = Dim3{static_cast<int>(plan.blocks.size()), 1, 1};
  plan.order.tile_list.clear();  // the order the blocks now take their tiles: (m, index in the row)
  for (const BlockWork& b : plan.blocks) plan.order.tile_list.push_back(b.tile);
}

// The stream-k tail: the tail units' whole-tile blocks (the last of the list) become the pieces
// the clusters compute, each a block with the piece's k-tiles: every cluster's first tail
// segment, then every cluster's second, ... (the order in which the resident blocks take them).
// 8192^3 on 66 clusters: 34 units = 68 tiles become 2 x 98 pieces of 3 to 66 k-tiles.
long long split_tail(BlockPlan& plan, const Plan& p) {
  if (p.tail_units == 0) return 0;
  long long tail_tiles = 0;
  for (int u = p.dp_units; u < p.units(); ++u)
    for (int r = 0; r < p.cluster_m; ++r) {
      const GemmCoord t = persistent::unit_tile(p, u, r);
      tail_tiles += t.m < p.tiles_m && t.n < p.tiles_n;
    }
  if (tail_tiles == 0 || static_cast<size_t>(tail_tiles) > plan.blocks.size()) return 0;
  const size_t keep = plan.blocks.size() - static_cast<size_t>(tail_tiles);  // 0: every unit split
  plan.segments.resize(static_cast<size_t>(plan.blocks[keep].first_segment));
  plan.blocks.resize(keep);
  for (int i = 0;; ++i) {  // i-th tail segment of each cluster
    bool any = false;
    for (int c = 0; c < p.clusters; ++c) {
      const int whole = p.dp_units / p.clusters + (c < p.dp_units % p.clusters ? 1 : 0);
      if (whole + i >= persistent::segments(p, c)) continue;
      any = true;
      const persistent::Segment g = persistent::segment(p, c, whole + i);
      for (int r = 0; r < p.cluster_m; ++r) {
        const GemmCoord t = persistent::unit_tile(p, g.unit, r);
        if (t.m >= p.tiles_m || t.n >= p.tiles_n) continue;
        add_persistent_block(plan, t.m, t.n, g.k_begin, g.k_end).role =
            g.stores() ? SegmentRole::Full : SegmentRole::ReduceAdd;
      }
    }
    if (!any) break;
  }
  plan.grid = Dim3{static_cast<int>(plan.blocks.size()), 1, 1};
  return static_cast<long long>(plan.blocks.size() - keep);
}


}  // namespace gemmlab::persistent
