#include "gemmlab/pipeline_trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace gemmlab {

Expected<PipelineSpec> parse_pipeline_kind(const std::string& text) {
  PipelineSpec s;
  if (text == "pipelined2") {
    s.kind = PipelineKind::Pipelined2;
    s.stages = 2;
    return s;
  }
  if (text == "mma-base") {
    s.kind = PipelineKind::MmaBase;
    s.stages = 1;
    return s;
  }
  for (auto [prefix, kind] : {std::pair{std::string("multistage:"), PipelineKind::Multistage},
                               std::pair{std::string("warp-specialized:"), PipelineKind::WarpSpecialized},
                               std::pair{std::string("ping-pong:"), PipelineKind::PingPong}}) {
    if (text.rfind(prefix, 0) != 0) continue;
    const std::string arg = text.substr(prefix.size());
    const std::string name = prefix + "K";
    int k = 0;
    auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), k);
    if (ec != std::errc() || p != arg.data() + arg.size())
      return Error{name + ": K (the stage count) must be an integer"};
    if (k < 2 || k > 8)
      return Error{kind == PipelineKind::Multistage
                       ? name + ": the kStage loop needs 2..8 stages (cp.async.wait_group K-2 needs K >= 2)"
                       : name + ": the mbarrier ring needs 2..8 stages (with 1 it deadlocks: a consumer gives a "
                                "stage back only after issuing the next k-tile's wgmma, which needs a stage)"};
    s.kind = kind;
    s.stages = k;
    if (kind == PipelineKind::PingPong) s.tiles = 4;
    return s;
  }
  return Error{"unknown pipeline '" + text +
               "': use pipelined2, multistage:K, mma-base, warp-specialized:K or ping-pong:K"};
}

std::string pipeline_kind_name(const PipelineSpec& s) {
  switch (s.kind) {
    case PipelineKind::Pipelined2: return "pipelined2";
    case PipelineKind::Multistage: return "multistage:" + std::to_string(s.stages);
    case PipelineKind::MmaBase: return "mma-base";
    case PipelineKind::WarpSpecialized: return "warp-specialized:" + std::to_string(s.stages);
    case PipelineKind::PingPong: return "ping-pong:" + std::to_string(s.stages);
  }
  return "?";
}

const char* trace_event_kind_name(TraceEventKind k) {
  switch (k) {
    case TraceEventKind::LoadGlobal: return "load-global";
    case TraceEventKind::StoreShared: return "store-shared";
    case TraceEventKind::LoadShared: return "load-shared";
    case TraceEventKind::Math: return "math";
    case TraceEventKind::Barrier: return "barrier";
    case TraceEventKind::Wait: return "wait";
    case TraceEventKind::Commit: return "commit";
    case TraceEventKind::StoreGlobal: return "store-global";
    case TraceEventKind::MbarrierWait: return "mbarrier-wait";
    case TraceEventKind::MbarrierArrive: return "mbarrier-arrive";
  }
  return "?";
}

namespace {

// Issues events in order and times them (see the header's timing rules).
class Tracer {
 public:
  explicit Tracer(const PipelineSpec& s) : s_(s) {}
  std::vector<TraceEvent> events;

  // LDG to registers; returns the event index (its end is when the registers hold the data).
  int ldg(int tile, bool off) {
    TraceEvent e = base(TraceEventKind::LoadGlobal, "LDG A,B k-tile " + std::to_string(tile) + " -> registers", tile);
    e.predicated_off = off;
    e.start = cursor_;
    e.end = cursor_ + (off ? 1 : s_.global_latency);
    cursor_ += 1;
    return push(e);
  }
  void sts_from(int ldg_event, int tile, int stage, bool off) {
    TraceEvent e = base(TraceEventKind::StoreShared,
                        "STS A,B k-tile " + std::to_string(tile) + " -> stage " + std::to_string(stage), tile);
    e.smem_write = stage;
    e.predicated_off = off;
    e.start = std::max(cursor_, events[static_cast<size_t>(ldg_event)].end);
    e.end = e.start + 1;
    cursor_ = e.end;
    pending_stores_ = std::max(pending_stores_, e.end);
    push(e);
  }
  void cp_async(int tile, int stage, bool off) {
    TraceEvent e = base(TraceEventKind::LoadGlobal,
                        "cp.async A,B k-tile " + std::to_string(tile) + " -> stage " + std::to_string(stage), tile);
    e.async = true;
    e.smem_write = stage;
    e.predicated_off = off;
    e.start = cursor_;
    e.end = cursor_ + (off ? 1 : s_.global_latency);
    cursor_ += 1;
    open_group_end_ = std::max(open_group_end_, e.end);
    push(e);
  }
  void commit() {
    TraceEvent e = base(TraceEventKind::Commit, "cp.async.commit_group", -1);
    e.start = e.end = cursor_;
    groups_.push_back(open_group_end_ < 0 ? cursor_ : open_group_end_);
    open_group_end_ = -1;
    push(e);
  }
  void wait_group(int n) {
    TraceEvent e = base(TraceEventKind::Wait, "cp.async.wait_group " + std::to_string(n), -1);
    e.wait_pending = n;
    e.start = cursor_;
    double ready = cursor_;
    const int done = static_cast<int>(groups_.size()) - n;  // all but the n most recent groups
    for (int g = 0; g < done; ++g) ready = std::max(ready, groups_[static_cast<size_t>(g)]);
    e.end = ready;
    cursor_ = ready;
    push(e);
  }
  void barrier(const std::string& why) {
    TraceEvent e = base(TraceEventKind::Barrier, "__syncthreads (" + why + ")", -1);
    e.start = cursor_;
    e.end = std::max(cursor_, pending_stores_);
    cursor_ = e.end;
    push(e);
  }
  // LDS / ldmatrix of k group `group` of tile `tile` from `stage` into fragment buffer `buf`.
  void lds(int tile, int group, int stage, int buf, bool beyond) {
    TraceEvent e = base(TraceEventKind::LoadShared,
                        "LDS k-tile " + std::to_string(tile) + " group " + std::to_string(group) + " <- stage " +
                            std::to_string(stage) + (buf >= 0 ? " -> frag " + std::to_string(buf) : ""),
                        tile);
    e.k_group = group;
    e.smem_read = stage;
    e.reg_buffer = buf;
    e.predicated_off = beyond;  // the loop's last prefetch reads a stage nobody uses
    e.start = cursor_;
    e.end = cursor_ + s_.shared_latency;
    cursor_ += 1;
    frag_ready_[static_cast<size_t>(ready_key(buf, group))] = e.end;
    push(e);
  }
  void mma(int tile, int group, int buf) {
    TraceEvent e = base(TraceEventKind::Math,
                        "MMA k-tile " + std::to_string(tile) + " group " + std::to_string(group) +
                            (buf >= 0 ? " (frag " + std::to_string(buf) + ")" : ""),
                        tile);
    e.k_group = group;
    e.reg_buffer = buf;
    e.start = std::max(cursor_, frag_ready_[static_cast<size_t>(ready_key(buf, group))]);
    e.end = e.start + s_.math_cost;
    cursor_ = e.end;
    push(e);
  }
  void sts_accumulators() {
    TraceEvent e = base(TraceEventKind::StoreShared, "R2S accumulators -> shared (C staging, reuses the A/B buffer)", -1);
    e.smem_write = 0;
    e.start = cursor_;
    e.end = cursor_ + 1;
    cursor_ = e.end;
    pending_stores_ = std::max(pending_stores_, e.end);
    push(e);
  }
  void store_c() {
    TraceEvent l = base(TraceEventKind::LoadShared, "LDS C tile rows (int4) <- shared", -1);
    l.smem_read = 0;
    l.start = cursor_;
    l.end = cursor_ + s_.shared_latency;
    cursor_ += 1;
    push(l);
    TraceEvent g = base(TraceEventKind::StoreGlobal, "STG C tile (int4 stores)", -1);
    g.start = std::max(cursor_, l.end);
    g.end = g.start + 1;
    cursor_ = g.end;
    push(g);
  }

 private:
  TraceEvent base(TraceEventKind k, std::string label, int tile) {
    TraceEvent e;
    e.kind = k;
    e.label = std::move(label);
    e.k_tile = tile;
    return e;
  }
  int push(const TraceEvent& e) {
    events.push_back(e);
    return static_cast<int>(events.size()) - 1;
  }
  const PipelineSpec& s_;
  double cursor_ = 0;
  double pending_stores_ = 0;
  double open_group_end_ = -1;
  std::vector<double> groups_;
  // Fragments in registers: pipelined2 double-buffers them (key = buffer); CuTe's loop keeps one
  // register fragment per k group (key = 2 + group).
  static int ready_key(int buf, int group) { return buf >= 0 ? buf : 2 + group; }
  std::vector<double> frag_ready_ = std::vector<double>(2 + 64, 0.0);
};

// CUTLASS MmaPipelined::operator(): prologue, gmem_wait, gemm_iters.
void trace_pipelined2(Tracer& t, int n, int w) {
  int write_stage = 0, read_stage = 0;
  const int ldg0 = t.ldg(0, false);
  t.sts_from(ldg0, 0, write_stage, false);
  write_stage ^= 1;
  t.barrier("gmem_wait: stage 0 written");
  t.lds(0, 0, read_stage, 0, false);
  int pending_ldg = -1, pending_tile = -1;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < w; ++k) {
      if (k == w - 1) {
        // Write the next tile's fragments (cleared, if predicated off) into the other stage.
        t.sts_from(pending_ldg, pending_tile, write_stage, pending_tile >= n);
        t.barrier("gmem_wait: next stage written");
        write_stage ^= 1;
        read_stage ^= 1;
      }
      const int next_k = (k + 1) % w;
      const int lds_tile = k == w - 1 ? i + 1 : i;
      t.lds(lds_tile, next_k, read_stage, (k + 1) % 2, lds_tile >= n);
      if (k == 0) {
        pending_tile = i + 1;
        pending_ldg = t.ldg(pending_tile, pending_tile >= n);
      }
      t.mma(i, k, k % 2);
    }
  }
}

// Seed 001's kStage loop (reed-lau/cute-gemm): prologue of K-1 tiles, then per tile nk k groups.
void trace_multistage(Tracer& t, int n, int nk, int stages) {
  int to_read = 0, read_stage = 0, write_stage = 0;
  for (int s = 0; s < stages - 1; ++s) {
    t.cp_async(to_read, write_stage, to_read >= n);
    t.commit();
    ++to_read;
    ++write_stage;
  }
  t.wait_group(stages - 2);
  t.barrier("first stage landed");
  t.lds(0, 0, read_stage, -1, false);
  for (int tile = 0; tile < n; ++tile) {
    for (int ik = 0; ik < nk; ++ik) {
      const int ik_next = (ik + 1) % nk;
      if (ik == nk - 1) {
        t.wait_group(stages - 2);
        t.barrier("next stage landed");
        read_stage = (read_stage + 1) % stages;
      }
      const int lds_tile = ik == nk - 1 ? tile + 1 : tile;
      t.lds(lds_tile, ik_next, read_stage, -1, lds_tile >= n);
      if (ik == 0) {
        if (to_read < n) {
          t.cp_async(to_read, write_stage, false);
          ++to_read;
          write_stage = (write_stage + 1) % stages;
        }
        t.commit();
      }
      t.mma(tile, ik, -1);
    }
  }
}

// Seed 004 mma_base: one buffer, no overlap of loads and math.
void trace_mma_base(Tracer& t, int n, int chunk_k) {
  for (int tile = 0; tile < n; ++tile) {
    t.cp_async(tile, 0, false);
    t.commit();
    t.wait_group(0);
    t.barrier("k tile landed");
    for (int k = 0; k < chunk_k; ++k) {
      t.lds(tile, k, 0, -1, false);
      t.mma(tile, k, -1);
    }
    t.barrier("k tile consumed");
  }
  t.sts_accumulators();
  t.barrier("C staged");
  t.store_c();
}

}  // namespace

Expected<PipelineTrace> trace_pipeline(const PipelineSpec& spec) {
  PipelineSpec s = spec;
  if (s.k_iterations < 1 || s.k_iterations > kMaxTraceKIterations)
    return Error{"k iterations must be 1.." + std::to_string(kMaxTraceKIterations) + " (got " +
                 std::to_string(s.k_iterations) + ")"};
  if (s.warp_k_steps == 0) s.warp_k_steps = s.kind == PipelineKind::Pipelined2 || s.warp_specialized() ? 4 : 2;
  if (s.warp_k_steps < 1 || s.warp_k_steps > 64)
    return Error{"warp k steps per tile must be 1..64 (got " + std::to_string(s.warp_k_steps) + ")"};
  if (s.kind == PipelineKind::Pipelined2 && s.warp_k_steps < 2)
    return Error{"pipelined2 needs at least 2 warp k groups per tile: its fragments are double-buffered"};
  auto ok = [](double v) { return std::isfinite(v) && v >= 0 && v <= 1e6; };
  if (!ok(s.global_latency) || !ok(s.shared_latency) || !ok(s.math_cost) || s.math_cost <= 0 ||
      !ok(s.epilogue_cost))
    return Error{"latencies must be 0..1e6 and the math cost positive"};
  if (s.warp_specialized()) {
    if (s.consumers < 1 || s.consumers > 2) return Error{"consumer warpgroups must be 1 or 2"};
    if (s.kind == PipelineKind::PingPong && s.consumers != 2)
      return Error{"ping-pong alternates two consumer warpgroups"};
    if (s.tiles < 1 || static_cast<long long>(s.tiles) * s.k_iterations > kMaxTraceKIterations)
      return Error{"tiles x k iterations must be 1.." + std::to_string(kMaxTraceKIterations)};
    return trace_warp_specialized(s);
  }
  Tracer t(s);
  switch (s.kind) {
    case PipelineKind::Pipelined2: trace_pipelined2(t, s.k_iterations, s.warp_k_steps); break;
    case PipelineKind::Multistage: trace_multistage(t, s.k_iterations, s.warp_k_steps, s.stages); break;
    case PipelineKind::MmaBase: trace_mma_base(t, s.k_iterations, s.warp_k_steps); break;
    case PipelineKind::WarpSpecialized:
    case PipelineKind::PingPong: break;  // returned above
  }
  PipelineTrace tr;
  tr.spec = s;
  tr.events = std::move(t.events);
  for (const auto& e : tr.events) {
    tr.total_time = std::max(tr.total_time, e.end);
    if (e.kind == TraceEventKind::Math) tr.math_busy += e.end - e.start;
  }
  return tr;
}

}  // namespace gemmlab
