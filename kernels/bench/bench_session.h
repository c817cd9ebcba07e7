// One bench session: what `gemmlab bench` prints and what the app's Run button shows are the rows
// of this one object. Per size (a GEMM M x N x K or a convolution): first a row per reference the
// entries need (cuBLAS of the track, im2col + cuBLAS and cuDNN for convolutions), each timed on
// its own; then each entry in order: checked against its reference on fresh inputs, then timed in
// turns with its references and, where this session has that one's good row at this size, the
// stage before it on its ladder (gemmlab::ladder_previous). Plain C++: the GPU is behind Backend
// (kernels/bench/gpu_backend.h runs the CUDA runner; tests run a fake one).
//
//   GpuBackend gpu(time);                          // or any Backend
//   BenchSession s(gpu, {.entries = {"naive", "simt-tile"}, .sizes = {{4096, 4096, 4096}}});
//   s.run([](const SessionProgress& p) { ... }, cancel_flag);
//   s.results();                                   // the rows as the results JSON has them
#pragma once
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/bench_results.h"
#include "gemmlab/conv_problem.h"
#include "gemmlab/stage_desc.h"

namespace gemmlab::bench {

struct GemmSize {
  int m = 0, n = 0, k = 0;
};

// What a fused-epilogue conv stage adds after the convolution (track conv-fused): a per-channel
// bias always, then the residual tensor, then ReLU, as the network runs that layer
// (gemmlab/resnet50_layers.h); a plain --conv shape gets bias + ReLU.
struct ConvEpilogue {
  bool relu = true, residual = false;
};

// A GEMM, or a convolution (then `gemm` is its implicit GEMM), with the network layer it is
// ("conv2_x 3x3", from --conv resnet50; empty for a shape given by hand).
struct Problem {
  GemmSize gemm;
  std::optional<conv::Shape> conv;
  std::string layer;
  ConvEpilogue epilogue;
  static Problem of(GemmSize g) { return {g, std::nullopt, {}, {}}; }
  static Problem of(const conv::Shape& c, std::string layer = {}, ConvEpilogue e = {}) {
    // (a GEMM past 2^31 rows no GPU holds: clamped, refused later)
    auto extent = [](long long v) { return int(v < (1ll << 31) - 1 ? v : (1ll << 31) - 1); };
    return {{extent(c.gemm_m()), extent(c.gemm_n()), extent(c.gemm_k())}, c, std::move(layer), e};
  }
  bool is_conv() const { return conv.has_value(); }
  double flops() const { return 2.0 * gemm.m * gemm.n * gemm.k; }
  std::string text() const;  // "4096x4096x4096", or "32,56,56,64,64,3,3,1,1"
};

// A reference row of the registry: what a track's stages are checked and timed against.
struct Reference {
  std::string id;    // the results JSON's "stage" of its own rows
  std::string name;  // what people call it: "cuBLAS"
  StageTrack track;  // its rows' track (the data it reads: fp16 for the hopper stages)
};

// What runs: a stage of the registry or a reference.
struct Target {
  const StageDesc* stage = nullptr;
  const Reference* reference = nullptr;
  std::string id() const { return stage ? stage->id : reference->id; }
};

struct CheckOutcome {
  std::string rejected;     // non-empty: the stage cannot run this problem (no check)
  double rel_err = 0;       // relative Frobenius error against the reference
  double tolerance = 0;     // what rel_err must stay under
  long long nonfinite = 0;  // NaN/Inf left in the output
  long long guard_hits = 0; // words changed around the output (out-of-bounds writes)
  bool ok = false;
  // FP8 (kernels/fp8_runner.cu): checked per element against the exact product, not by rel_err.
  bool per_element = false;
  long long outside = 0, outside_exact = 0;  // elements outside the tolerance: random, +-1 data
  double worst = 0;                          // random data: the largest error over its tolerance
};

struct Timing {
  std::string rejected;  // non-empty: this target could not be timed (e.g. cuDNN refused the shape)
  double ms = 0, tflops = 0;  // median
  int reps = 0;
  int unheld = 0;  // runs whose launch waited for the GPU: their time has host work in it
};

// The GPU as the session needs it: the runner and the registry's reference rows.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual BenchDevice device() = 0;
  // The references of a track, the first the one the ratio divides ({} when it has none).
  virtual std::vector<const Reference*> references_for(StageTrack track) const = 0;
  // A reference named by its id (an entry may name one), or nullptr.
  virtual const Reference* find_reference(std::string_view id) const = 0;
  // Empty when the target can run this problem here (limits, memory), else why not.
  virtual std::string validate(const Target& t, const Problem& p) = 0;
  // The stage on fresh random inputs against its first reference.
  virtual CheckOutcome check(const StageDesc& s, const Problem& p) = 0;
  // A reference's own check, where it has one (cuBLASLt FP8 against the exact product); nullopt:
  // the reference is what the others are checked against.
  virtual std::optional<CheckOutcome> check_reference(const Reference&, const Problem&) { return std::nullopt; }
  // The targets timed in turns (one alone: by itself); a Timing per target.
  virtual std::vector<Timing> time_in_turns(const std::vector<Target>& targets, const Problem& p) = 0;
};

// One row of the session: a reference timed alone (and checked, where it has a check of its own),
// or an entry (checked, then timed in turns).
struct Row {
  std::string stage;       // id, as the entry named it
  std::string track;       // track_name
  Problem problem;
  bool is_reference = false;
  bool checked = false, timed = false;
  CheckOutcome check;
  Timing time;
  std::string rejected;    // why it was skipped (no check, no time)
  // The references it was timed in turns with (first: the ratio's); a reference row: itself.
  struct Against {
    const Reference* reference;
    double ms;  // 0: not timed
  };
  std::vector<Against> against;
  std::string previous;    // the stage before it on its ladder, timed in the same turns
  double previous_ms = 0;
  double ratio() const;    // the first reference's time over this row's (1 for a reference row)
};

struct SessionRequest {
  std::vector<std::string> entries;  // stage ids (or reference ids), in the order they run
  std::vector<GemmSize> sizes;       // GEMMs; or
  std::vector<conv::Shape> convs;    // convolutions (then sizes is empty)
  bool check_only = false;           // no timing, no reference rows
  // Beside convs, where they are a network's layers: each one's name and epilogue (else none given).
  std::vector<std::string> conv_layers = {};
  std::vector<ConvEpilogue> conv_epilogues = {};
};

struct SessionProgress {
  int done = 0, total = 0;
  std::string current;  // "naive 4096x4096x4096: checking"
};

class BenchSession {
 public:
  BenchSession(Backend& backend, SessionRequest request);

  // Steps of the whole session (reference rows and entries, over all sizes).
  int total_steps() const;
  // Runs every step; `on_progress` before each step and after the last; stops before the next step
  // once `cancel` is true. Throws what the backend throws (a CUDA error ends the session).
  void run(const std::function<void(const SessionProgress&)>& on_progress = {},
           const std::atomic<bool>* cancel = nullptr);
  // The rows so far; a row is added whole (run() on another thread: copy under your own lock
  // from on_progress, which runs on run()'s thread).
  const std::vector<Row>& rows() const { return rows_; }
  bool all_checks_passed() const;

 private:
  void run_problem(const Problem& p, const std::function<void(const SessionProgress&)>& on_progress,
                   const std::atomic<bool>* cancel);
  void reference_row(const Reference& r, const Problem& p);
  void entry_row(const std::string& id, const Problem& p);
  void time_stage(Row& row, const StageDesc& s, const std::vector<const Reference*>& refs, const Problem& p);
  std::vector<const Reference*> references_needed(const Problem& p) const;

  Backend& backend_;
  SessionRequest request_;
  std::vector<Row> rows_;
  int done_ = 0;
};

// The rows as the results JSON has them: the timed rows, the skipped ones with their reason.
BenchResults to_results(const std::vector<Row>& rows, const BenchDevice& device, const std::string& date,
                        const std::string& source);
std::string utc_now();  // "2026-01-31T12:00:00Z"

}  // namespace gemmlab::bench
