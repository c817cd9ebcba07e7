#include "gemmlab/launch_plan.h"

#include "gemmlab/persistent_launch.h"
#include "gemmlab/persistent_schedule.h"

#include <algorithm>
#include <string>

namespace gemmlab {

Expected<LaunchSpec> stage_launch_spec(const StageDesc& s, GemmCoord problem) {
  if (!s.has_tile())
    return Error{std::string("stage ") + s.id + " has no threadblock tile: each thread computes one C element, "
                 "there is no block plan to simulate"};
  if (s.schedule == BlockSchedule::Dispatch)
    return Error{std::string("stage ") + s.id + " picks another stage's launch per problem and device: "
                 "plan it on a device"};
  LaunchSpec o;
  o.problem = problem;
  o.tile = {s.tile_m, s.tile_n, s.tile_k};
  o.resources = {s.threads, s.regs, s.smem};
  o.order.kind = s.raster;
  o.order.param = s.raster_param;
  if (s.raster == OrderKind::Serpentine)  // as the kernel launches it (staged_epilogue.cuh)
    o.order.param = serpentine_swizzle::launch_stride((problem.n + s.tile_n - 1) / s.tile_n, s.raster_param);
  o.partition = s.partition;
  o.split_k = 0;  // split-k: the kernel's own choice of slices
  o.slice_rule = s.slice_rule;
  o.l2.element_bytes = s.element_bytes();
  o.l2.a_order = s.a_order();
  o.l2.b_order = s.b_order();
  o.l2.c_element_bytes = s.c_element_bytes();
  o.l2.c_order = s.c_order();
  o.l2.global_load = s.loads;
  o.l2.coresident.enabled = s.coresident == Coresidency::OlderFirst;
  // A cluster stage multicasts B to the blocks of its cluster; a persistent one also schedules
  // its tiles itself (gemmlab/persistent_launch.h).
  if (s.cluster_m > 1) o.l2.multicast_b = s.cluster_m;
  if (s.schedule == BlockSchedule::Persistent) persistent::configure_launch(o, s);
  return o;
}

Expected<LaunchSpec> stage_launch_spec(const StageDesc& s, GemmCoord problem, const DeviceDesc& device) {
  if (problem.m < 1 || problem.n < 1 || problem.k < 1) return Error{"M, N and K must be at least 1"};
  return stage_launch_spec(launched_stage(s, problem, std::max(1, device.sms)), problem);
}

TileSpans tile_spans(const BlockPlan& plan, const Timeline& tl) {
  TileSpans t;
  t.tiles_m = plan.tiled_shape.m;
  t.tiles_n = plan.tiled_shape.n;
  t.edge_rows = plan.problem.m - (t.tiles_m - 1) * plan.tile.m;
  t.edge_cols = plan.row_tiles.empty() ? plan.problem.n - (t.tiles_n - 1) * plan.tile.n : plan.tile.n;
  const size_t tiles = static_cast<size_t>(t.tiles_m) * static_cast<size_t>(t.tiles_n);
  if (!plan.row_tiles.empty()) {
    t.col_first.assign(tiles, 0);
    t.col_count.assign(tiles, 0);
    for (const WorkSegment& s : plan.segments) {
      if (s.tile_index < 0 || static_cast<size_t>(s.tile_index) >= tiles) continue;
      const ColumnRange c = segment_columns(plan, s);
      t.col_first[static_cast<size_t>(s.tile_index)] = static_cast<int>(c.first);
      t.col_count[static_cast<size_t>(s.tile_index)] = static_cast<int>(c.count);
    }
  }
  t.first_block.assign(tiles, -1);
  t.finishing_block.assign(tiles, -1);
  t.blocks.assign(tiles, 0);
  t.start.assign(tiles, 1e300);
  t.end.assign(tiles, 0);
  t.segment_block.assign(plan.segments.size(), -1);
  for (size_t b = 0; b < plan.blocks.size(); ++b) {
    const BlockWork& w = plan.blocks[b];
    for (int i = 0; i < w.segment_count; ++i) {
      const size_t si = static_cast<size_t>(w.first_segment + i);
      t.segment_block[si] = static_cast<int>(b);
      const WorkSegment& s = plan.segments[si];
      if (s.tile_index < 0 || static_cast<size_t>(s.tile_index) >= tiles) continue;
      if (t.first_block[s.tile_index] < 0) t.first_block[s.tile_index] = static_cast<int>(b);
      ++t.blocks[s.tile_index];
    }
  }
  for (int b : t.blocks) (b == 1 ? t.alone : t.shared) += b > 0;
  for (const Phase& ph : tl.phases) {
    const int b = t.segment_block[ph.segment];
    const WorkSegment& s = plan.segments[ph.segment];
    if (s.tile_index < 0 || static_cast<size_t>(s.tile_index) >= tiles) continue;
    t.start[s.tile_index] = std::min(t.start[s.tile_index], ph.start);
    if (ph.end >= t.end[s.tile_index]) {
      t.end[s.tile_index] = ph.end;
      t.finishing_block[s.tile_index] = b;
    }
  }
  return t;
}

Expected<LaunchPlan> plan_launch(const LaunchSpec& spec, const DeviceDesc& device) {
  LaunchPlan p;
  p.spec = spec;
  p.device = device;
  if (const std::string bad = validate_device(device); !bad.empty()) return Error{bad};
  if (spec.blocks_per_sm > 0) {
    if (spec.blocks_per_sm > device.max_blocks_per_sm)
      return Error{"blocks per SM is " + std::to_string(spec.blocks_per_sm) + ", more than the " +
                   std::to_string(device.max_blocks_per_sm) + " the " + device.name + " allows"};
    p.blocks_per_sm = spec.blocks_per_sm;
    p.occupancy.blocks_per_sm = spec.blocks_per_sm;
    p.occupancy.limiter = "given";
  } else {
    auto occ = compute_occupancy(device, spec.resources);
    if (!occ) return Error{occ.error()};
    p.occupancy = *occ;
    p.blocks_per_sm = occ->blocks_per_sm;
  }
  PlanRequest rq;
  std::optional<persistent::Plan> persistent;
  rq.problem = spec.problem;
  rq.tile = spec.tile;
  rq.order = spec.order;
  if (spec.persistent_cluster_m > 0) {
    if (spec.tile.m <= 0 || spec.tile.n <= 0 || spec.tile.k <= 0) return Error{"the tile must be positive in m, n and k"};
    const int clusters = std::max(1, device.sms * p.blocks_per_sm / spec.persistent_cluster_m);
    persistent = persistent::launch_plan(spec, clusters);
    rq.order = persistent::tile_order(*persistent);
    p.spec.order = rq.order;
  }
  rq.partition = spec.partition;
  // Clusters along gridDim.y (stage 18): its grid holds whole clusters, M rounded up.
  const bool grid_clusters = spec.l2.multicast_b > 1 && !spec.l2.multicast_rank_linear;
  if (grid_clusters && rq.order.kind == OrderKind::Serpentine) rq.cluster_m = spec.l2.multicast_b;
  rq.sms = device.sms;
  rq.sm_occupancy = p.blocks_per_sm;
  if (spec.partition == Partition::SplitKSerial || spec.partition == Partition::SplitKParallel) {
    if (spec.tile.m <= 0 || spec.tile.n <= 0 || spec.tile.k <= 0)
      return Error{"the tile must be positive in m, n and k"};
    const long long tiles = 1ll * ((spec.problem.m + spec.tile.m - 1) / spec.tile.m) *
                            ((spec.problem.n + spec.tile.n - 1) / spec.tile.n);
    const long long slots = 1ll * device.sms * p.blocks_per_sm;
    rq.split_k = spec.split_k > 0                           ? spec.split_k
                 : spec.slice_rule == SliceRule::OneWave ? split_k_wave_slices(tiles, slots, spec.problem.k, spec.tile.k)
                                                          : split_k_parallel_slices(tiles, slots, spec.problem.k, spec.tile.k);
    // One slice is the data-parallel launch (stage 13a then writes C directly).
    if (rq.split_k == 1) rq.partition = Partition::None;
  }
  p.split_k = rq.split_k;
  auto plan = make_block_plan(rq);
  if (!plan) return Error{plan.error()};
  p.plan = std::move(*plan);
  // The persistent stage runs on the SMs of the clusters its plan launches (all 66 at 4096^3, with
  // narrowed rows; 64 of 66 where two clusters spare: persistent_schedule.h). Its waves are rounds of whole tiles (the lesson's
  // "68 left for the last round"); its timeline and L2 replay run the pieces of the stream-k tail.
  const int sms = persistent ? std::min(device.sms, ceil_div(persistent->clusters * spec.persistent_cluster_m,
                                                             p.blocks_per_sm))
                             : device.sms;
  std::optional<WaveSummary> whole_tile_waves;
  if (persistent && persistent->narrow_rows > 0) {
    persistent::narrow_rows(p.plan, *persistent);
    p.spec.order = p.plan.order;
    const persistent::Plan& q = *persistent;
    p.narrowed = {q.narrow_rows * q.cluster_m, q.tiles_n + 1, q.narrow_cols, q.tiles_n + 1 - q.narrow_wider_from,
                  q.tile_cols, persistent::longest_cluster_cols(q), persistent::whole_rows_longest_cols(q)};
  }
  if (persistent && persistent->tail_units > 0) {
    whole_tile_waves = summarize_waves(p.plan, sms * p.blocks_per_sm);  // the timeline's slots
    p.tail_pieces = persistent::split_tail(p.plan, *persistent);
  }
  // Clusters along gridDim.y (stage 18) are dispatched as units, in the order of their cluster
  // index (x fastest, then y / cluster, then z): a cluster's blocks start together.
  if (grid_clusters) {
    const int c = spec.l2.multicast_b;
    const Dim3 g = p.plan.grid;
    auto key = [&](const BlockWork& w) {
      const long long cluster = w.block_idx.x + 1LL * g.x * (w.block_idx.y / c + 1LL * ceil_div(g.y, c) * w.block_idx.z);
      return cluster * c + w.block_idx.y % c;
    };
    std::stable_sort(p.plan.blocks.begin(), p.plan.blocks.end(),
                     [&](const BlockWork& a, const BlockWork& b) { return key(a) < key(b); });
  }
  auto tl = simulate_timeline(p.plan, sms, p.blocks_per_sm, spec.cost);
  if (!tl) return Error{tl.error()};
  p.timeline = std::move(*tl);
  p.waves = whole_tile_waves ? *whole_tile_waves : summarize_waves(p.plan, p.timeline.slots);
  p.tiles = tile_spans(p.plan, p.timeline);
  p.l2_lookups = estimate_l2_lookups(p.plan, spec.l2);
  return p;
}

Expected<L2Report> replay_launch_l2(const LaunchPlan& p) {
  const std::uint64_t limit = std::min(p.spec.l2.max_lookups, kMaxL2Lookups);
  if (p.l2_lookups > limit)
    return Error{"the L2 replay would make " + std::to_string(p.l2_lookups) + " look-ups (more than the simulator's " +
                 std::to_string(limit) + "): use a smaller problem or larger tiles"};
  return replay_l2(p.plan, p.timeline, p.device, p.spec.l2);
}

}  // namespace gemmlab
