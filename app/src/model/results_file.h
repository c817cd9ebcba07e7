// The results JSON the Kernels view shows: its schema, reader and writer are the bench's
// (kernels/bench/bench_results.h); here the file is read with the app's size limit.
#pragma once
#include <string>

#include "bench/bench_results.h"

namespace gemmlab::app {

using bench::BenchDevice;
using bench::BenchResult;
using bench::BenchResults;
using bench::BenchSkipped;
using bench::bench_results_json;
using bench::parse_bench_results;

// At most 16 MiB (a bench of every stage at every size is under 1 MiB).
Expected<BenchResults> load_bench_results(const std::string& path);

}  // namespace gemmlab::app
