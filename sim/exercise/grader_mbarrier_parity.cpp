// Exercise 17-warp-specialized/mbarrier-parity: int full_parity(int k_tile, int stages) and
// int empty_parity(int k_tile, int stages), the phase parities the consumer waits for on
// full[k % stages] and the producer on empty[k % stages] (-1: no wait), for 2..8 stages and 32
// k-tiles. Each plan runs in the mbarrier ring (mbarrier_ring.h) under both schedules; a race or
// a deadlock is named with the stage's own parity at that k-tile from the pipeline simulator's
// trace of `warp-specialized:S` (gemmlab/pipeline_trace.h).
#include <map>

#include "gemmlab/pipeline_trace.h"
#include "grader.h"
#include "mbarrier_ring.h"

namespace gemmlab::exercise {
namespace {

constexpr int kMinStages = 2, kMaxStages = 8, kKTiles = 32;
constexpr long long kPoints = (kMaxStages - kMinStages + 1) * kKTiles;

// The stage's waits from the pipeline simulator: (k-tile -> parity) for full and for empty.
struct StagePlan {
  std::map<int, int> full, empty;
};
StagePlan stage_plan(int stages) {
  StagePlan p;
  PipelineSpec spec;
  spec.kind = PipelineKind::WarpSpecialized;
  spec.stages = stages;
  spec.k_iterations = kKTiles;
  const auto trace = trace_pipeline(spec);
  if (!trace) return p;
  for (const TraceEvent& e : trace->events) {
    if (e.kind != TraceEventKind::MbarrierWait) continue;
    if (e.role == 0) p.empty[e.k_tile + stages] = e.parity;  // the producer's wait names the k-tile given back
    else if (e.role == 1) p.full[e.k_tile] = e.parity;
  }
  return p;
}

std::string stage_words(const StagePlan& p, int k) {
  const auto f = p.full.find(k), e = p.empty.find(k);
  return "stage 17 waits on full for parity " + (f == p.full.end() ? std::string("?") : std::to_string(f->second)) +
         " and on empty for " + (e == p.empty.end() ? std::string("none (a fresh barrier)") : "parity " + std::to_string(e->second)) +
         " at k-tile " + std::to_string(k);
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  for (int stages = kMinStages; stages <= kMaxStages; ++stages) {
    auto value = [&](int k, int i) { return static_cast<int>(t.at((stages - kMinStages) * kKTiles + k, i)); };
    for (int k = 0; k < kKTiles; ++k)
      for (int i = 0; i < 2; ++i) {
        const long long raw = t.at((stages - kMinStages) * kKTiles + k, i);
        if (raw != 0 && raw != 1 && !(i == 1 && raw == -1)) {
          v.reason = std::string(i == 0 ? "full_parity(" : "empty_parity(") + std::to_string(k) + ", " +
                     std::to_string(stages) + ") returned " + std::to_string(raw) + ": a phase parity is 0 or 1" +
                     (i == 1 ? " (or -1: no wait)" : "");
          return v;
        }
      }
    const RingOutcome o = run_mbarrier_ring(
        stages, kKTiles, [&](int k) { return value(k, 0); }, [&](int k) { return value(k, 1); });
    if (!o.ok) {
      // The k-tile the problem names: the last number after "k-tile ".
      int k = 0;
      const size_t at = o.problem.rfind("k-tile ");
      if (at != std::string::npos) k = std::atoi(o.problem.c_str() + at + 7);
      v.reason = "with " + std::to_string(stages) + " stages, " + o.problem + " (" + stage_words(stage_plan(stages), k) + ")";
      return v;
    }
  }
  v.pass = true;
  v.passed.push_back("2 to 8 stages, 32 k-tiles: no race and no deadlock under either schedule");
  v.reason = "for 2 to 8 stages the ring neither races nor deadlocks: each wait passes exactly when its phase has completed";
  return v;
}

}  // namespace

Grader make_mbarrier_parity_grader() {
  Grader g;
  g.kind = "mbarrier-parity";
  g.signature = "int full_parity(int k_tile, int stages) and int empty_parity(int k_tile, int stages)";
  g.declarations = "int full_parity(int k_tile, int stages);\nint empty_parity(int k_tile, int stages);\n";
  g.driver_body = "for (int s = 2; s <= 8; ++s)\n  for (int k = 0; k < 32; ++k) emit(full_parity(k, s), empty_parity(k, s));";
  g.points = kPoints;
  g.values_per_point = 2;
  g.describe_point = [](long long p) {
    const int s = static_cast<int>(p / kKTiles) + kMinStages, k = static_cast<int>(p % kKTiles);
    return "full_parity / empty_parity(" + std::to_string(k) + ", " + std::to_string(s) + ")";
  };
  g.evaluate = evaluate;
  return g;
}

}  // namespace gemmlab::exercise
