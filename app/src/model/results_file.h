// The results JSON of `gemmlab bench --json` (kernels/bench_cli.cpp writes it):
//   {"device": {"name", "sms", "l2_bytes", "clock_mhz", "driver", "cuda"}, "date": "...",
//    "results": [{"stage", "track", "m", "n", "k", "ms", "tflops", "ratio_to_cublas",
//                 "rel_err", "ok", "reps"}, ...],
//    "skipped": [{"stage", "m", "n", "k", "reason"}, ...]}          ("skipped" optional)
// A file of another shape is refused with a message naming the first wrong field.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::app {

struct BenchDevice {
  std::string name, driver, cuda;
  int sms = 0, clock_mhz = 0;
  long long l2_bytes = 0;
};

struct BenchResult {
  std::string stage, track;
  int m = 0, n = 0, k = 0;
  double ms = 0, tflops = 0, ratio_to_cublas = 0, rel_err = 0;
  // The cuBLAS median the ratio divides: timed in turns with this stage (Runner::time_interleaved);
  // the reference row's own time for a cuBLAS row. Older files lack it: ratio_to_cublas * ms.
  double cublas_ms = 0;
  bool ok = false;
  int reps = 0;
  bool is_cublas() const { return stage.rfind("cublas", 0) == 0; }
};

struct BenchSkipped {
  std::string stage, reason;
  int m = 0, n = 0, k = 0;
};

struct BenchResults {
  std::string source;  // file path, or "this run"
  BenchDevice device;
  std::string date;
  std::vector<BenchResult> results;
  std::vector<BenchSkipped> skipped;
};

Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source);
Expected<BenchResults> load_bench_results(const std::string& path);
std::string bench_results_json(const BenchResults& r);  // the same format, for "Save"

}  // namespace gemmlab::app
