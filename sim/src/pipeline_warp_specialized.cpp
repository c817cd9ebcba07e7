// The mbarrier pipeline of the Hopper stages, replayed: produce_k_tiles and consume_k_tiles of
// kernels/stages/hopper/hopper_pipeline.cuh, one lane per warpgroup.
//
// Protocol (what the kernel does, per k-tile `it` of the block, stage s = it % K):
//   producer   it >= K: try_wait.parity(empty[s], (it / K - 1) & 1); arrive.expect_tx(full[s],
//              stage bytes); TMA A and B boxes -> stage s (they complete full[s]'s transaction).
//   consumer   try_wait.parity(full[s], (it / K) & 1); wgmma x warp_k_steps on stage s;
//              wgmma.wait_group 1 (the k-tile before is done); arrive(empty[s of it - 1]).
//              After its last k-tile: wait_group 0, arrive(empty[s]), then the epilogue.
// full[s] completes phase it / K when the producer's arrive and the box bytes are in; empty[s]
// completes when every consumer that read the stage has arrived.
#include <algorithm>
#include <vector>

#include "gemmlab/pipeline_trace.h"

namespace gemmlab {

namespace {

struct Lane {
  double cursor = 0;
  double last_mma_end = 0;
  int last_it = -1;  // the k-tile whose stage this consumer has not given back yet
};

class WsTracer {
 public:
  explicit WsTracer(const PipelineSpec& s)
      : s_(s), full_done_(total(), 0.0), empty_done_(total(), 0.0), empty_arrivals_(total(), 0), lanes_(1 + s.consumers) {}

  void run() {
    for (int it = 0; it < total(); ++it) {
      produce(it);
      const int tile = it / s_.k_iterations;
      for (int c = 0; c < s_.consumers; ++c)
        if (owns(c, tile)) consume(c, it);
    }
  }

  std::vector<TraceEvent> events;
  std::vector<BarrierPhase> phases;

 private:
  int total() const { return s_.tiles * s_.k_iterations; }
  bool ping_pong() const { return s_.kind == PipelineKind::PingPong; }
  bool owns(int c, int tile) const { return !ping_pong() || tile % 2 == c; }
  int readers() const { return ping_pong() ? 1 : s_.consumers; }  // consumers that read a k-tile's stage
  std::string where(int it) const {
    const int tile = it / s_.k_iterations, k = it % s_.k_iterations;
    return s_.tiles > 1 ? "tile " + std::to_string(tile) + " k-tile " + std::to_string(k) : "k-tile " + std::to_string(k);
  }

  TraceEvent event(TraceEventKind kind, int role, int it, std::string label) {
    TraceEvent e;
    e.kind = kind;
    e.role = role;
    e.k_tile = it;
    e.label = std::move(label);
    return e;
  }

  void produce(int it) {
    Lane& p = lanes_[0];
    const int s = it % s_.stages;
    if (it >= s_.stages) {
      const int parity = (it / s_.stages - 1) & 1;
      TraceEvent w = event(TraceEventKind::MbarrierWait, 0, it - s_.stages,
                           "wait empty[" + std::to_string(s) + "] parity " + std::to_string(parity) + " (" +
                               where(it - s_.stages) + " given back)");
      w.barrier = s;
      w.parity = parity;
      w.start = p.cursor;
      w.end = std::max(p.cursor, empty_done_[it - s_.stages]);
      p.cursor = w.end;
      events.push_back(w);
    }
    TraceEvent a = event(TraceEventKind::MbarrierArrive, 0, it,
                         "arrive.expect_tx full[" + std::to_string(s) + "] " + std::to_string(s_.stage_bytes) + " B");
    a.barrier = s;
    a.full_barrier = true;
    a.tx_bytes = s_.stage_bytes;
    a.start = a.end = p.cursor;
    events.push_back(a);
    TraceEvent t = event(TraceEventKind::LoadGlobal, 0, it,
                         "TMA A,B " + where(it) + " -> stage " + std::to_string(s));
    t.async = true;
    t.smem_write = s;
    t.start = p.cursor;
    t.end = p.cursor + s_.global_latency;
    p.cursor += 1;
    events.push_back(t);
    full_done_[it] = t.end;  // the arrival came first; the last byte completes the phase
    phases.push_back({s, true, it / s_.stages, it, t.end});
  }

  void release(int c, int it, double at) {
    const int s = it % s_.stages;
    TraceEvent r = event(TraceEventKind::MbarrierArrive, 1 + c, it,
                         "arrive empty[" + std::to_string(s) + "] (" + where(it) + " done)");
    r.barrier = s;
    r.smem_read = s;
    r.start = r.end = at;
    events.push_back(r);
    empty_done_[it] = std::max(empty_done_[it], at);
    if (++empty_arrivals_[it] == readers()) phases.push_back({s, false, it / s_.stages, it, empty_done_[it]});
  }

  void consume(int c, int it) {
    Lane& l = lanes_[1 + c];
    const int s = it % s_.stages, parity = (it / s_.stages) & 1;
    const int k = it % s_.k_iterations;
    TraceEvent w = event(TraceEventKind::MbarrierWait, 1 + c, it,
                         "wait full[" + std::to_string(s) + "] parity " + std::to_string(parity));
    w.barrier = s;
    w.full_barrier = true;
    w.parity = parity;
    w.start = l.cursor;
    w.end = std::max(l.cursor, full_done_[it]);
    l.cursor = w.end;
    events.push_back(w);
    // Cooperative consumers each compute half of the tile's rows; a ping-pong consumer the whole tile.
    const int groups = s_.warp_k_steps * (ping_pong() ? s_.consumers : 1);
    TraceEvent m = event(TraceEventKind::Math, 1 + c, it,
                         "wgmma x" + std::to_string(groups) + " " + where(it) + " <- stage " + std::to_string(s));
    m.smem_read = s;
    m.start = std::max({l.cursor, tensor_free_, l.last_mma_end});
    m.end = m.start + groups * s_.math_cost;
    tensor_free_ = m.end;
    events.push_back(m);
    const double previous_end = l.last_mma_end;
    l.last_mma_end = m.end;
    const bool last = k == s_.k_iterations - 1;
    TraceEvent g = event(TraceEventKind::Wait, 1 + c, -1, last ? "wgmma.wait_group 0" : "wgmma.wait_group 1");
    g.wait_pending = last ? 0 : 1;
    g.start = l.cursor;
    g.end = std::max(l.cursor, last ? m.end : (l.last_it >= 0 ? previous_end : l.cursor));
    l.cursor = g.end;
    events.push_back(g);
    if (l.last_it >= 0) release(c, l.last_it, l.cursor);
    l.last_it = it;
    if (!last) return;
    release(c, it, l.cursor);
    l.last_it = -1;
    TraceEvent e = event(TraceEventKind::StoreGlobal, 1 + c, -1,
                         "epilogue: store tile " + std::to_string(it / s_.k_iterations) + " (rows of consumer " +
                             std::to_string(c) + ")");
    e.start = l.cursor;
    e.end = l.cursor + s_.epilogue_cost;
    l.cursor = e.end;
    events.push_back(e);
  }

  const PipelineSpec& s_;
  std::vector<double> full_done_, empty_done_;
  std::vector<int> empty_arrivals_;
  std::vector<Lane> lanes_;
  double tensor_free_ = 0;
};

}  // namespace

PipelineTrace trace_warp_specialized(const PipelineSpec& spec) {
  WsTracer t(spec);
  t.run();
  PipelineTrace tr;
  tr.spec = spec;
  tr.events = std::move(t.events);
  tr.phases = std::move(t.phases);
  std::stable_sort(tr.phases.begin(), tr.phases.end(),
                   [](const BarrierPhase& a, const BarrierPhase& b) { return a.completed < b.completed; });
  for (const auto& e : tr.events) {
    tr.total_time = std::max(tr.total_time, e.end);
    if (e.kind == TraceEventKind::Math) tr.math_busy += e.end - e.start;
  }
  return tr;
}

}  // namespace gemmlab
