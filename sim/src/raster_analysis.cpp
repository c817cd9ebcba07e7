#include "gemmlab/raster_analysis.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

namespace gemmlab {

namespace {

std::string coord_text(GemmCoord c) {
  return std::to_string(c.m) + "," + std::to_string(c.n) + "," + std::to_string(c.k);
}

bool parse_int(const std::string& s, int& out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && p == end;
}

Expected<std::vector<GemmCoord>> parse_tile_list(const std::string& text) {
  std::vector<GemmCoord> tiles;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t semi = text.find(';', pos);
    if (semi == std::string::npos) semi = text.size();
    const std::string item = text.substr(pos, semi - pos);
    const size_t comma = item.find(',');
    int m = 0, n = 0;
    if (comma == std::string::npos || !parse_int(item.substr(0, comma), m) ||
        !parse_int(item.substr(comma + 1), n))
      return Error{"order list: '" + item + "' is not 'm,n' (write list:0,0;0,1;1,0;...)"};
    tiles.push_back(GemmCoord{m, n, 0});
    if (tiles.size() > static_cast<size_t>(kMaxTiles))
      return Error{"order list: more than " + std::to_string(kMaxTiles) + " tiles"};
    pos = semi + 1;
  }
  return tiles;
}

}  // namespace

Expected<OrderSpec> parse_order(const std::string& text) {
  OrderSpec o;
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  const bool has_arg = colon != std::string::npos;
  auto int_arg = [&](const char* what, int& out) -> std::string {
    if (!parse_int(arg, out))
      return std::string("order '") + text + "': " + what + " must be an integer";
    return "";
  };
  if (name == "launch") {
    if (has_arg) return Error{"order 'launch' takes no parameter"};
    o.kind = OrderKind::Launch;
    return o;
  }
  if (name == "identity") {
    o.kind = OrderKind::Identity;
    if (!has_arg) return Error{"order 'identity' needs N: identity:1, identity:2, identity:4 or identity:8"};
    if (auto e = int_arg("N", o.param); !e.empty()) return Error{e};
    if (o.param != 1 && o.param != 2 && o.param != 4 && o.param != 8)
      return Error{"identity:N: CUTLASS's GemmIdentityThreadblockSwizzle is used with N = 1, 2, 4 or 8 (got " +
                   std::to_string(o.param) + ")"};
    return o;
  }
  if (name == "serpentine") {
    o.kind = OrderKind::Serpentine;
    o.param = 16;  // the hand-written mma_base HGEMM's BLOCK_STRIDE
    if (has_arg) {
      if (auto e = int_arg("the stride", o.param); !e.empty()) return Error{e};
      if (o.param < 1 || o.param > 1024)
        return Error{"serpentine:S: the stride (blocks along N per row, gridDim.x) must be 1..1024"};
    }
    return o;
  }
  if (name == "along-m" || name == "along-n") {
    o.kind = name == "along-m" ? OrderKind::AlongM : OrderKind::AlongN;
    o.param = 1;
    if (has_arg) {
      if (auto e = int_arg("the max swizzle size", o.param); !e.empty()) return Error{e};
      if (o.param != 1 && o.param != 2 && o.param != 4 && o.param != 8)
        return Error{name + ":S: the SM90 scheduler's max_swizzle_size is 1, 2, 4 or 8 (got " +
                     std::to_string(o.param) + ")"};
    }
    return o;
  }
  if (name == "list") {
    o.kind = OrderKind::List;
    auto tiles = parse_tile_list(arg);
    if (!tiles) return Error{tiles.error()};
    o.tile_list = std::move(*tiles);
    return o;
  }
  return Error{"unknown order '" + text +
               "': use launch, identity:N, serpentine[:S], along-m:S, along-n:S or list:m,n;m,n;..."};
}

std::string order_name(const OrderSpec& o) {
  switch (o.kind) {
    case OrderKind::Launch: return "launch";
    case OrderKind::Identity: return "identity:" + std::to_string(o.param);
    case OrderKind::Serpentine: return "serpentine:" + std::to_string(o.param);
    case OrderKind::AlongM: return "along-m:" + std::to_string(o.param);
    case OrderKind::AlongN: return "along-n:" + std::to_string(o.param);
    case OrderKind::List: return "list";
  }
  return "?";
}

const char* segment_role_name(SegmentRole r) {
  switch (r) {
    case SegmentRole::Full: return "full";
    case SegmentRole::SplitSerial: return "split-serial";
    case SegmentRole::SplitParallel: return "split-parallel";
    case SegmentRole::SkPartial: return "sk-partial";
    case SegmentRole::SkFinish: return "sk-finish";
    case SegmentRole::ReduceAdd: return "reduce-add";
    case SegmentRole::ClusterPad: return "cluster-pad";
  }
  return "?";
}

namespace {

std::string check_grid(Dim3 g) {
  // CUDA's launch limits: gridDim.x < 2^31, gridDim.y and gridDim.z <= 65535.
  if (g.y > 65535)
    return "gridDim.y = " + std::to_string(g.y) + " exceeds CUDA's limit of 65535; use larger tiles";
  if (g.z > 65535)
    return "gridDim.z = " + std::to_string(g.z) + " exceeds CUDA's limit of 65535";
  if (grid_block_count(g) > kMaxBlocks)
    return "the launch has " + std::to_string(grid_block_count(g)) +
           " blocks; the simulator handles at most " + std::to_string(kMaxBlocks) + ": use larger tiles";
  return "";
}

void add_block(BlockPlan& plan, Dim3 idx, GemmCoord tile, const std::vector<WorkSegment>& segs,
               int logical = -1) {
  BlockWork b;
  b.block_idx = idx;
  b.tile = tile;
  b.logical_index = logical;
  b.first_segment = static_cast<int>(plan.segments.size());
  b.segment_count = static_cast<int>(segs.size());
  b.kind = segs.empty() ? BlockKind::NoOp : BlockKind::Work;
  plan.segments.insert(plan.segments.end(), segs.begin(), segs.end());
  plan.blocks.push_back(b);
}

// A block of a grid-based order (everything but stream-k): one tile, one k slice.
std::vector<WorkSegment> grid_block_segments(const BlockPlan& plan, GemmCoord tile, int slice) {
  if (!tile_in_problem(tile, plan.tiled_shape)) return {};
  WorkSegment s;
  s.m_tile = tile.m;
  s.n_tile = tile.n;
  s.tile_index = tile.m * plan.tiled_shape.n + tile.n;
  s.slice = slice;
  const int K = plan.problem.k, TK = plan.tile.k;
  switch (plan.partition) {
    case Partition::SplitKSerial: {
      const KRange r = split_k_serial_range(slice, K, TK, plan.split_k);
      s.k_iter_begin = r.begin / TK;
      s.k_iter_end = r.end > r.begin ? ceil_div(r.end, TK) : s.k_iter_begin;
      s.role = SegmentRole::SplitSerial;
      break;
    }
    case Partition::SplitKParallel: {
      const KRange r = split_k_parallel_range(slice, K, TK, plan.split_k);
      s.k_iter_begin = r.begin / TK;
      s.k_iter_end = ceil_div(r.end, TK);
      s.role = SegmentRole::SplitParallel;
      break;
    }
    default:
      s.k_iter_begin = 0;
      s.k_iter_end = plan.k_iterations;
      s.role = SegmentRole::Full;
  }
  return {s};
}

// A block of a cluster rounded up past M (PlanRequest::cluster_m): it loads B for its peer.
std::vector<WorkSegment> cluster_pad_segments(const BlockPlan& plan, GemmCoord tile) {
  WorkSegment s;
  s.m_tile = tile.m;
  s.n_tile = tile.n;
  s.k_iter_end = plan.k_iterations;
  s.role = SegmentRole::ClusterPad;
  s.tile_index = -1;
  return {s};
}

std::string build_streamk(BlockPlan& plan, const PlanRequest& rq) {
  if (rq.sms <= 0) return "stream-k needs the device's SM count";
  if (rq.sm_occupancy <= 0) return "stream-k needs at least one block per SM";
  const streamk::Plan p =
      streamk::make_plan(rq.problem, rq.tile, 1, rq.sm_occupancy, rq.sms, rq.sms);
  plan.has_streamk = true;
  plan.streamk = p;
  plan.grid = Dim3{p.num_blocks(), 1, 1};
  if (auto e = check_grid(plan.grid); !e.empty()) return e;
  const int ipt = p.iters_per_tile;
  std::vector<int> segments_per_tile(static_cast<size_t>(plan.tiles()), 0);
  for (int x = 0; x < p.num_blocks(); ++x) {
    const int b = streamk::block_idx_of(p, x);
    std::vector<WorkSegment> segs;
    if (b < p.sk_padding_start()) {
      const streamk::IterRange r = streamk::sk_iter_extents(p, b);
      for (int t = (r.end - 1) / ipt; t >= 0 && r.end > r.begin && (t + 1) * ipt > r.begin; --t) {
        const int seg_begin = std::max(r.begin, t * ipt), seg_end = std::min(r.end, (t + 1) * ipt);
        const GemmCoord c = streamk::tile_offset(p, t);
        WorkSegment s;
        s.m_tile = c.m;
        s.n_tile = c.n;
        s.tile_index = c.m * plan.tiled_shape.n + c.n;
        s.k_iter_begin = seg_begin - t * ipt;
        s.k_iter_end = seg_end - t * ipt;
        const bool finishes = seg_end == (t + 1) * ipt, starts = seg_begin == t * ipt;
        s.role = finishes ? (starts ? SegmentRole::Full : SegmentRole::SkFinish) : SegmentRole::SkPartial;
        ++segments_per_tile[static_cast<size_t>(s.tile_index)];
        segs.push_back(s);
      }
    } else if (b >= p.dp_start() && b < p.reduce_start()) {
      const int dp_block = b - p.dp_start();
      int tile_idx = (p.cohort_raster ? 0 : p.sk_tiles) + dp_block;
      int allotment = p.dp_first_wave_tiles;
      if (dp_block >= p.avail_sms) {
        allotment = 1;
        tile_idx += (p.dp_first_wave_tiles - 1) * p.avail_sms;
      }
      const GemmCoord first = streamk::tile_offset(p, tile_idx);
      // DP blocks exit if out of bounds or on an SK tile (possible under cohort raster only).
      if (tile_idx >= p.sk_tiles && tile_in_problem(first, plan.tiled_shape)) {
        for (int a = 0; a < allotment; ++a) {
          const GemmCoord c = streamk::tile_offset(p, tile_idx + a * p.avail_sms);
          WorkSegment s;
          s.m_tile = c.m;
          s.n_tile = c.n;
          s.tile_index = c.m * plan.tiled_shape.n + c.n;
          s.k_iter_begin = 0;
          s.k_iter_end = ipt;
          s.role = SegmentRole::Full;
          segs.push_back(s);
        }
      }
    }
    const GemmCoord first_tile =
        segs.empty() ? GemmCoord{-1, -1, 0} : GemmCoord{segs.front().m_tile, segs.front().n_tile, 0};
    add_block(plan, Dim3{x, 0, 0}, first_tile, segs, b);
  }
  for (auto& s : plan.segments)
    if (s.role == SegmentRole::SkFinish) s.peers = segments_per_tile[static_cast<size_t>(s.tile_index)] - 1;
  return "";
}

}  // namespace

Expected<BlockPlan> make_block_plan(const PlanRequest& rq) {
  const GemmCoord P = rq.problem, T = rq.tile;
  if (P.m <= 0 || P.n <= 0 || P.k <= 0)
    return Error{"problem M,N,K must all be positive (got " + coord_text(P) + ")"};
  if (P.m > kMaxProblemExtent || P.n > kMaxProblemExtent || P.k > kMaxProblemExtent)
    return Error{"problem M,N,K must each be at most " + std::to_string(kMaxProblemExtent) +
                 " (got " + coord_text(P) + ")"};
  if (T.m <= 0 || T.n <= 0 || T.k <= 0)
    return Error{"tile TM,TN,TK must all be positive (got " + coord_text(T) + ")"};
  if (T.m > 1024 || T.n > 1024 || T.k > 1024)
    return Error{"tile TM,TN,TK must each be at most 1024 (got " + coord_text(T) + ")"};

  BlockPlan plan;
  plan.problem = P;
  plan.tile = T;
  plan.order = rq.order;
  plan.partition = rq.partition;
  plan.k_iterations = ceil_div(P.k, T.k);
  const int slices = rq.split_k;
  if (slices < 1) return Error{"split-k slices must be at least 1 (got " + std::to_string(slices) + ")"};
  if (rq.partition == Partition::None || rq.partition == Partition::StreamK) {
    if (slices != 1) return Error{"split-k slices given without a split-k partition"};
  } else {
    if (slices > plan.k_iterations)
      return Error{"split-k " + std::to_string(slices) + " exceeds the " +
                   std::to_string(plan.k_iterations) +
                   " k iterations (ceil(K/TK)): each slice needs at least one; use fewer slices or a smaller TK"};
    if (rq.partition == Partition::SplitKParallel && slices > P.k / T.k)
      return Error{"parallel split-k " + std::to_string(slices) + " exceeds the " +
                   std::to_string(P.k / T.k) +
                   " whole k iterations (floor(K/TK), CUTLASS GemmSplitKParallel): use fewer slices"};
  }
  plan.split_k = slices;
  plan.tiled_shape = identity_swizzle::get_tiled_shape(P, T, slices);
  if (plan.tiles() > kMaxTiles)
    return Error{"the problem has " + std::to_string(plan.tiles()) + " C tiles; the simulator handles at most " +
                 std::to_string(kMaxTiles) + ": use larger tiles"};

  if (rq.partition == Partition::StreamK) {
    if (rq.order.kind != OrderKind::Launch)
      return Error{"stream-k orders tiles itself (CUTLASS ThreadblockSwizzleStreamK): leave out --order"};
    if (auto e = build_streamk(plan, rq); !e.empty()) return Error{e};
    return plan;
  }

  const GemmCoord tiled = plan.tiled_shape;
  switch (rq.order.kind) {
    case OrderKind::Launch:
    case OrderKind::Identity: {
      const int n = rq.order.kind == OrderKind::Launch ? 1 : rq.order.param;
      plan.log_tile = identity_swizzle::get_log_tile(n, tiled);
      plan.grid = identity_swizzle::get_grid_shape(n, tiled);
      if (auto e = check_grid(plan.grid); !e.empty()) return Error{e};
      for (int z = 0; z < plan.grid.z; ++z)
        for (int y = 0; y < plan.grid.y; ++y)
          for (int x = 0; x < plan.grid.x; ++x) {
            const GemmCoord t = identity_swizzle::get_tile_offset(plan.log_tile, Dim3{x, y, z});
            add_block(plan, Dim3{x, y, z}, t, grid_block_segments(plan, t, z));
          }
      break;
    }
    case OrderKind::Serpentine: {
      if (slices != 1)
        return Error{"serpentine uses gridDim.z for its swizzle (the hand-written mma_base HGEMM), so it cannot also carry split-k slices"};
      if (rq.cluster_m < 1 || rq.cluster_m > 16)
        return Error{"blocks per cluster must be 1 .. 16 (got " + std::to_string(rq.cluster_m) + ")"};
      plan.grid = serpentine_swizzle::get_grid_shape(tiled, rq.order.param);
      plan.grid.y = ceil_div(plan.grid.y, rq.cluster_m) * rq.cluster_m;
      if (auto e = check_grid(plan.grid); !e.empty()) return Error{e};
      for (int z = 0; z < plan.grid.z; ++z)
        for (int y = 0; y < plan.grid.y; ++y)
          for (int x = 0; x < plan.grid.x; ++x) {
            const GemmCoord t = serpentine_swizzle::get_tile_offset(Dim3{x, y, z}, plan.grid);
            add_block(plan, Dim3{x, y, z}, t,
                      t.m >= tiled.m && t.n < tiled.n ? cluster_pad_segments(plan, t) : grid_block_segments(plan, t, 0));
          }
      break;
    }
    case OrderKind::AlongM:
    case OrderKind::AlongN: {
      if (slices != 1)
        return Error{"along-m / along-n model the SM90 data-parallel tile scheduler, which has no split-k slices here"};
      const auto params = sm90_raster::make_params(
          tiled, rq.order.param,
          rq.order.kind == OrderKind::AlongM ? RasterOrder::AlongM : RasterOrder::AlongN);
      plan.log_tile = params.log_swizzle;
      if (params.work_tiles() > kMaxBlocks)
        return Error{"too many work tiles (" + std::to_string(params.work_tiles()) + "): use larger tiles"};
      plan.grid = Dim3{static_cast<int>(params.work_tiles()), 1, 1};
      for (int x = 0; x < plan.grid.x; ++x) {
        const GemmCoord t = sm90_raster::get_work_tile(params, x);
        add_block(plan, Dim3{x, 0, 0}, t, grid_block_segments(plan, t, 0));
      }
      break;
    }
    case OrderKind::List: {
      const auto& list = rq.order.tile_list;
      if (static_cast<long long>(list.size()) != plan.tiles())
        return Error{"order list has " + std::to_string(list.size()) + " tiles but the problem has " +
                     std::to_string(plan.tiles()) + " (" + std::to_string(tiled.m) + " x " +
                     std::to_string(tiled.n) + "): list every tile exactly once"};
      std::vector<char> seen(static_cast<size_t>(plan.tiles()), 0);
      for (const auto& t : list) {
        if (!tile_in_problem(t, tiled))
          return Error{"order list: tile (" + std::to_string(t.m) + "," + std::to_string(t.n) +
                       ") is outside the " + std::to_string(tiled.m) + " x " + std::to_string(tiled.n) + " tiles"};
        char& s = seen[static_cast<size_t>(t.m) * tiled.n + t.n];
        if (s)
          return Error{"order list: tile (" + std::to_string(t.m) + "," + std::to_string(t.n) +
                       ") appears twice; list every tile exactly once"};
        s = 1;
      }
      plan.grid = Dim3{static_cast<int>(list.size()), 1, slices};
      if (auto e = check_grid(plan.grid); !e.empty()) return Error{e};
      for (int z = 0; z < slices; ++z)
        for (int x = 0; x < plan.grid.x; ++x) {
          const GemmCoord t{list[static_cast<size_t>(x)].m, list[static_cast<size_t>(x)].n, z};
          add_block(plan, Dim3{x, 0, z}, t, grid_block_segments(plan, t, z));
        }
      break;
    }
  }
  return plan;
}

ColumnRange segment_columns(const BlockPlan& plan, const WorkSegment& s) {
  if (s.cols > 0) return {s.col0, s.cols};
  const long long n0 = static_cast<long long>(s.n_tile) * plan.tile.n;
  return {n0, std::min<long long>(plan.tile.n, plan.problem.n - n0)};
}

std::string check_plan_coverage(const BlockPlan& plan) {
  const size_t tiles = static_cast<size_t>(plan.tiles());
  std::vector<std::vector<std::pair<int, int>>> ranges(tiles);
  for (const auto& s : plan.segments) {
    if (s.role == SegmentRole::ClusterPad) {
      if (s.m_tile < plan.tiled_shape.m || s.n_tile < 0 || s.n_tile >= plan.tiled_shape.n)
        return "a cluster's padding block works on tile (" + std::to_string(s.m_tile) + "," +
               std::to_string(s.n_tile) + "), which is not past M in the problem's columns";
      continue;
    }
    if (s.m_tile < 0 || s.n_tile < 0 || s.m_tile >= plan.tiled_shape.m || s.n_tile >= plan.tiled_shape.n)
      return "a segment works on tile (" + std::to_string(s.m_tile) + "," + std::to_string(s.n_tile) +
             ") outside the problem";
    if (s.k_iter_begin < 0 || s.k_iter_end > plan.k_iterations || s.k_iter_begin > s.k_iter_end)
      return "a segment has k iterations [" + std::to_string(s.k_iter_begin) + "," +
             std::to_string(s.k_iter_end) + ") outside [0," + std::to_string(plan.k_iterations) + ")";
    if (s.k_iter_end > s.k_iter_begin) ranges[static_cast<size_t>(s.tile_index)].push_back({s.k_iter_begin, s.k_iter_end});
  }
  for (size_t t = 0; t < tiles; ++t) {
    if (!plan.tile_exists(static_cast<int>(t) / plan.tiled_shape.n, static_cast<int>(t) % plan.tiled_shape.n)) {
      if (!ranges[t].empty()) return "a segment works on tile " + std::to_string(t) + ", which its row does not have";
      continue;
    }
    auto& r = ranges[t];
    std::sort(r.begin(), r.end());
    int next = 0;
    for (const auto& [b, e] : r) {
      if (b != next)
        return "tile " + std::to_string(t) + ": k iteration " + std::to_string(std::min(b, next)) +
               (b < next ? " is covered twice" : " is not covered");
      next = e;
    }
    if (next != plan.k_iterations)
      return "tile " + std::to_string(t) + ": k iterations from " + std::to_string(next) + " are not covered";
  }
  return "";
}

}  // namespace gemmlab
