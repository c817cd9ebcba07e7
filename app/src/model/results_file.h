// The results JSON of `gemmlab bench --json` (kernels/bench_cli.cpp writes it):
//   {"device": {"name", "sms", "l2_bytes", "clock_mhz", "driver", "cuda"}, "date": "...",
//    "results": [{"stage", "track", "m", "n", "k", "ms", "tflops", "ratio_to_cublas",
//                 "rel_err", "ok", "reps"[, "previous_stage", "previous_ms"]}, ...],
//    "skipped": [{"stage", "m", "n", "k", "reason"}, ...]}          ("skipped" optional)
// A convolution row (`gemmlab bench --conv`, tracks conv-fp16 / conv-int8 / conv-int4) has m, n, k
// of its implicit GEMM, "conv": {"n","h","w","c","k","r","s","pad","stride","dilation"}, and
// instead of ratio_to_cublas "ratio_to_im2col", "im2col_ms" and, where cuDNN ran, "ratio_to_cudnn",
// "cudnn_ms"; its references are the rows of the conv tracks' references (kTrackTable).
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
  // The stage before this one on its ladder (gemmlab::ladder_previous) and its median, timed in
  // the same turns (Runner::time_stage); empty / 0 where it was not (not selected, older files).
  std::string previous_stage;
  double previous_ms = 0;
  // How much faster than the stage before, in the same turns: its time over this one's; 0 if untimed.
  double speedup_over_previous() const { return previous_ms > 0 && ms > 0 ? previous_ms / ms : 0; }
  bool ok = false;
  int reps = 0;
  // Convolutions only (is_conv): the shape, the TFLOP/s ratios to the references timed in turns.
  bool is_conv = false;
  int conv[10] = {};  // N, H, W, C, K, R, S, pad, stride, dilation
  double ratio_to_im2col = 0, im2col_ms = 0, ratio_to_cudnn = 0, cudnn_ms = 0;  // 0: not run
  bool is_cublas() const;     // a GEMM reference row (cuBLAS of a track)
  bool is_reference() const;  // any reference row (gemmlab/stage_desc.h: kReferenceTable)
  // What the Kernels view groups rows by: "4096 x 4096 x 4096", or "conv 32,56,56,64,64,3,3 pad 1 stride 1".
  std::string size_key() const;
};

struct BenchSkipped {
  std::string stage, reason;
  int m = 0, n = 0, k = 0;
  std::string size_key;  // as BenchResult::size_key
  bool is_conv = false;
  int conv[10] = {};
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
