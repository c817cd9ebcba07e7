// sweep_launch (gemmlab/sweep_launch.h): a stage's launch at one shape of the sweep, read off the
// simulator's own plan of it.
#include "gemmlab/sweep_launch.h"

#include "gemmlab/launch_facts.h"
#include "gemmlab/launch_plan.h"
#include "gemmlab/raster_analysis.h"  // kMaxProblemExtent

namespace gemmlab {

Expected<SweepLaunch> sweep_launch(const StageDesc& row, GemmCoord problem, const DeviceDesc& device) {
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || device.sms < 1) return Error{"M, N, K and the SMs must be at least 1"};
  // The dispatcher's launch at this shape is the one of the stage it picks.
  const StageDesc& stage = launched_stage(row, problem, device.sms);
  if (!stage.has_tile()) return Error{std::string("stage ") + stage.id + " has no threadblock tile"};
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || problem.m > kMaxProblemExtent ||
      problem.n > kMaxProblemExtent || problem.k > kMaxProblemExtent)
    return Error{"M, N and K must be 1 .. " + std::to_string(kMaxProblemExtent)};
  // A results file may name any shape; the plan holds a block per tile, so only so many.
  const long long tiles = 1ll * ceil_div(problem.m, stage.tile_m) * ceil_div(problem.n, stage.tile_n);
  if (tiles > kMaxSweepTiles)
    return Error{std::to_string(tiles) + " tiles, more than the " + std::to_string(kMaxSweepTiles) + " a sweep plans"};
  auto spec = stage_launch_spec(stage, problem);
  if (!spec) return Error{spec.error()};
  auto plan = plan_launch(*spec, device);
  if (!plan) return Error{plan.error()};
  SweepLaunch s;
  s.problem = problem;
  s.sms = device.sms;
  if (&stage != &row) s.launched = &stage;
  s.tile_m = stage.tile_m, s.tile_n = stage.tile_n, s.tile_k = stage.tile_k;
  // (Not the plan's tiles_n: stage 19's narrowed rows hold one tile more.)
  s.tiles_m = ceil_div(problem.m, stage.tile_m), s.tiles_n = ceil_div(problem.n, stage.tile_n);
  s.tiles = 1ll * s.tiles_m * s.tiles_n;
  s.rows_used = problem.m - (s.tiles_m - 1) * stage.tile_m;
  s.k_tiles = ceil_div(problem.k, stage.tile_k);
  s.cluster_m = stage.cluster_m;
  s.persistent = stage.schedule == BlockSchedule::Persistent;
  s.slots = device.sms * plan->blocks_per_sm;
  s.waves = plan->waves.waves;
  s.pieces = plan->tail_pieces;
  s.split_k = launch_facts(row, *plan).split_k;
  // A persistent launch's blocks are the SMs its clusters occupy; a grid's, the blocks with work
  // (stage 18's padding blocks past M included: plan_launch rounds its rows up to whole clusters).
  s.blocks = s.persistent ? 1ll * plan->timeline.sms * plan->blocks_per_sm : plan->waves.work_blocks;
  // Busy over every slot of the GPU, not only those the launch occupies: idle SMs are the point.
  // Only the problem's own tiles count as work (a cluster's padding blocks load for their peers).
  double own_work = 0;
  for (const Phase& ph : plan->timeline.phases)
    if (ph.kind != PhaseKind::Wait && plan->plan.segments[static_cast<size_t>(ph.segment)].role != SegmentRole::ClusterPad)
      own_work += ph.end - ph.start;
  const double span = plan->timeline.makespan * s.slots;
  s.busy = span > 0 ? own_work / span : 0;
  return s;
}

}  // namespace gemmlab
