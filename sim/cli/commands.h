// One function per `gemmlab sim <what>` command, each in its own cmd_<what>.cpp; sim_cli.cpp
// registers them with their options. A command reads its options from Args (CLI11-parsed), writes one JSON object to `out`, and throws CliError on bad input.
#pragma once
#include <nlohmann/json.hpp>

#include "args.h"
#include "sim_options.h"

namespace gemmlab::cli {

using Json = nlohmann::ordered_json;

struct Command {
  const char* name;
  const char* usage;    // the options' synopsis, shown by `gemmlab sim NAME --help`
  Json (*run)(const Args& args);
  const char* purpose;  // what it computes, one sentence
  const char* example;  // a command line that works as written
  Options options;      // each option: meaning, unit, range, default (--json added by the parser)
};

// The limits run_sim_cli was called with (sim_cli.h).
struct SimCliLimits;
const SimCliLimits& sim_cli_limits();

// The commands, in the order `--help` lists them.
const std::vector<Command>& sim_commands();

// Foundation
Json cmd_threadmap(const Args& args);
Json cmd_layout(const Args& args);
Json cmd_swizzle(const Args& args);
Json cmd_banks(const Args& args);
Json cmd_fragment(const Args& args);
// Scheduling and L2
Json cmd_raster(const Args& args);
Json cmd_schedule(const Args& args);
Json cmd_l2(const Args& args);
Json cmd_pipeline(const Args& args);
Json cmd_roofline(const Args& args);
// Hopper
Json cmd_gmma_layout(const Args& args);
Json cmd_wgmma(const Args& args);
Json cmd_tma(const Args& args);
// Convolution
Json cmd_conv(const Args& args);
// Shapes
Json cmd_dispatch(const Args& args);

}  // namespace gemmlab::cli
