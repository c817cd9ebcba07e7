// `gemmlab sim <what> ... --json`: one JSON object on stdout; errors on stderr with exit 2.
#pragma once
#include <cstdint>

#include "gemmlab/l2_model.h"

namespace gemmlab::cli {

// What a caller may bound beyond the commands' own limits: the fuzz target (sim/fuzz) keeps each
// L2 replay under a second, where the CLI allows the model's ~30 s.
struct SimCliLimits {
  std::uint64_t max_l2_lookups = kMaxL2Lookups;
};

// argv[first] is the command name (e.g. "threadmap").
int run_sim_cli(int argc, char** argv, int first, const SimCliLimits& limits = {});

}  // namespace gemmlab::cli
