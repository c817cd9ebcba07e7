#include "gemmlab/schedule.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace gemmlab {

namespace {
int round_up_int(int a, int b) { return (a + b - 1) / b * b; }
}  // namespace

Expected<Occupancy> compute_occupancy(const DeviceDesc& d, const KernelResources& k) {
  if (auto e = validate_device(d); !e.empty()) return Error{e};
  if (k.threads <= 0 || k.threads > d.max_threads_per_block)
    return Error{"threads per block must be 1.." + std::to_string(d.max_threads_per_block) + " (got " +
                 std::to_string(k.threads) + ")"};
  if (k.regs_per_thread <= 0 || k.regs_per_thread > d.max_regs_per_thread)
    return Error{"registers per thread must be 1.." + std::to_string(d.max_regs_per_thread) + " (got " +
                 std::to_string(k.regs_per_thread) + ")"};
  if (k.smem_per_block < 0 || k.smem_per_block > d.max_smem_per_block)
    return Error{"shared memory per block must be 0.." + std::to_string(d.max_smem_per_block) + " bytes on " +
                 d.name + " (got " + std::to_string(k.smem_per_block) + ")"};
  Occupancy o;
  o.warps_per_block = (k.threads + 31) / 32;
  const int max_warps = d.max_threads_per_sm / 32;
  o.by_threads = max_warps / o.warps_per_block;
  o.by_blocks = d.max_blocks_per_sm;

  // Registers: allocated per warp in units of reg_alloc_unit; the per-block check rounds the
  // warps up to a multiple of the sub-partitions, and warps fit per sub-partition.
  o.regs_per_warp = round_up_int(k.regs_per_thread * 32, d.reg_alloc_unit);
  const int warps_allocated = round_up_int(o.warps_per_block, d.sub_partitions);
  if (static_cast<long long>(warps_allocated) * o.regs_per_warp > d.max_regs_per_block)
    return Error{std::to_string(k.threads) + " threads x " + std::to_string(k.regs_per_thread) +
                 " registers do not fit the " + std::to_string(d.max_regs_per_block) +
                 " registers one block may use: use fewer threads or registers"};
  const int warps_per_sub_partition = (d.regs_per_sm / d.sub_partitions) / o.regs_per_warp;
  o.by_registers = warps_per_sub_partition * d.sub_partitions / o.warps_per_block;

  o.smem_per_block_allocated = round_up_int(k.smem_per_block + d.reserved_smem_per_block, d.smem_alloc_unit);
  o.by_shared_memory = d.smem_per_sm / o.smem_per_block_allocated;

  o.blocks_per_sm = o.by_blocks;
  o.limiter = "blocks per SM";
  auto take = [&](int v, const char* why) {
    if (v < o.blocks_per_sm) {
      o.blocks_per_sm = v;
      o.limiter = why;
    }
  };
  take(o.by_threads, "threads");
  take(o.by_registers, "registers");
  take(o.by_shared_memory, "shared memory");
  if (o.blocks_per_sm <= 0)
    return Error{"no block fits on an SM (limited by " + o.limiter + "): reduce threads, registers or shared memory"};
  o.warp_occupancy = double(o.blocks_per_sm * o.warps_per_block) / max_warps;
  return o;
}

std::string validate_cost_model(const CostModel& c) {
  auto ok = [](double v) { return std::isfinite(v) && v >= 0 && v <= 1e6; };
  if (!ok(c.iter_cost) || c.iter_cost <= 0) return "iteration cost must be positive and finite";
  if (!ok(c.epilogue_cost) || !ok(c.partial_cost) || !ok(c.noop_cost))
    return "epilogue, partial and no-op costs must be 0..1e6";
  return "";
}

const char* phase_kind_name(PhaseKind k) {
  switch (k) {
    case PhaseKind::Mainloop: return "mainloop";
    case PhaseKind::Wait: return "wait";
    case PhaseKind::ReadPartials: return "read-partials";
    case PhaseKind::StorePartial: return "store-partial";
    case PhaseKind::Epilogue: return "epilogue";
  }
  return "?";
}

namespace {

// A phase before it runs: what it costs and what it waits for / signals.
struct PhaseSpec {
  PhaseKind kind;
  int segment;
  double duration;
  int wait_tile = -1;   // Wait: tile semaphore to watch
  int wait_count = 0;   // Wait: signals needed
  int signal_tile = -1; // after this phase, signal the tile's semaphore
};

void append_phases(const BlockPlan& plan, const BlockWork& b, const CostModel& c,
                   std::vector<PhaseSpec>& out) {
  for (int i = 0; i < b.segment_count; ++i) {
    const int si = b.first_segment + i;
    const WorkSegment& s = plan.segments[static_cast<size_t>(si)];
    // A narrowed tile (stage 19) computes and stores fewer columns: its wgmma m64nNk16 take
    // N / 256 of the time (HOPPER_NOTES.md), its C stores as many fewer bytes.
    const double width = s.cols > 0 ? double(s.cols) / plan.tile.n : 1.0;
    const double main = (s.k_iter_end - s.k_iter_begin) * c.iter_cost * width;
    out.push_back({PhaseKind::Mainloop, si, main});
    switch (s.role) {
      case SegmentRole::Full:
      case SegmentRole::SplitParallel:
      case SegmentRole::ReduceAdd:  // the kernel orders its pieces so that the flag is up: no wait
        out.push_back({PhaseKind::Epilogue, si, c.epilogue_cost * width});
        break;
      case SegmentRole::SplitSerial:
        // kernel::Gemm with SplitKSerial: semaphore.wait(k); slice k > 0 reads the D that slice
        // k-1 wrote as its source; epilogue; semaphore.release(k + 1).
        if (s.slice > 0) {
          out.push_back({PhaseKind::Wait, si, 0.0, s.tile_index, s.slice});
          out.push_back({PhaseKind::ReadPartials, si, c.partial_cost});
        }
        out.push_back({PhaseKind::Epilogue, si, c.epilogue_cost, -1, 0, s.tile_index});
        break;
      case SegmentRole::SkPartial:
        out.push_back({PhaseKind::StorePartial, si, c.partial_cost, -1, 0, s.tile_index});
        break;
      case SegmentRole::SkFinish:
        out.push_back({PhaseKind::Wait, si, 0.0, s.tile_index, s.peers});
        out.push_back({PhaseKind::ReadPartials, si, s.peers * c.partial_cost});
        out.push_back({PhaseKind::Epilogue, si, c.epilogue_cost});
        break;
      case SegmentRole::ClusterPad:  // loads for its peer and stores nothing
        break;
    }
  }
}

struct Event {
  double time;
  int type;   // 0: a block's phase ended, 1: a slot became free
  int slot;
  int block;
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (type != o.type) return type > o.type;
    return slot > o.slot;
  }
};

}  // namespace

Expected<Timeline> simulate_timeline(const BlockPlan& plan, int sms, int blocks_per_sm,
                                     const CostModel& cost) {
  if (sms <= 0 || blocks_per_sm <= 0) return Error{"the timeline needs at least one SM and one block per SM"};
  if (auto e = validate_cost_model(cost); !e.empty()) return Error{e};
  const long long slots_ll = static_cast<long long>(sms) * blocks_per_sm;
  if (slots_ll > (1 << 20)) return Error{"too many SM slots (" + std::to_string(slots_ll) + ")"};

  Timeline tl;
  tl.sms = sms;
  tl.blocks_per_sm = blocks_per_sm;
  tl.slots = static_cast<int>(slots_ll);
  tl.iter_cost = cost.iter_cost;
  const size_t n = plan.blocks.size();
  tl.blocks.resize(n);

  std::vector<PhaseSpec> specs;
  specs.reserve(plan.segments.size() * 3 + n);
  for (size_t b = 0; b < n; ++b) {
    tl.blocks[b].first_phase = static_cast<int>(specs.size());
    append_phases(plan, plan.blocks[b], cost, specs);
    tl.blocks[b].phase_count = static_cast<int>(specs.size()) - tl.blocks[b].first_phase;
  }
  tl.phases.resize(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    tl.phases[i].kind = specs[i].kind;
    tl.phases[i].segment = specs[i].segment;
  }

  const size_t tiles = static_cast<size_t>(plan.tiles());
  std::vector<int> semaphore(tiles, 0);
  std::vector<std::vector<int>> waiters(tiles);
  std::vector<int> current(n, 0);  // phase index within the block
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q;
  size_t next_block = 0, finished = 0;

  // Runs block b from time t until it must wait or a phase takes time.
  auto advance = [&](int b, double t) {
    BlockRun& run = tl.blocks[static_cast<size_t>(b)];
    while (current[static_cast<size_t>(b)] < run.phase_count) {
      const size_t pi = static_cast<size_t>(run.first_phase + current[static_cast<size_t>(b)]);
      const PhaseSpec& ps = specs[pi];
      Phase& ph = tl.phases[pi];
      ph.start = t;
      if (ps.kind == PhaseKind::Wait) {
        if (semaphore[static_cast<size_t>(ps.wait_tile)] < ps.wait_count) {
          waiters[static_cast<size_t>(ps.wait_tile)].push_back(b);
          return;
        }
        ph.end = t;
        ++current[static_cast<size_t>(b)];
        continue;
      }
      ph.end = t + ps.duration;
      if (ps.duration > 0) {
        q.push({ph.end, 0, run.slot, b});
        return;
      }
      ++current[static_cast<size_t>(b)];
      if (ps.signal_tile >= 0) {
        ++semaphore[static_cast<size_t>(ps.signal_tile)];
        for (int w : waiters[static_cast<size_t>(ps.signal_tile)]) q.push({t, 0, tl.blocks[static_cast<size_t>(w)].slot, w});
        waiters[static_cast<size_t>(ps.signal_tile)].clear();
      }
    }
    const double end = t + (run.phase_count == 0 ? cost.noop_cost : 0.0);
    run.end = end;
    ++finished;
    q.push({end, 1, run.slot, b});
  };

  // With plan.static_slots slot s runs blocks s, s + slots, ... whenever they end; otherwise a
  // freed slot takes the next block of the list.
  std::vector<size_t> next_of_slot;
  if (plan.static_slots)
    for (int s = 0; s < tl.slots; ++s) next_of_slot.push_back(static_cast<size_t>(s));
  auto dispatch = [&](int slot, double t) {
    if (next_block >= n) return;
    if (plan.static_slots && next_of_slot[static_cast<size_t>(slot)] >= n) return;
    const int b = static_cast<int>(plan.static_slots ? next_of_slot[static_cast<size_t>(slot)] : next_block);
    ++next_block;
    if (plan.static_slots) next_of_slot[static_cast<size_t>(slot)] += static_cast<size_t>(tl.slots);
    BlockRun& run = tl.blocks[static_cast<size_t>(b)];
    run.slot = slot;
    run.sm = slot % sms;
    run.start = t;
    advance(b, t);
  };

  for (int s = 0; s < tl.slots && next_block < n; ++s) dispatch(s, 0.0);
  while (!q.empty()) {
    const Event e = q.top();
    q.pop();
    if (e.type == 1) {
      dispatch(e.slot, e.time);
      continue;
    }
    // A phase of block e.block ended (or a wait was satisfied) at e.time.
    const size_t b = static_cast<size_t>(e.block);
    BlockRun& run = tl.blocks[b];
    const size_t pi = static_cast<size_t>(run.first_phase + current[b]);
    const PhaseSpec& ps = specs[pi];
    if (ps.kind == PhaseKind::Wait) {
      if (semaphore[static_cast<size_t>(ps.wait_tile)] < ps.wait_count) {
        waiters[static_cast<size_t>(ps.wait_tile)].push_back(e.block);
        continue;
      }
      tl.phases[pi].end = e.time;
      ++current[b];
      advance(e.block, e.time);
      continue;
    }
    ++current[b];
    if (ps.signal_tile >= 0) {
      ++semaphore[static_cast<size_t>(ps.signal_tile)];
      for (int w : waiters[static_cast<size_t>(ps.signal_tile)]) q.push({e.time, 0, tl.blocks[static_cast<size_t>(w)].slot, w});
      waiters[static_cast<size_t>(ps.signal_tile)].clear();
    }
    advance(e.block, e.time);
  }
  if (finished != n) {
    return Error{std::to_string(n - finished) +
                 " blocks never finish: blocks holding every slot wait for partial results from blocks "
                 "that cannot start, so this launch would hang on the GPU. Use more blocks per SM, fewer "
                 "split-k slices, or a different partition"};
  }
  for (size_t b = 0; b < n; ++b) {
    BlockRun& run = tl.blocks[b];
    for (int i = 0; i < run.phase_count; ++i) {
      const Phase& ph = tl.phases[static_cast<size_t>(run.first_phase + i)];
      if (ph.kind == PhaseKind::Wait) run.wait_time += ph.end - ph.start;
    }
    tl.makespan = std::max(tl.makespan, run.end);
    tl.busy_time += run.end - run.start;
    tl.work_time += run.end - run.start - run.wait_time;
  }
  return tl;
}

WaveSummary summarize_waves(const BlockPlan& plan, int slots) {
  WaveSummary w;
  w.blocks = static_cast<long long>(plan.blocks.size());
  for (const auto& b : plan.blocks) w.work_blocks += b.kind == BlockKind::Work;
  w.slots = slots;
  if (slots <= 0) return w;
  w.waves = double(w.blocks) / slots;
  w.full_waves = w.blocks / slots;
  const long long rest = w.blocks % slots;
  w.tail_utilisation = rest == 0 ? 1.0 : double(rest) / slots;
  w.last_wave_blocks = w.blocks == 0 ? 0 : rest > 0 ? rest : slots;
  return w;
}

}  // namespace gemmlab
