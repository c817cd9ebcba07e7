// The results JSON of `gemmlab bench --json` and of the app's Run: its one schema, writer and
// reader together (the bench session's rows become these; the app loads and saves them).
//   {"device": {"name", "sms", "l2_bytes", "clock_mhz", "driver", "cuda"}, "date": "...",
//    "results": [{"stage", "track", "m", "n", "k", "ms", "tflops",
//                 "reference", "reference_name", "reference_ms", "ratio",
//                 "ratio_to_cublas", "cublas_ms", "rel_err", "ok", "reps"
//                 [, "previous_stage", "previous_ms"]}, ...],
//    "skipped": [{"stage", "m", "n", "k", "reason"}, ...]}          ("skipped" optional)
// "reference" is the id of the registry's reference row the stage was timed in turns with (a
// reference row names itself, ratio 1), "reference_name" its name ("cuBLAS"), "ratio" that
// reference's time over the stage's. Files from before these four fields are read with the ratio
// of the older fields below and an empty reference.
// A convolution row (`gemmlab bench --conv`, tracks conv-fp16 / conv-int8 / conv-int4) has m, n, k
// of its implicit GEMM, "conv": {"n","h","w","c","k","r","s","pad","stride","dilation"}, and
// instead of ratio_to_cublas "ratio_to_im2col", "im2col_ms" and, where cuDNN ran, "ratio_to_cudnn",
// "cudnn_ms" (its first and second reference); a layer of `--conv resnet50` also has "layer" (its
// name in the network: "conv3_x 3x3/2"; optional), since a strided 3x3 and the stage's other 3x3s
// share one implicit GEMM size.
// A file of another shape is refused with a message naming the first wrong field.
#pragma once
#include <string>
#include <vector>

#include "gemmlab/expected.h"

namespace gemmlab::bench {

struct BenchDevice {
  std::string name, driver, cuda;
  int sms = 0, clock_mhz = 0;
  long long l2_bytes = 0;
};

struct BenchResult {
  std::string stage, track;
  int m = 0, n = 0, k = 0;
  double ms = 0, tflops = 0, rel_err = 0;
  // The reference the ratio divides, timed in turns with this stage (Runner::time_stage): the
  // registry's reference row (id, name) and its median; a reference row is its own (ratio 1).
  std::string reference, reference_name;
  double reference_ms = 0, ratio = 0;
  // The same ratio and median under the GEMM rows' older names (the Kernels view reads them).
  double ratio_to_cublas = 0, cublas_ms = 0;
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
  std::string layer;  // the network layer it is ("conv2_x 3x3"), or empty
  double ratio_to_im2col = 0, im2col_ms = 0, ratio_to_cudnn = 0, cudnn_ms = 0;  // 0: not run
  // A reference's own row (cuBLAS, im2col + cuBLAS, cuDNN): one that names itself as its
  // reference, or in older files one whose id is no stage of the registry.
  bool is_reference() const;
  // What the Kernels view groups rows by: "4096 x 4096 x 4096", or "conv 32,56,56,64,64,3,3 pad 1 stride 1".
  std::string size_key() const;
};

struct BenchSkipped {
  std::string stage, reason;
  int m = 0, n = 0, k = 0;
  std::string size_key;  // as BenchResult::size_key
  bool is_conv = false;
  int conv[10] = {};
  std::string layer;
};

struct BenchResults {
  std::string source;  // file path, or "this run"
  BenchDevice device;
  std::string date;
  std::vector<BenchResult> results;
  std::vector<BenchSkipped> skipped;
};

// `text` is the whole file; the caller bounds its size and nesting (app/src/model/results_file.h).
Expected<BenchResults> parse_bench_results(const std::string& text, const std::string& source);
std::string bench_results_json(const BenchResults& r);  // the format above, for --json and "Save"

}  // namespace gemmlab::bench
