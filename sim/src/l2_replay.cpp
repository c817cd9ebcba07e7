// Replays a schedule's memory traffic through the L2 model in time order.
#include <algorithm>
#include <bit>
#include <queue>

#include "gemmlab/l2_model.h"
#include "gemmlab/tma_box.h"
#include "l2_geometry.h"

namespace gemmlab {

namespace {

constexpr std::uint64_t kAlign = 1ull << 20;  // buffers start on 1 MiB boundaries
std::uint64_t align_up(std::uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// A strided 2-D byte region: rows [s0, s1) of `pitch` bytes, bytes [c0, c1) of each row.
struct Region {
  std::uint64_t base = 0;
  std::uint64_t pitch = 0;
  long long s0 = 0, s1 = 0;
  std::uint64_t c0 = 0, c1 = 0;
};

// One buffer: a matrix with its contiguous and strided extents.
struct Buffer {
  std::uint64_t base = 0;
  std::uint64_t pitch = 0;  // bytes between strided indices
  int elem = 2;
  // Region for rows [r0,r1) x cols [k0,k1) of a logical (row, col) matrix, given which is contiguous.
  Region region(long long r0, long long r1, long long q0, long long q1, bool row_contiguous) const {
    // row_contiguous: the logical row index is the contiguous one.
    Region g;
    g.base = base;
    g.pitch = pitch;
    if (row_contiguous) {
      g.s0 = q0, g.s1 = q1;
      g.c0 = static_cast<std::uint64_t>(r0) * elem, g.c1 = static_cast<std::uint64_t>(r1) * elem;
    } else {
      g.s0 = r0, g.s1 = r1;
      g.c0 = static_cast<std::uint64_t>(q0) * elem, g.c1 = static_cast<std::uint64_t>(q1) * elem;
    }
    return g;
  }
};

using namespace l2_geometry;

inline unsigned sector_mask(std::uint64_t lo, std::uint64_t hi) {  // [lo, hi) within one line
  const unsigned first = static_cast<unsigned>(lo & (kLineBytes - 1)) >> kSectorShift;
  const unsigned last = static_cast<unsigned>((hi - 1) & (kLineBytes - 1)) >> kSectorShift;
  return ((2u << last) - 1) & ~((1u << first) - 1);
}

template <class F>
inline void for_each_line(const Region& g, F&& f) {
  if (g.c1 <= g.c0) return;
  for (long long s = g.s0; s < g.s1; ++s) {
    const std::uint64_t start = g.base + static_cast<std::uint64_t>(s) * g.pitch + g.c0;
    const std::uint64_t end = g.base + static_cast<std::uint64_t>(s) * g.pitch + g.c1;
    std::uint64_t line = start >> kLineShift;
    const std::uint64_t last = (end - 1) >> kLineShift;
    if (line == last) {
      f(line, sector_mask(start, end));
      continue;
    }
    f(line, sector_mask(start, (line + 1) << kLineShift));
    for (++line; line < last; ++line) f(line, kFullLine);
    f(last, sector_mask(last << kLineShift, end));
  }
}

std::uint64_t region_lines(const Region& g) {
  if (g.c1 <= g.c0 || g.s1 <= g.s0) return 0;
  const std::uint64_t per_row = (g.c1 - g.c0 + kLineBytes - 1) / kLineBytes + 1;
  return per_row * static_cast<std::uint64_t>(g.s1 - g.s0);
}

struct Layout {
  Buffer a, b, c, partials;
  bool a_row_contig = false;  // A (M x K) contiguous along its row index m? (column-major)
  bool b_row_contig = false;  // B (K x N) contiguous along k? (column-major)
  bool c_row_contig = false;  // C (M x N) contiguous along m? (column-major)
  std::uint64_t end = 0;
  std::uint64_t partial_tile_bytes = 0;
};

Layout make_layout(const BlockPlan& plan, const L2ReplayOptions& o) {
  const std::uint64_t M = plan.problem.m, N = plan.problem.n, K = plan.problem.k;
  const std::uint64_t e = static_cast<std::uint64_t>(o.element_bytes);
  Layout L;
  const std::uint64_t ce = static_cast<std::uint64_t>(o.c_element_bytes ? o.c_element_bytes : o.element_bytes);
  L.a.elem = L.b.elem = o.element_bytes;
  L.c.elem = static_cast<int>(ce);
  L.a.base = 0;
  L.a_row_contig = o.a_order == MatrixOrder::ColumnMajor;  // A column-major: m contiguous
  L.a.pitch = (L.a_row_contig ? M : K) * e;
  L.b.base = align_up(M * K * e);
  L.b_row_contig = o.b_order == MatrixOrder::ColumnMajor;  // B column-major: k contiguous
  L.b.pitch = (L.b_row_contig ? K : N) * e;
  L.c.base = align_up(L.b.base + K * N * e);
  L.c_row_contig = o.c_order == MatrixOrder::ColumnMajor;
  L.c.pitch = (L.c_row_contig ? M : N) * ce;
  L.partials.base = align_up(L.c.base + M * N * ce);
  L.partials.elem = o.accumulator_bytes;
  L.partial_tile_bytes = static_cast<std::uint64_t>(plan.tile.m) * plan.tile.n * o.accumulator_bytes;
  L.partials.pitch = static_cast<std::uint64_t>(plan.tile.n) * o.accumulator_bytes;
  // Parallel split-K: one M x N matrix of partial sums per slice, oriented as C (the kernels'
  // workspace: 13a's split_k.cu, stages/hopper/split_k_wgmma.cuh); stream-k: a tile per SK block.
  std::uint64_t workspace = 0;
  if (plan.partition == Partition::SplitKParallel)
    workspace = static_cast<std::uint64_t>(plan.split_k) * M * N * L.partials.elem;
  if (plan.partition == Partition::StreamK) workspace = plan.blocks.size() * L.partial_tile_bytes;
  L.end = align_up(L.partials.base + workspace);
  return L;
}

struct TileBox {
  long long m0, m1, n0, n1;
};
TileBox box_of(const BlockPlan& p, int m_tile, int n_tile) {
  const long long m0 = static_cast<long long>(m_tile) * p.tile.m, n0 = static_cast<long long>(n_tile) * p.tile.n;
  return {m0, std::min<long long>(m0 + p.tile.m, p.problem.m), n0, std::min<long long>(n0 + p.tile.n, p.problem.n)};
}

Region a_region(const BlockPlan& p, const Layout& L, int m_tile, int kk) {
  const TileBox t = box_of(p, m_tile, 0);
  const long long k0 = static_cast<long long>(kk) * p.tile.k, k1 = std::min<long long>(k0 + p.tile.k, p.problem.k);
  return L.a.region(t.m0, t.m1, k0, k1, L.a_row_contig);
}
// B columns [n0, n1) at k step kk.
Region b_columns(const BlockPlan& p, const Layout& L, long long n0, long long n1, int kk) {
  const long long k0 = static_cast<long long>(kk) * p.tile.k, k1 = std::min<long long>(k0 + p.tile.k, p.problem.k);
  // B is K x N: logical row = k, column = n; column-major means k is contiguous.
  return L.b.region(k0, k1, n0, n1, L.b_row_contig);
}
Region b_region(const BlockPlan& p, const Layout& L, int n_tile, int kk) {
  const TileBox t = box_of(p, 0, n_tile);
  return b_columns(p, L, t.n0, t.n1, kk);
}
Region c_region(const BlockPlan& p, const Layout& L, const WorkSegment& s) {
  const TileBox t = box_of(p, s.m_tile, s.n_tile);
  const ColumnRange c = segment_columns(p, s);
  return L.c.region(t.m0, t.m1, c.first, c.first + c.count, L.c_row_contig);
}
// A parallel split-K slice's partial tile: the tile's rows and columns inside the problem, in its
// slice's M x N matrix (16 x 8192 with 64 x 128 tiles: 16 rows of each tile, not 64).
Region split_partial_region(const BlockPlan& p, const Layout& L, const WorkSegment& s) {
  const TileBox t = box_of(p, s.m_tile, s.n_tile);
  const std::uint64_t M = p.problem.m, N = p.problem.n;
  Buffer slice = L.partials;
  slice.base += static_cast<std::uint64_t>(s.slice) * M * N * slice.elem;
  slice.pitch = (L.c_row_contig ? M : N) * slice.elem;
  return slice.region(t.m0, t.m1, t.n0, t.n1, L.c_row_contig);
}
// A stream-k block's partial tile: a whole tile slot of the workspace.
Region partial_region(const BlockPlan& p, const Layout& L, std::uint64_t slot) {
  Region g;
  g.base = L.partials.base + slot * L.partial_tile_bytes;
  g.pitch = L.partials.pitch;
  g.s0 = 0;
  g.s1 = p.tile.m;
  g.c0 = 0;
  g.c1 = L.partials.pitch;
  return g;
}

// The memory events of one block, walked in time order.
struct Cursor {
  double time;
  int slot;
  int block;
  int phase;  // within the block
  int step;   // main-loop iteration within the phase
  bool operator>(const Cursor& o) const {
    if (time != o.time) return time > o.time;
    if (slot != o.slot) return slot > o.slot;
    return block > o.block;
  }
};

bool has_memory(PhaseKind k) { return k != PhaseKind::Wait; }

}  // namespace

Expected<double> ncu_lookup_hit_over_op_read(const L2Report& r, double lrc_merged_sectors) {
  const double requested = double(r.counters.read_lookups);
  if (!(lrc_merged_sectors >= 0) || lrc_merged_sectors >= requested)
    return Error{"the coalescer's merged sectors must be at least 0 and fewer than the " +
                 std::to_string(r.counters.read_lookups) + " sectors requested"};
  const double looked_up = requested - lrc_merged_sectors;
  const double misses = double(r.counters.read_lookups - r.counters.read_hits);
  return (looked_up - misses + double(r.extra_tag_lookups)) / looked_up;
}

std::uint64_t estimate_l2_lookups(const BlockPlan& plan, const L2ReplayOptions& o) {
  const Layout L = make_layout(plan, o);
  std::uint64_t per_iter_a = region_lines(a_region(plan, L, 0, 0));
  std::uint64_t per_iter_b = region_lines(b_region(plan, L, 0, 0));
  std::uint64_t iters = 0;
  for (const auto& s : plan.segments) iters += static_cast<std::uint64_t>(s.k_iter_end - s.k_iter_begin);
  return iters * (per_iter_a + per_iter_b);
}

namespace {

// One replay, in named steps: the clock that says when each block touches memory, the regions it
// reads and writes, the event queue of blocks walked one instant at a time, and the report.
class Replay {
 public:
  Replay(const BlockPlan& plan, const Timeline& tl, const DeviceDesc& device, const L2ReplayOptions& o,
         const Layout& layout)
      : plan_(plan), tl_(tl), o_(o), L_(layout), cache_(device, layout.end >> kLineShift),  // 16-bit tags where they fit
        kit_(plan.k_iterations), tiles_n_(plan.tiled_shape.n) {
    batch_.reserve(4096);
  }

  L2Report run() {
    prepare_report();
    assign_partial_slots();
    start_clock();
    bucket_lookups_.assign(static_cast<size_t>(o_.buckets), 0);
    bucket_hits_.assign(static_cast<size_t>(o_.buckets), 0);
    for (size_t b = 0; b < plan_.blocks.size(); ++b) push_next(static_cast<int>(b), 0, 0);
    while (!q_.empty()) run_instant();
    finish_report();
    return std::move(r_);
  }

 private:
  struct ReadResult {
    std::uint64_t sectors = 0;
    std::uint64_t dram_sectors = 0;
  };
  // A main-loop tile load of one instant (see serve_tile_requests).
  struct TileRequest {
    int operand;  // 0: A, 1: B
    int tile;     // m tile for A, n tile for B (a narrowed B tile: its columns, as a key)
    int kk;
    int side;
    int index;    // into instant_
    int heat = 0;                // the heat maps' tile
  };

  // Heat maps of A and B tile loads (unless too many cells) and per-C-tile DRAM sectors.
  void prepare_report() {
    const int tiles_m = plan_.tiled_shape.m;
    const std::uint64_t heat_cells = static_cast<std::uint64_t>(kit_) * (static_cast<std::uint64_t>(tiles_m) + tiles_n_);
    r_.heat_maps_omitted = heat_cells > (1ull << 22);  // 32 MB of counters at most
    if (!r_.heat_maps_omitted) {
      r_.a_tiles = {tiles_m, kit_, std::vector<std::uint32_t>(static_cast<size_t>(tiles_m) * kit_, 0),
                    std::vector<std::uint32_t>(static_cast<size_t>(tiles_m) * kit_, 0)};
      r_.b_tiles = {kit_, tiles_n_, std::vector<std::uint32_t>(static_cast<size_t>(kit_) * tiles_n_, 0),
                    std::vector<std::uint32_t>(static_cast<size_t>(kit_) * tiles_n_, 0)};
    }
    r_.c_tile_dram_sectors.assign(static_cast<size_t>(plan_.tiles()), 0);
  }

  // Stream-k: which workspace slot holds each tile's partials (one slot per SK segment).
  void assign_partial_slots() {
    if (plan_.partition != Partition::StreamK) return;
    partial_slots_.resize(static_cast<size_t>(plan_.tiles()));
    for (size_t b = 0; b < plan_.blocks.size(); ++b) {
      const BlockWork& bw = plan_.blocks[b];
      for (int i = 0; i < bw.segment_count; ++i) {
        const WorkSegment& seg = plan_.segments[static_cast<size_t>(bw.first_segment + i)];
        if (seg.role == SegmentRole::SkPartial) partial_slots_[static_cast<size_t>(seg.tile_index)].push_back(b);
      }
    }
  }

  // The clock: with 2 blocks per SM, l2_progress.h's older-first rates; else the timeline's.
  void start_clock() {
    r_.coresident_clock = coresident_progress(plan_, tl_, o_.coresident, progress_);
    if (!r_.coresident_clock) {
      r_.makespan = tl_.makespan;
      return;
    }
    work_before_.assign(tl_.phases.size(), 0.0);
    for (const BlockRun& run : tl_.blocks) {
      double w = 0;
      for (int p = 0; p < run.phase_count; ++p) {
        const Phase& ph = tl_.phases[static_cast<size_t>(run.first_phase + p)];
        work_before_[static_cast<size_t>(run.first_phase + p)] = w;
        w += ph.end - ph.start;
      }
    }
    for (const BlockProgress& bp : progress_.blocks)
      if (bp.piece_count > 0)
        r_.makespan =
            std::max(r_.makespan, progress_.pieces[static_cast<size_t>(bp.first_piece + bp.piece_count - 1)].time);
  }
  // The block's rank in its multicast cluster (0 without multicast): only rank 0 requests B.
  int cluster_rank(int b) const {
    if (o_.multicast_b <= 1) return 0;
    if (o_.multicast_rank_linear) return b % o_.multicast_b;
    return plan_.blocks[static_cast<size_t>(b)].block_idx.y % o_.multicast_b;
  }
  int sm_of(int b) const {
    return r_.coresident_clock ? progress_.blocks[static_cast<size_t>(b)].sm : tl_.blocks[static_cast<size_t>(b)].sm;
  }
  // When block b reaches `step` iterations into phase `phase` (0 for phases without steps).
  double time_of(int b, int phase, int step, double iter) const {
    const BlockRun& run = tl_.blocks[static_cast<size_t>(b)];
    const size_t pi = static_cast<size_t>(run.first_phase + phase);
    if (r_.coresident_clock) return progress_.time_at(b, work_before_[pi] + step * iter);
    return tl_.phases[pi].start + step * iter;
  }

  // A region whose rows are whole lines apart (pitch a multiple of the line) has the same sector
  // masks in every row: the cache walks its rows. Otherwise its lines are gathered first.
  ReadResult read_region(const Region& g, int sm) {
    ReadResult rr;
    if (g.c1 <= g.c0 || g.s1 <= g.s0) return rr;
    if (g.pitch % kLineBytes == 0) {
      row_masks_.clear();
      const Region row0{g.base, g.pitch, g.s0, g.s0 + 1, g.c0, g.c1};
      std::uint64_t first = 0;
      for_each_line(row0, [&](std::uint64_t line, unsigned mask) {
        if (row_masks_.empty()) first = line;
        row_masks_.push_back(mask);
        rr.sectors += sectors_in(mask);
      });
      const std::uint64_t rows = static_cast<std::uint64_t>(g.s1 - g.s0);
      rr.sectors *= rows;
      rr.dram_sectors = cache_.read_rows(first, g.pitch / kLineBytes, rows, row_masks_.data(), row_masks_.size(), sm);
      return rr;
    }
    batch_.clear();
    for_each_line(g, [&](std::uint64_t line, unsigned mask) {
      batch_.push_back({line, mask});
      rr.sectors += sectors_in(mask);
    });
    rr.dram_sectors = cache_.read_batch(batch_.data(), batch_.size(), sm);
    return rr;
  }
  void write_region(const Region& g, int sm) {
    for_each_line(g, [&](std::uint64_t line, unsigned mask) { cache_.write(line, mask, sm); });
  }
  void reduce_region(const Region& g, int sm) {
    for_each_line(g, [&](std::uint64_t line, unsigned mask) { cache_.reduce(line, mask, sm); });
  }

  // Queues block b's next memory event at or after (phase, step).
  void push_next(int b, int phase, int step) {
    const BlockRun& run = tl_.blocks[static_cast<size_t>(b)];
    for (; phase < run.phase_count; ++phase, step = 0) {
      const Phase& ph = tl_.phases[static_cast<size_t>(run.first_phase + phase)];
      if (!has_memory(ph.kind)) continue;
      if (ph.kind == PhaseKind::Mainloop) {
        const WorkSegment& s = plan_.segments[static_cast<size_t>(ph.segment)];
        const int iters = s.k_iter_end - s.k_iter_begin;
        if (step >= iters) continue;
        // The phase's own length per iteration (the timeline's iter_cost unless it was re-timed).
        q_.push({time_of(b, phase, step, (ph.end - ph.start) / iters), run.slot, b, phase, step});
        return;
      }
      if (step > 0) continue;
      q_.push({time_of(b, phase, 0, 0.0), run.slot, b, phase, 0});
      return;
    }
  }

  const WorkSegment& segment_of(const Cursor& cur) const {
    const BlockRun& run = tl_.blocks[static_cast<size_t>(cur.block)];
    return plan_.segments[static_cast<size_t>(tl_.phases[static_cast<size_t>(run.first_phase + cur.phase)].segment)];
  }

  // One instant at a time: every block whose next memory event falls at this time, in slot order.
  void run_instant() {
    const double t = q_.top().time;
    instant_.clear();
    while (!q_.empty() && q_.top().time == t) {
      instant_.push_back(q_.top());
      q_.pop();
    }
    const std::uint64_t lookups_before = cache_.counters().read_lookups, hits_before = cache_.counters().read_hits;
    requests_.clear();
    for (size_t i = 0; i < instant_.size(); ++i) issue(instant_[i], static_cast<int>(i));
    serve_tile_requests();
    const int B = o_.buckets;
    const double span = r_.makespan > 0 ? r_.makespan : 1.0;
    const int bucket = std::min(B - 1, static_cast<int>(t / span * B));
    bucket_lookups_[static_cast<size_t>(bucket)] += cache_.counters().read_lookups - lookups_before;
    bucket_hits_[static_cast<size_t>(bucket)] += cache_.counters().read_hits - hits_before;
    for (const Cursor& cur : instant_) push_next(cur.block, cur.phase, cur.step + 1);
  }

  // A block's memory event: main-loop loads become tile requests; the others touch memory now.
  void issue(const Cursor& cur, int index) {
    const BlockRun& run = tl_.blocks[static_cast<size_t>(cur.block)];
    const Phase& ph = tl_.phases[static_cast<size_t>(run.first_phase + cur.phase)];
    const WorkSegment& s = plan_.segments[static_cast<size_t>(ph.segment)];
    const int sm = sm_of(cur.block);
    switch (ph.kind) {
      case PhaseKind::Mainloop: {
        const int kk = s.k_iter_begin + cur.step;
        const int side = cache_.near_partition(sm);
        // A cluster's padding block: its A box lies past M, which the TMA fills without reading.
        if (s.role != SegmentRole::ClusterPad) requests_.push_back({0, s.m_tile, kk, side, index, s.m_tile});
        if (cluster_rank(cur.block) == 0) {
          if (s.cols > 0)  // key: first column and width (240, 248 or 256)
            requests_.push_back({1, s.col0 / 8 * 4 + s.cols / 8 % 4, kk, side, index, s.n_tile});
          else
            requests_.push_back({1, s.n_tile, kk, side, index, s.n_tile});
        }
        break;
      }
      case PhaseKind::ReadPartials:
        if (s.role == SegmentRole::SplitSerial) {
          read_region(c_region(plan_, L_, s), sm);
        } else {
          for (std::uint64_t slot : partial_slots_[static_cast<size_t>(s.tile_index)])
            read_region(partial_region(plan_, L_, slot), sm);
        }
        break;
      case PhaseKind::StorePartial:
        write_region(partial_region(plan_, L_, static_cast<std::uint64_t>(cur.block)), sm);
        break;
      case PhaseKind::Epilogue:
        if (s.role == SegmentRole::SplitParallel)
          write_region(split_partial_region(plan_, L_, s), sm);
        else if (s.role == SegmentRole::ReduceAdd)
          reduce_region(c_region(plan_, L_, s), sm);
        else
          write_region(c_region(plan_, L_, s), sm);
        break;
      case PhaseKind::Wait:
        break;
    }
  }

  // Main-loop loads of one instant are issued together and grouped by tile (see l2_model.h): the
  // first requester of an (operand, tile, k step, partition side) looks it up, the others merge
  // with that request and count as hits on the same sectors.
  void serve_tile_requests() {
    std::sort(requests_.begin(), requests_.end(), [](const TileRequest& a, const TileRequest& b) {
      if (a.operand != b.operand) return a.operand < b.operand;
      if (a.tile != b.tile) return a.tile < b.tile;
      if (a.kk != b.kk) return a.kk < b.kk;
      if (a.side != b.side) return a.side < b.side;
      return a.index < b.index;
    });
    ReadResult first{};
    for (size_t j = 0; j < requests_.size(); ++j) {
      const TileRequest& rq = requests_[j];
      const Cursor& cur = instant_[static_cast<size_t>(rq.index)];
      const bool merged = j > 0 && requests_[j - 1].operand == rq.operand && requests_[j - 1].tile == rq.tile &&
                          requests_[j - 1].kk == rq.kk && requests_[j - 1].side == rq.side;
      std::uint64_t dram = 0;
      bool charged = false;  // DRAM sectors already added to the C tiles
      if (merged) {
        cache_.count_merged_hits(first.sectors);
      } else if (rq.operand == 1) {
        first = read_b_parts(cur, rq.kk);
        dram = first.dram_sectors;
        charged = true;
      } else {
        first = read_region(a_region(plan_, L_, rq.tile, rq.kk), sm_of(cur.block));
        dram = first.dram_sectors;
      }
      if (!r_.heat_maps_omitted) {
        TileHeat& h = rq.operand == 0 ? r_.a_tiles : r_.b_tiles;
        const size_t hi = rq.operand == 0 ? static_cast<size_t>(rq.heat) * kit_ + rq.kk
                                          : static_cast<size_t>(rq.kk) * tiles_n_ + rq.heat;
        ++h.loads[hi];
        h.dram_sectors[hi] += static_cast<std::uint32_t>(dram);
      }
      if (!charged)
        r_.c_tile_dram_sectors[static_cast<size_t>(segment_of(cur).tile_index)] += static_cast<std::uint32_t>(dram);
    }
  }

  // A block's B tile at k step kk. With multicast, the cluster's tile, asked for once at its rank-0
  // block's instant (the blocks of a cluster run in step: each one's full barrier waits for every
  // part), read part by part: part r is the half of the box rank r loads, from the row the kernels
  // take from gemmlab/tma_box.h's pair_b_part_row (a narrowed tile's halves overlap, and their
  // common sectors are asked for twice), and its DRAM sectors go to rank r's C tile, so each tile
  // of a pair shows the half of B it fetched.
  ReadResult read_b_parts(const Cursor& cur, int kk) {
    const WorkSegment& s = segment_of(cur);
    const int parts = o_.multicast_b;  // 1 or 2 (replay_l2 refuses others)
    const TileBox t = box_of(plan_, 0, s.n_tile);
    const long long c0 = s.cols > 0 ? s.col0 : t.n0, cols = s.cols > 0 ? s.cols : plan_.tile.n;
    const long long c1 = s.cols > 0 ? c0 + cols : t.n1;  // past N: the box's rows there read nothing
    ReadResult all;
    for (int r = 0; r < parts; ++r) {
      const long long first = c0 + tma::pair_b_part_row(r, int(cols), plan_.tile.n);
      const long long last = std::min(first + plan_.tile.n / parts, c1);
      const ReadResult part = read_region(b_columns(plan_, L_, std::min(first, last), last, kk), sm_of(cur.block));
      all.sectors += part.sectors;
      all.dram_sectors += part.dram_sectors;
      if (const int tile = charged_tile(cur, r); tile >= 0)
        r_.c_tile_dram_sectors[static_cast<size_t>(tile)] += static_cast<std::uint32_t>(part.dram_sectors);
    }
    return all;
  }
  // The C tile that rank r of cur's cluster computes at the same point of its run: the block r
  // places after it in launch order (a cluster's blocks are consecutive there), if that block is
  // rank r and works on the same n tile; otherwise (a cluster cut short by the grid) cur's own.
  int rank_tile(const Cursor& cur, int r) const {
    const WorkSegment& own = segment_of(cur);
    const int peer = cur.block + r;
    if (r == 0 || peer >= static_cast<int>(tl_.blocks.size()) || cluster_rank(peer) != r) return own.tile_index;
    const BlockRun& run = tl_.blocks[static_cast<size_t>(peer)];
    if (cur.phase >= run.phase_count) return own.tile_index;
    const Phase& ph = tl_.phases[static_cast<size_t>(run.first_phase + cur.phase)];
    const WorkSegment& s = plan_.segments[static_cast<size_t>(ph.segment)];
    return ph.kind == PhaseKind::Mainloop && s.n_tile == own.n_tile ? s.tile_index : own.tile_index;
  }
  // The C tile that pays for part r's DRAM sectors: rank r's, or where rank r is a cluster's
  // padding block (no C tile), the other rank's, whose tile the part serves.
  int charged_tile(const Cursor& cur, int r) const {
    const int t = rank_tile(cur, r);
    return t >= 0 || o_.multicast_b != 2 ? t : rank_tile(cur, 1 - r);
  }

  // Counters, rates, bytes and the hit rate over time.
  void finish_report() {
    r_.counters = cache_.counters();
    const auto& c = r_.counters;
    r_.hit_rate = c.read_lookups ? double(c.read_hits) / double(c.read_lookups) : 0.0;
    const std::uint64_t all = c.read_lookups + c.far_lookups;
    r_.hit_rate_with_far = all ? double(c.read_hits + c.far_hits) / double(all) : 0.0;
    r_.extra_tag_lookups = o_.global_load == GlobalLoad::CpAsync ? c.read_requests_missed : 0;
    r_.dram_bytes_read = c.dram_read_sectors * kSectorBytes;
    r_.dram_bytes_written = c.dram_write_sectors * kSectorBytes;
    r_.dirty_bytes_at_end = cache_.dirty_sectors() * kSectorBytes;
    const int B = o_.buckets;
    const double span = r_.makespan > 0 ? r_.makespan : 1.0;
    for (int i = 0; i < B; ++i) {
      const size_t bi = static_cast<size_t>(i);
      r_.hit_rate_over_time.push_back(bucket_lookups_[bi] ? double(bucket_hits_[bi]) / double(bucket_lookups_[bi]) : -1.0);
      r_.bucket_end_time.push_back(span * (i + 1) / B);
    }
    // Distinct sectors of A and B (each buffer starts on a 1 MiB boundary and is dense).
    auto sectors_of = [](std::uint64_t bytes) { return (bytes + kSectorBytes - 1) / kSectorBytes; };
    const std::uint64_t e = static_cast<std::uint64_t>(o_.element_bytes);
    r_.compulsory_read_bytes = kSectorBytes * (sectors_of(std::uint64_t(plan_.problem.m) * plan_.problem.k * e) +
                                               sectors_of(std::uint64_t(plan_.problem.k) * plan_.problem.n * e));
  }

  const BlockPlan& plan_;
  const Timeline& tl_;
  const L2ReplayOptions& o_;
  const Layout& L_;
  L2Cache cache_;
  const int kit_, tiles_n_;
  L2Report r_;
  std::vector<std::vector<std::uint64_t>> partial_slots_;
  CoresidentClock progress_;
  std::vector<double> work_before_;  // per timeline phase: the block's work done when it starts
  std::vector<std::uint64_t> bucket_lookups_, bucket_hits_;
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<Cursor>> q_;
  std::vector<Cursor> instant_;
  std::vector<TileRequest> requests_;
  std::vector<L2Cache::LineRef> batch_;
  std::vector<unsigned> row_masks_;
};

}  // namespace

Expected<L2Report> replay_l2(const BlockPlan& plan, const Timeline& tl, const DeviceDesc& device,
                             const L2ReplayOptions& o) {
  if (auto e = validate_device(device); !e.empty()) return Error{e};
  if (o.element_bytes != 2 && o.element_bytes != 4) return Error{"element size must be 2 (f16) or 4 (f32) bytes"};
  if (o.accumulator_bytes != 2 && o.accumulator_bytes != 4) return Error{"accumulator size must be 2 or 4 bytes"};
  if (o.c_element_bytes != 0 && o.c_element_bytes != 2 && o.c_element_bytes != 4)
    return Error{"C element size must be 2 (f16) or 4 (f32) bytes"};
  if (o.buckets < 1 || o.buckets > 10000) return Error{"time buckets must be 1..10000"};
  if (o.multicast_b != 1 && o.multicast_b != 2)
    return Error{"B multicast must be to 1 or 2 blocks (the cluster stages' pairs); got " +
                 std::to_string(o.multicast_b)};
  if (tl.blocks.size() != plan.blocks.size()) return Error{"the timeline is not of this plan"};
  const Layout L = make_layout(plan, o);
  if ((L.end >> kLineShift) > L2Cache::kMaxLine)
    return Error{"A, B, C and the workspace need " + std::to_string(L.end >> 30) +
                 " GiB; the L2 model addresses at most 512 GiB"};
  const std::uint64_t lookups = estimate_l2_lookups(plan, o);
  const std::uint64_t limit = std::min(o.max_lookups, kMaxL2Lookups);
  if (lookups > limit)
    return Error{"the replay would make " + std::to_string(lookups) +
                 " line look-ups (limit " + std::to_string(limit) + "): use a smaller problem or larger tiles"};
  return Replay(plan, tl, device, o, L).run();
}

}  // namespace gemmlab
