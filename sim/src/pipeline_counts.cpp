#include "gemmlab/pipeline_counts.h"

#include <map>
#include <vector>

namespace gemmlab {

Expected<int> stages_in_flight_at_first_math(const PipelineTrace& trace) {
  const auto& ev = trace.events;
  // The earliest math event (the warp-specialized kinds list events per warpgroup, not in time).
  size_t first_math = ev.size();
  for (size_t i = 0; i < ev.size(); ++i)
    if (ev[i].kind == TraceEventKind::Math && (first_math == ev.size() || ev[i].start < ev[first_math].start))
      first_math = i;
  if (first_math == ev.size()) return Error{"the trace has no math event"};
  const double t0 = ev[first_math].start;

  // k tile -> landed (as the program sees it) by t0?
  std::map<int, bool> tiles;
  std::vector<std::vector<int>> groups;  // cp.async commit groups, oldest first
  std::vector<int> open_group;
  size_t retired = 0;  // groups retired by waits that finished by t0
  for (const auto& e : ev) {
    if (e.start > t0) continue;  // one warp's events start in order; another warpgroup's may come later
    switch (e.kind) {
      case TraceEventKind::LoadGlobal:
        if (e.predicated_off || e.k_tile < 0) break;
        tiles[e.k_tile] = false;
        if (e.async) open_group.push_back(e.k_tile);
        break;
      case TraceEventKind::StoreShared:
        if (e.k_tile >= 0 && e.end <= t0 && tiles.count(e.k_tile)) tiles[e.k_tile] = true;
        break;
      case TraceEventKind::MbarrierWait:  // full[s] passed: the k-tile's bytes are in
        if (e.full_barrier && e.end <= t0 && tiles.count(e.k_tile)) tiles[e.k_tile] = true;
        break;
      case TraceEventKind::Commit:
        groups.push_back(open_group);
        open_group.clear();
        break;
      case TraceEventKind::Wait:
        if (e.end <= t0 && e.wait_pending >= 0 && groups.size() > static_cast<size_t>(e.wait_pending)) {
          const size_t upto = groups.size() - static_cast<size_t>(e.wait_pending);
          for (size_t g = retired; g < upto; ++g)
            for (int k : groups[g]) tiles[k] = true;
          if (upto > retired) retired = upto;
        }
        break;
      default:
        break;
    }
  }
  int in_flight = 0;
  for (const auto& [k, landed] : tiles) in_flight += landed ? 0 : 1;
  return in_flight;
}

double math_busy_share(const PipelineTrace& t) { return t.total_time > 0 ? t.math_busy / t.total_time : 0.0; }

std::vector<StageHold> stage_holds(const PipelineTrace& t) {
  struct Hold {
    double from = 1e300, to = 0;
  };
  std::map<std::pair<int, int>, Hold> holds;  // (stage, k tile)
  for (const TraceEvent& e : t.events) {
    if (e.smem_write >= 0 && e.k_tile >= 0 && !e.predicated_off) {
      Hold& h = holds[{e.smem_write, e.k_tile}];
      h.from = std::min(h.from, e.start);
      h.to = std::max(h.to, e.end);
    }
    if (e.smem_read >= 0 && e.k_tile >= 0) holds[{e.smem_read, e.k_tile}].to = std::max(holds[{e.smem_read, e.k_tile}].to, e.end);
  }
  std::vector<StageHold> out;
  for (const auto& [key, h] : holds)
    if (h.from <= h.to) out.push_back({key.first, key.second, h.from, h.to});
  return out;
}

}  // namespace gemmlab
