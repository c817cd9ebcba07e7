// sweep_launch (gemmlab/sweep_launch.h): a stage's launch at one shape of the sweep, read off the
// simulator's own plan of it.
#include "gemmlab/sweep_launch.h"

#include "gemmlab/launch_plan.h"
#include "gemmlab/raster_analysis.h"  // kMaxProblemExtent

namespace gemmlab {

namespace {

// A grid stage in clusters along m (stage 18) rounds its tile rows up to whole clusters, and the
// blocks past M still run the main loop to load B for their peer (cluster_multicast.cuh): they
// hold SMs as long as the others. The plan of the rounded problem gives the launch's length.
GemmCoord launched_problem(const StageDesc& stage, GemmCoord problem) {
  if (stage.schedule == BlockSchedule::Persistent || stage.cluster_m <= 1 || stage.tile_m <= 0) return problem;
  const int rows = stage.cluster_m * ceil_div(ceil_div(problem.m, stage.tile_m), stage.cluster_m);
  return {rows * stage.tile_m, problem.n, problem.k};
}

}  // namespace

Expected<SweepLaunch> sweep_launch(const StageDesc& stage, GemmCoord problem, const DeviceDesc& device) {
  if (!stage.has_tile()) return Error{std::string("stage ") + stage.id + " has no threadblock tile"};
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || problem.m > kMaxProblemExtent ||
      problem.n > kMaxProblemExtent || problem.k > kMaxProblemExtent)
    return Error{"M, N and K must be 1 .. " + std::to_string(kMaxProblemExtent)};
  // A results file may name any shape; the plan holds a block per tile, so only so many.
  const long long tiles = 1ll * ceil_div(problem.m, stage.tile_m) * ceil_div(problem.n, stage.tile_n);
  if (tiles > kMaxSweepTiles)
    return Error{std::to_string(tiles) + " tiles, more than the " + std::to_string(kMaxSweepTiles) + " a sweep plans"};
  const GemmCoord launched = launched_problem(stage, problem);
  auto spec = stage_launch_spec(stage, launched);
  if (!spec) return Error{spec.error()};
  auto plan = plan_launch(*spec, device);
  if (!plan) return Error{plan.error()};
  SweepLaunch s;
  s.problem = problem;
  s.sms = device.sms;
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
  // A persistent launch's blocks are the SMs its clusters occupy; a grid's, the blocks with work.
  s.blocks = s.persistent ? 1ll * plan->timeline.sms * plan->blocks_per_sm : plan->waves.work_blocks;
  // Busy over every slot of the GPU, not only those the launch occupies: idle SMs are the point.
  // Only the problem's own tiles count as work (the rounded rows' blocks load for their peers).
  const double own_work = plan->timeline.work_time * double(s.tiles_m) / double(ceil_div(launched.m, stage.tile_m));
  const double span = plan->timeline.makespan * s.slots;
  s.busy = span > 0 ? own_work / span : 0;
  return s;
}

}  // namespace gemmlab
