// The runner: owns the GPU buffers, makes fresh random inputs, poisons the output, runs a stage or
// cuBLAS, measures the relative Frobenius error against cuBLAS, and times with CUDA events over
// input sets rotated beyond the L2 cache. Used by `gemmlab bench` and the GPU tests.
//
//   Runner r;                                      // throws GpuError when there is no GPU
//   auto c = r.check(Target::of(*find_stage("simt-tile")), {1000, 1500, 700});
//   auto t = r.time(Target::cublas(Track::fp32), {4096, 4096, 4096}, {});
//
// Layouts (stages.def): fp32 track A m x k and B k x n column-major, reference cublasSgemm(N,N)
// in CUBLAS_DEFAULT_MATH (no TF32); fp16 track A row-major __half (lda = k), B column-major
// __half, reference cublasGemmEx(T,N) with fp32 compute. C is float column-major in both.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "registry.h"

namespace gemmlab::kernels {

// Any CUDA or cuBLAS failure, with the call that failed and the driver's words. After a kernel
// fault the CUDA context is lost: the caller reports and exits.
struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Problem {
  int m = 0, n = 0, k = 0;
  double flops() const { return 2.0 * m * n * k; }
};

// What runs: one registered stage, or the cuBLAS reference of a track.
struct Target {
  const StageInfo* stage = nullptr;  // nullptr: cuBLAS
  Track track = Track::fp32;
  // Set: this launches instead of the stage's own kernel, under the stage's checks and data (an
  // exercise's GPU grade: the stage's kernel built with the learner's function, kernels/exercise/).
  std::function<cudaError_t(const GemmArgs&)> launch_instead;
  std::string name_instead;  // what id() says for it, e.g. "smem-swizzle (yours)"
  // The data a stage reads is its operand track's (a hopper stage reads the fp16 problem).
  static Target of(const StageInfo& s) {
    Target t;
    t.stage = &s;
    t.track = operand_track(s.track);
    return t;
  }
  static Target cublas(Track track) {
    Target t;
    t.track = track;
    return t;
  }
  // The stage before `s` on its ladder (gemmlab::ladder_previous), which the bench times in turns
  // with it; none for a ladder's first stage and the convolutions.
  static std::optional<Target> previous_of(const StageInfo& s) {
    const StageDesc* b = ladder_previous(s);
    return b ? std::optional<Target>(of(*find_stage(b->id))) : std::nullopt;
  }
  std::string id() const;  // stage id, or the id of the track's GEMM reference row (gemm_reference)
};

struct DeviceInfo {
  std::string name;
  int sms = 0;
  size_t l2_bytes = 0;
  int clock_mhz = 0;
  std::string driver;  // "13.0"
  std::string cuda;    // runtime version, "13.0"
  int cc_major = 0, cc_minor = 0;
  size_t global_mem = 0;
};

// Relative Frobenius error ||C - C_cublas|| / ||C_cublas|| must stay under this.
double tolerance(Track t);  // fp32 1e-5, fp16-in/fp32-acc 2e-3, int8/int4 convolutions 1e-5

struct CheckResult {
  std::string rejected;   // non-empty: the stage cannot run this problem (its own words); no check
  double rel_err = 0;     // relative Frobenius error against cuBLAS, in double
  long long nonfinite = 0;  // NaN/Inf elements left in C (poison not overwritten, or a real NaN)
  long long guard_hits = 0; // words changed in the guard zones around C (out-of-bounds writes)
  bool ok = false;
  // FP8 checks (check_fp8): per element against the exact product of the dequantized operands
  // (fp8_runner.cu); rel_err is then the relative Frobenius error on the random data, for show.
  bool per_element = false;
  long long outside = 0;        // random data: elements with |d - r| > 2^-7 |r| + ceil(K/32) 2^-13 S
  long long outside_exact = 0;  // +-1 data (every sum exact): elements with |d - r| > 2^-8 |r|
  double worst = 0;             // random data: the largest |d - r| / tolerance (<= 1 passes)
};

struct TimeOptions {
  int warmup = 3;
  int reps = 0;             // 0: 20, or 10 from 8192^3 up
  double budget_s = 4.0;    // a slow stage gets fewer repetitions (never fewer than min_reps)
  int min_reps = 3;
  int per_turn = 2;  // timed runs of a target in a row when targets take turns (after one untimed)
};

struct TimeResult {
  std::string rejected;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
  int sets = 0;  // input sets rotated through (their total size is >= 3x the L2)
  int unheld = 0;  // runs whose launch waited for the GPU (stream_hold.h): their time has host work in it
  double tflops = 0;
};

// What runs a convolution (NHWC activations, KRSC filters, NPQK fp32 output): a conv stage, the
// explicit im2col kernel + cublasGemmEx (fp16 columns and filters, fp32 accumulate; int8 and int4
// tensors widened to fp16 on the way, exactly), or cuDNN when the build found it.
//
// Track conv-fused (stage 14e) and cuDNN's fused graph (CudnnFused) write fp16 NPQK with the
// epilogue of ConvEpilogue: + bias[k] (fp32, random), + residual (fp16 NPQK, random) where asked,
// then ReLU where asked; they are checked against the fp32 reference with that epilogue applied in
// fp32 (or double on the host), within the conv-fused track's tolerance (fp16's rounding added).
struct ConvEpilogue {
  bool relu = true, residual = false;
};
struct ConvTarget {
  enum class Kind { Stage, Im2colCublas, Cudnn, CudnnFused };
  Kind kind = Kind::Stage;
  const StageInfo* stage = nullptr;
  conv::Element element = conv::Element::F16;  // the tensors it reads
  // Target::launch_instead's twin: a conv stage's kernel built with the learner's function runs
  // under that stage's checks and data (kernels/exercise/).
  std::function<cudaError_t(const ConvArgs&)> launch_instead = nullptr;
  std::string name_instead = {};  // what id() says for it, e.g. "conv-fp16 (yours)"
  ConvEpilogue epilogue = {};  // what a fused target adds (ignored by the others)
  static ConvTarget of(const StageInfo& s) { return {Kind::Stage, &s, conv_element(s.track)}; }
  static ConvTarget im2col_cublas(conv::Element e) { return {Kind::Im2colCublas, nullptr, e}; }
  static ConvTarget cudnn(conv::Element e) { return {Kind::Cudnn, nullptr, e}; }
  static ConvTarget cudnn_fused(ConvEpilogue ep = {}) {
    ConvTarget t{Kind::CudnnFused, nullptr, conv::Element::F16};
    t.epilogue = ep;
    return t;
  }
  // fp16 output with the epilogue (a conv-fused stage or cuDNN's fused graph).
  bool fused() const { return kind == Kind::CudnnFused || (kind == Kind::Stage && stage->track == Track::conv_fused); }
  std::string id() const;  // the stage id, or the reference row's of its kind
};

// What runs an FP8 GEMM (the fp8 and fp8-block tracks; Fp8GemmArgs in stage_api.h): an FP8 stage,
// or cuBLASLt with the track's scaling (per-tensor, or VEC128 / BLK128x128 block scales).
struct Fp8Target {
  enum class Kind { Stage, CublasLt };
  Kind kind = Kind::Stage;
  const StageInfo* stage = nullptr;
  Track track = Track::fp8;  // its scales: fp8 per tensor, fp8_block per block
  static Fp8Target of(const StageInfo& s) { return {Kind::Stage, &s, s.track}; }
  static Fp8Target cublaslt(Track t) { return {Kind::CublasLt, nullptr, t}; }
  std::string id() const;  // the stage id, or the track's reference row's
};

// Whether this build has cuDNN (found at configure time: GEMMLAB_CUDNN_ROOT), and its version.
bool cudnn_built();
std::string cudnn_version();

class Runner {
 public:
  // Opens the device (0 unless GEMMLAB_DEVICE is set). Throws GpuError naming the reason when
  // there is no usable GPU (no driver, no device, too old a driver).
  Runner();
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const DeviceInfo& device() const;

  // Empty when the problem fits the kernels' limits and the GPU's free memory; else why not.
  std::string validate(const Problem& p, const Target& t) const;

  // Fresh random inputs (never zeros), C poisoned with NaN (or random C when beta != 0), one run
  // of the target and one of cuBLAS, error in double on the GPU. Throws GpuError on CUDA errors;
  // returns rejected (no throw) for problems the stage or the limits refuse.
  CheckResult check(const Target& t, const Problem& p, float alpha = 1.f, float beta = 0.f);

  // The same check against a reference computed on the host in double precision instead of
  // cuBLAS: for small problems (M*N*K <= 2^30), for the sanitizer runs (no cuBLAS kernels in the
  // trace) and to check the cuBLAS reference itself (Target::cublas works here too).
  CheckResult check_host(const Target& t, const Problem& p, float alpha = 1.f, float beta = 0.f);

  // Median of CUDA-event timings over rotated input sets (alpha 1, beta 0).
  TimeResult time(const Target& t, const Problem& p, const TimeOptions& opt);
  // The targets timed in turns (per round and target: one untimed run after the switch, then
  // opt.per_turn timed ones; every other round in reverse order; the same rotating inputs), so that clock
  // changes under load, and the place in a round, affect them alike: a
  // stage and its cuBLAS reference for a fair ratio.
  std::vector<TimeResult> time_interleaved(const std::vector<Target>& targets, const Problem& p,
                                           const TimeOptions& opt);
  // A stage as `gemmlab bench` and the Kernels view time it: in turns with cuBLAS (its ratio) and,
  // where `previous` is given (the stage before it on its ladder, gemmlab::ladder_previous), with
  // that stage too, so that "faster than the stage before" compares runs under the same clock.
  struct StageTurns {
    TimeResult stage, cublas;
    TimeResult previous;  // reps == 0 when no previous stage was timed
  };
  StageTurns time_stage(const Target& t, const Target* previous, const Problem& p, const TimeOptions& opt);

  // Convolutions: the same checks and timing with conv targets (all interleaved targets must read
  // the same element type). check_conv compares with im2col + cuBLAS, check_conv_host with a
  // direct convolution in double on the host (up to 2^31 multiply-adds).
  std::string validate_conv(const conv::Shape& s, const ConvTarget& t) const;
  CheckResult check_conv(const ConvTarget& t, const conv::Shape& s, float alpha = 1.f, float beta = 0.f);
  CheckResult check_conv_host(const ConvTarget& t, const conv::Shape& s, float alpha = 1.f, float beta = 0.f);
  std::vector<TimeResult> time_conv(const std::vector<ConvTarget>& targets, const conv::Shape& s,
                                    const TimeOptions& opt);

  // FP8 GEMMs (fp8_runner.cu): random non-zero e4m3 operands, per-tensor scales 0.75 / 1.25 or
  // random block scales, D poisoned with NaN and fenced by guard words; checked per element
  // against the exact product of the dequantized operands in double (check_fp8: computed on the
  // GPU; check_fp8_host: on the host, up to M*N*K = 2^30), on random data and on +-1 data whose
  // sums are exact. cuBLASLt's refusal of a problem comes back as `rejected` with its status.
  std::string validate_fp8(const Problem& p, const Fp8Target& t) const;
  CheckResult check_fp8(const Fp8Target& t, const Problem& p);
  CheckResult check_fp8_host(const Fp8Target& t, const Problem& p);
  // In turns on rotated inputs (all targets of one track); a target cuBLASLt refuses is rejected
  // alone, the others timed without it.
  std::vector<TimeResult> time_fp8(const std::vector<Fp8Target>& targets, const Problem& p, const TimeOptions& opt);

  // Runs the target once on given device buffers (for tools and tests that bring their own data).
  void launch(const Target& t, const GemmArgs& args);

  struct Impl;  // runner_support.cuh: the runner's internals, shared by runner.cu, conv_runner.cu and fp8_runner.cu

 private:
  std::unique_ptr<Impl> impl_;
};

// "no CUDA GPU: ..." when Runner() would throw, else empty. Costs a driver call, no context.
std::string gpu_unavailable_reason();

}  // namespace gemmlab::kernels
