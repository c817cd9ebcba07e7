// `gemmlab sim schedule|l2`: the launch to simulate, either a stage of the ladder (--stage ID:
// tile, resources, raster, partition, layouts, loads and co-residency from stages.def, through
// stage_launch_spec) or one described flag by flag. Both end in gemmlab::plan_launch.
#pragma once
#include <set>
#include <string>

#include "gemmlab/launch_facts.h"
#include "gemmlab/launch_plan.h"
#include "sched_options.h"

namespace gemmlab::cli {

// Flags that describe the kernel itself: taken from the stage with --stage, so refused beside it.
inline const std::set<std::string> kKernelOptions = {"--tile",  "--threads",  "--regs",     "--smem",
                                                     "--dtype", "--layout",   "--c-dtype",  "--c-layout",
                                                     "--global-load"};
// Flags that change how it is launched or modelled: allowed with or without --stage.
inline const std::set<std::string> kLaunchOptions = {"--stage", "--blocks-per-sm", "--coresident"};

// need_resources: schedule needs the occupancy (--threads/--regs/--smem); l2 may give
// --blocks-per-sm instead. The stage (or nullptr) comes back in *stage.
LaunchSpec read_launch_spec(const Args& a, bool need_resources, const StageDesc** stage);

// The stage's launch facts as planned (gemmlab/launch_facts.h): a Dispatch row's, those of the
// stage it picks at the plan's problem ("launched").
Json stage_json(const StageDesc& stage, const LaunchPlan& plan);

}  // namespace gemmlab::cli
