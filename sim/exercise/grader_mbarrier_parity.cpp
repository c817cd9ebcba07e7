// Exercise 17-warp-specialized/mbarrier-parity: int full_parity(int k_tile, int stages) and
// int empty_parity(int k_tile, int stages), the phase parities the consumer waits for on
// full[k % stages] and the producer on empty[k % stages] (-1: no wait), for 2..8 stages and 32
// k-tiles. Each plan runs in the mbarrier ring (mbarrier_ring.h) under both schedules; a race or
// a deadlock is named with the stage's own parity at that k-tile from the pipeline simulator's
// trace of `warp-specialized:S` (gemmlab/pipeline_trace.h).
#include <algorithm>
#include <map>

#include "exercise_pictures.h"
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

Words stage_words(const StagePlan& p, int k) {
  const auto f = p.full.find(k), e = p.empty.find(k);
  const Words full = f == p.full.end() ? literal("?") : literal(std::to_string(f->second));
  if (e == p.empty.end())
    return words("stage 17 waits on full for parity %s and on empty for none (a fresh barrier) at k-tile %s", full, k);
  return words("stage 17 waits on full for parity %s and on empty for parity %s at k-tile %s", full, e->second, k);
}

// The first ring (2..8 stages) the learner's plan breaks: a value that is no parity, a race or
// a deadlock; stages 0 when every ring holds.
struct Failure {
  int stages = 0;
  int k_tile = -1;
  ParityPlanPicture::Verdict verdict = ParityPlanPicture::Verdict::Ok;
  Words words;
};
Failure first_failure(const ValueTable& t) {
  for (int stages = kMinStages; stages <= kMaxStages; ++stages) {
    auto value = [&](int k, int i) { return static_cast<int>(t.at((stages - kMinStages) * kKTiles + k, i)); };
    for (int k = 0; k < kKTiles; ++k)
      for (int i = 0; i < 2; ++i) {
        const long long raw = t.at((stages - kMinStages) * kKTiles + k, i);
        if (raw == 0 || raw == 1 || (i == 1 && raw == -1)) continue;
        Words w = i == 0 ? words("full_parity(%s, %s) returned %s: a phase parity is 0 or 1", k, stages, raw)
                         : words("empty_parity(%s, %s) returned %s: a phase parity is 0 or 1 (or -1: no wait)", k,
                                 stages, raw);
        return {stages, k, ParityPlanPicture::Verdict::NotAParity, std::move(w)};
      }
    const RingOutcome o = run_mbarrier_ring(
        stages, kKTiles, [&](int k) { return value(k, 0); }, [&](int k) { return value(k, 1); });
    if (o.ok) continue;
    const auto verdict = o.kind == RingOutcome::Kind::Deadlock ? ParityPlanPicture::Verdict::Deadlock
                                                               : ParityPlanPicture::Verdict::Race;
    return {stages, o.k_tile, verdict,
            words("with %s stages, %s (%s)", stages, o.words, stage_words(stage_plan(stages), o.k_tile))};
  }
  return {};
}

HostVerdict evaluate(const ValueTable& t) {
  HostVerdict v;
  Failure f = first_failure(t);
  if (f.stages > 0) {
    v.say(std::move(f.words));
    return v;
  }
  v.pass = true;
  v.hold(words("2 to 8 stages, 32 k-tiles: no race and no deadlock under either schedule"));
  v.say(words("for 2 to 8 stages the ring neither races nor deadlocks: each wait passes exactly when its phase has "
              "completed"));
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

namespace gemmlab::exercise {

ParityPlanPicture parity_plan_picture(const ValueTable& t) {
  ParityPlanPicture p;
  const bool fits = t.values_per_point == 2 && static_cast<long long>(t.values.size()) == 2 * kPoints;
  const Failure f = fits ? first_failure(t) : Failure{};
  p.stages = f.stages > 0 ? f.stages : 3;
  p.verdict = f.verdict;
  p.failed_k = f.k_tile;
  // Eight k-tiles: the first ones, or ending just past the one the ring stops at.
  constexpr int kShown = 8;
  p.first_k = f.k_tile < kShown - 2 ? 0 : std::min(f.k_tile - (kShown - 3), kKTiles - kShown);
  const StagePlan stage = stage_plan(p.stages);
  for (int k = p.first_k; k < p.first_k + kShown; ++k) {
    const auto sf = stage.full.find(k), se = stage.empty.find(k);
    p.stage_full.push_back(sf == stage.full.end() ? -1 : sf->second);
    p.stage_empty.push_back(se == stage.empty.end() ? -1 : se->second);
    if (!fits) continue;
    const long long at = (p.stages - kMinStages) * kKTiles + k;
    p.full.push_back(static_cast<int>(std::clamp<long long>(t.at(at, 0), -99, 99)));
    p.empty.push_back(static_cast<int>(std::clamp<long long>(t.at(at, 1), -99, 99)));
  }
  return p;
}

}  // namespace gemmlab::exercise
