// `gemmlab bench`: its options (CLI11, sim/cli/args.h), the stage list, and the session's rows as
// a table and a results JSON. Plain C++: the GPU comes from `make_backend` (kernels/bench_cli.cpp
// passes the CUDA runner; tests pass a fake), so the command runs the same BenchSession as the app.
#pragma once
#include <functional>
#include <memory>

#include "bench/bench_session.h"

namespace gemmlab::bench {

// How each entry is timed (the runner's TimeOptions, kernels/runner.h).
struct TimeSettings {
  int warmup = 3;
  int reps = 0;           // 0: 20, or 10 from 8192^3 up
  double budget_s = 4.0;  // a slow stage gets fewer repetitions (never fewer than 3)
  int per_turn = 2;       // timed runs of a target in a row when targets take turns
};

// Throws what the GPU's set-up throws (no GPU: a std::runtime_error naming the reason).
using BackendFactory = std::function<std::unique_ptr<Backend>(const TimeSettings&)>;

// argv[first..] are bench's own arguments. Returns the exit code: 0 all checks passed, 1 a check
// failed, 2 bad arguments, no usable GPU or a GPU error (a std::runtime_error from the backend:
// its message is printed).
int bench_command(int argc, char** argv, int first, const BackendFactory& make_backend);

}  // namespace gemmlab::bench
