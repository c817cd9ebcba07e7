// Every option of `gemmlab sim <what>`, with its meaning, unit, range and default, as the
// commands' --help prints them and CLI11 parses them (args.h). The options shared by raster,
// schedule, l2 and roofline are listed once here.
#pragma once
#include <vector>

#include "args.h"

namespace gemmlab::cli {

using Options = std::vector<OptionSpec>;

// --json, which every command takes (JSON is the only output).
const OptionSpec& json_option();
// --problem, --tile, --order, --split-k, --split-k-mode, --stream-k (sched_options.h).
const Options& plan_options();
// --device and its edits (sched_options.h).
const Options& device_options();
// --iter-cost, --epilogue-cost, --partial-cost.
const Options& cost_options();
// The kernel description (--tile ... --global-load) and the stage that replaces it (launch_options.h).
const Options& kernel_options();

Options join(std::initializer_list<Options> lists);

}  // namespace gemmlab::cli
