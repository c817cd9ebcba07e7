// The facts of the launch a stage runs at one problem on one device, as the app and the CLI show
// them beside its plan (the Grid view's settings row, the Measured view, `gemmlab sim schedule|l2
// --stage`): tile, threads, registers, shared memory, cluster, schedule, K split, tiles, blocks.
// They are read off plan_launch's plan of that launch, so they are the facts of the launch drawn.
// A Dispatch row (`auto`) has no launch of its own (its registry row holds one of its picks'
// facts): its facts are those of the stage its rule picks at this problem, named as such.
//   auto, 16 x 8192 x 8192, H200: "19c dispatcher -> 19e wgmma deep pipeline: tile 64 x 128, K split
//     into 2 slices: 128 blocks" (64 tiles x 2 slices; 197 KB of shared memory, 1 block per SM)
//   auto, 2048^3: "19c dispatcher -> 17 warp specialization: tile 128 x 256, 128 blocks, one per tile"
//   persistent, 512 x 512 x 16384: "19a persistent blocks: tile 128 x 256, 132 resident blocks in
//     clusters of 2 take the tiles, the last round's K split into 128 pieces"
#pragma once
#include <string>
#include <vector>

#include "gemmlab/launch_plan.h"

namespace gemmlab {

struct LaunchFacts {
  const StageDesc* stage = nullptr;     // the row asked about
  const StageDesc* launched = nullptr;  // the row whose launch runs: `stage`, or a Dispatch row's pick
  GemmCoord tile;                       // as planned
  KernelResources resources;            // threads, registers per thread, shared memory per block
  int cluster_m = 1;                    // blocks per cluster along m (B multicast by the TMA)
  BlockSchedule schedule = BlockSchedule::Grid;  // the launched row's: Grid or Persistent
  Partition partition = Partition::None;  // as planned: None where a split-K stage keeps K whole
  int split_k = 1;                      // K slices (1: K not split)
  int tiles_m = 0, tiles_n = 0;         // C tiles of `tile` (stage 19's narrowed rows not counted)
  long long tiles = 0;
  long long blocks = 0;                 // blocks launched; a persistent launch: its resident blocks
  long long tail_pieces = 0;            // a persistent launch's stream-k tail: pieces of its last tiles' K
  int blocks_per_sm = 0;
  const char* format = "";              // the line's template (a UI catalogue key, one "%s" per argument)
  std::vector<std::string> args;
  std::string line;                     // format filled with args (English)

  bool dispatched() const { return launched != stage; }
};

// `plan` is plan_launch of stage_launch_spec(stage, problem, device) (its order may be another).
LaunchFacts launch_facts(const StageDesc& stage, const LaunchPlan& plan);
// The same, planning the launch; fails where stage_launch_spec or plan_launch does.
Expected<LaunchFacts> launch_facts(const StageDesc& stage, GemmCoord problem, const DeviceDesc& device);
// Every template of LaunchFacts::format (for the UI catalogue's test).
std::vector<const char*> launch_facts_formats();
// The rows a Dispatch row may run, in registry order (17, 19a, 19b, 19d, 19e, 19f for `auto`); empty for
// any other row.
std::vector<const StageDesc*> dispatch_choices(const StageDesc& stage);

}  // namespace gemmlab
