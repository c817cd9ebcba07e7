// launch_facts (gemmlab/launch_facts.h): a launch's facts read off its plan, in one line.
#include "gemmlab/launch_facts.h"

#include <algorithm>
#include <iterator>

#include "gemmlab/dispatch.h"  // fill_sentence

namespace gemmlab {

namespace {

// One line per kind of launch; the first argument names the stage ("19c dispatcher -> 19b wgmma
// split-K" for a Dispatch row), then the tile's m and n.
enum class Line { Whole, Clusters, SplitK, StreamK, Persistent, PersistentTail };
constexpr const char* kFormats[] = {
    "%s: tile %s x %s, %s blocks, one per tile",
    "%s: tile %s x %s, %s blocks in clusters of %s, one per tile",
    "%s: tile %s x %s, K split into %s slices: %s blocks",
    "%s: tile %s x %s, stream-k: %s blocks share the tiles' k-iterations",
    "%s: tile %s x %s, %s resident blocks in clusters of %s take the tiles",
    "%s: tile %s x %s, %s resident blocks in clusters of %s take the tiles, the last round's K split into %s "
    "pieces",
};
static_assert(std::size(kFormats) == size_t(Line::PersistentTail) + 1);

Line line_of(const LaunchFacts& f) {
  if (f.schedule == BlockSchedule::Persistent) return f.tail_pieces > 0 ? Line::PersistentTail : Line::Persistent;
  if (f.partition == Partition::StreamK) return Line::StreamK;
  if (f.split_k > 1) return Line::SplitK;
  return f.cluster_m > 1 ? Line::Clusters : Line::Whole;
}

std::vector<std::string> line_args(const LaunchFacts& f, Line l) {
  const auto num = [](long long v) { return std::to_string(v); };
  std::string who = f.stage->name;
  if (f.dispatched()) who += std::string(" -> ") + f.launched->name;
  std::vector<std::string> a = {who, num(f.tile.m), num(f.tile.n)};
  switch (l) {
    case Line::Whole: a.push_back(num(f.blocks)); break;
    case Line::Clusters: a.insert(a.end(), {num(f.blocks), num(f.cluster_m)}); break;
    case Line::SplitK: a.insert(a.end(), {num(f.split_k), num(f.blocks)}); break;
    case Line::StreamK: a.push_back(num(f.blocks)); break;
    case Line::Persistent: a.insert(a.end(), {num(f.blocks), num(f.cluster_m)}); break;
    case Line::PersistentTail: a.insert(a.end(), {num(f.blocks), num(f.cluster_m), num(f.tail_pieces)}); break;
  }
  return a;
}

}  // namespace

LaunchFacts launch_facts(const StageDesc& stage, const LaunchPlan& p) {
  LaunchFacts f;
  f.stage = &stage;
  f.launched = &launched_stage(stage, p.spec.problem, std::max(1, p.device.sms));
  f.tile = p.spec.tile;
  f.resources = p.spec.resources;
  f.cluster_m = f.launched->cluster_m;
  f.schedule = f.launched->schedule;
  // A split-K stage that keeps K whole (one slice) launches as a plain grid (plan_launch).
  f.partition = p.plan.partition;
  f.split_k = p.plan.partition == Partition::SplitKSerial || p.plan.partition == Partition::SplitKParallel
                  ? p.plan.split_k
                  : 1;
  f.tiles_m = ceil_div(p.spec.problem.m, std::max(1, f.tile.m));
  f.tiles_n = ceil_div(p.spec.problem.n, std::max(1, f.tile.n));
  f.tiles = 1ll * f.tiles_m * f.tiles_n;
  f.blocks_per_sm = p.blocks_per_sm;
  f.blocks = f.schedule == BlockSchedule::Persistent ? 1ll * p.timeline.sms * p.blocks_per_sm : p.waves.blocks;
  f.tail_pieces = p.tail_pieces;
  const Line l = line_of(f);
  f.format = kFormats[size_t(l)];
  f.args = line_args(f, l);
  f.line = fill_sentence(f.format, f.args);
  return f;
}

Expected<LaunchFacts> launch_facts(const StageDesc& stage, GemmCoord problem, const DeviceDesc& device) {
  auto spec = stage_launch_spec(stage, problem, device);
  if (!spec) return Error{spec.error()};
  auto plan = plan_launch(*spec, device);
  if (!plan) return Error{plan.error()};
  return launch_facts(stage, *plan);
}

std::vector<const char*> launch_facts_formats() { return {std::begin(kFormats), std::end(kFormats)}; }

std::vector<const StageDesc*> dispatch_choices(const StageDesc& stage) {
  static_assert(int(AutoLaunch::DeepRows) == 5, "a launch the rule picks is missing below");
  std::vector<const StageDesc*> out;
  if (stage.schedule != BlockSchedule::Dispatch) return out;
  for (AutoLaunch l : {AutoLaunch::WarpSpecialized, AutoLaunch::Persistent, AutoLaunch::SplitK,
                       AutoLaunch::SplitK128, AutoLaunch::Deep, AutoLaunch::DeepRows})
    out.push_back(&stage_of_auto_launch(l));
  std::sort(out.begin(), out.end());  // the table's order: pointers into kStageTable
  return out;
}

}  // namespace gemmlab
