// The results JSON the Kernels view shows: its schema, reader and writer are the bench's
// (kernels/bench/bench_results.h); here a file is read with the app's limits on hostile input
// (its size, its nesting: model/json_text.h) before the bench's reader sees it.
#pragma once
#include <string>

#include "bench/bench_results.h"

namespace gemmlab::app {

using bench::BenchDevice;
using bench::BenchResult;
using bench::BenchResults;
using bench::BenchSkipped;
using bench::bench_results_json;

// The bench's reader, after json_nesting_problem() (a 100,000-deep "[[[..." overflows the stack).
Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source);
// At most 16 MiB (a bench of every stage at every size is under 1 MiB). Parsed once per file
// size and modification time (a few files kept).
Expected<BenchResults> load_bench_results(const std::string& path);

}  // namespace gemmlab::app
