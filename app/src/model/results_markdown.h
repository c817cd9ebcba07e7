// assets/results/RESULTS.md, generated from the results JSON beside it (`gemmlab results
// --markdown`): one section per device, a table per GEMM size and one of the convolutions, every
// stage named by its lesson's number. A test keeps the committed file equal to what this makes.
#pragma once
#include <string>
#include <vector>

#include "model/results_file.h"

namespace gemmlab::app {

// The whole document for these sets (in load_results_dir's order: assets/results/*.json).
std::string results_markdown(const std::vector<BenchResults>& sets);

}  // namespace gemmlab::app
