#include "bench/gpu_backend.h"

#include <cstdio>
#include <deque>

#include "runner.h"

namespace gemmlab::bench {
namespace {

using kernels::ConvTarget;
using kernels::Fp8Target;
using kernels::GpuError;

// A reference row and what the runner runs for it.
struct GpuReference {
  Reference row;
  bool conv = false, fp8 = false;
  kernels::Target gemm;  // neither
  ConvTarget convolution;  // conv
  Fp8Target fp8_target = {};  // fp8
};

class GpuBackend final : public Backend {
 public:
  explicit GpuBackend(const TimeSettings& t) {
    time_.warmup = t.warmup, time_.reps = t.reps, time_.budget_s = t.budget_s, time_.per_turn = t.per_turn;
    for (kernels::Track track : {kernels::Track::fp32, kernels::Track::fp16}) {
      const kernels::Target target = kernels::Target::cublas(track);
      refs_.push_back({{target.id(), "cuBLAS", track}, false, false, target, {}});
    }
    for (kernels::Track track : {kernels::Track::fp8, kernels::Track::fp8_block}) {
      const Fp8Target target = Fp8Target::cublaslt(track);
      refs_.push_back({{target.id(), gemm_reference(track)->name, track}, false, true, {}, {}, target});
    }
    for (conv::Element e : {conv::Element::F16, conv::Element::S8, conv::Element::S4}) {
      const ConvTarget target = ConvTarget::im2col_cublas(e);
      refs_.push_back({{target.id(), "im2col + cuBLAS", conv_track(e)}, true, false, {}, target});
    }
    if (kernels::cudnn_built()) {
      const ConvTarget target = ConvTarget::cudnn(conv::Element::F16);
      refs_.push_back({{target.id(), "cuDNN", conv_track(conv::Element::F16)}, true, false, {}, target});
      // cuDNN's fused graph: the peer of the conv-fused track, its rows on that track.
      const ConvTarget fused = ConvTarget::cudnn_fused();
      refs_.push_back({{fused.id(), "cuDNN fused", StageTrack::conv_fused}, true, false, {}, fused});
    }
  }

  BenchDevice device() override {
    const kernels::DeviceInfo& d = runner_.device();
    return {d.name, d.driver, d.cuda, d.sms, d.clock_mhz, static_cast<long long>(d.l2_bytes)};
  }

  // GEMM: cuBLAS of the stage's operands; FP8: cuBLASLt with the track's scales. Convolution:
  // im2col + cuBLAS of its element type, and the track's peer (cuDNN, or cuDNN's fused graph for
  // conv-fused) where the build has cuDNN.
  std::vector<const Reference*> references_for(StageTrack track) const override {
    std::vector<const Reference*> out;
    const char* peer = track_desc(track).peer;
    for (const GpuReference& r : refs_) {
      const bool serves = is_fp8(track)    ? r.fp8 && r.fp8_target.track == track
                          : !is_conv(track) ? !r.conv && !r.fp8 && r.gemm.track == operand_track(track)
                                            : r.conv && r.convolution.element == conv_element(track) &&
                                                  (r.convolution.kind == ConvTarget::Kind::Im2colCublas ||
                                                   (out.size() == 1 && peer && r.row.id == peer));
      if (serves) out.push_back(&r.row);
    }
    if (is_conv(track) && !kernels::cudnn_built() && !said_no_cudnn_) {
      std::fprintf(stderr, "gemmlab: no cuDNN in this build (configure with -DGEMMLAB_CUDNN_ROOT=...): "
                           "im2col + cuBLAS is the only convolution reference\n");
      said_no_cudnn_ = true;
    }
    return out;
  }

  const Reference* find_reference(std::string_view id) const override {
    for (const GpuReference& r : refs_)
      if (r.row.id == id) return &r.row;
    return nullptr;
  }

  std::string validate(const Target& t, const Problem& p) override {
    if (is_fp8_target(t)) return runner_.validate_fp8(gemm(p), fp8_target(t));
    if (!p.is_conv()) return runner_.validate(gemm(p), gemm_target(t));
    try {
      return runner_.validate_conv(*p.conv, conv_target(t));
    } catch (const GpuError& e) {
      if (!is_cudnn(t)) throw;
      return e.what();  // cuDNN refused this shape: say so, go on
    }
  }

  CheckOutcome check(const StageDesc& s, const Problem& p) override {
    const kernels::StageInfo& info = *kernels::find_stage(s.id);
    const kernels::CheckResult c = is_fp8(s.track) ? runner_.check_fp8(Fp8Target::of(info), gemm(p))
                                   : p.is_conv()   ? runner_.check_conv(with_epilogue(ConvTarget::of(info), p), *p.conv)
                                                   : runner_.check(kernels::Target::of(info), gemm(p));
    return outcome(c, s.track);
  }

  // cuBLASLt's FP8 output is checked like a stage's (per element, against the exact product): a
  // scale layout it reads otherwise than this code writes fails here. cuBLAS and cuDNN are the
  // references other checks compare with.
  std::optional<CheckOutcome> check_reference(const Reference& r, const Problem& p) override {
    const GpuReference& g = of(&r);
    if (!g.fp8) return std::nullopt;
    return outcome(runner_.check_fp8(g.fp8_target, gemm(p)), r.track);
  }

  std::vector<Timing> time_in_turns(const std::vector<Target>& targets, const Problem& p) override {
    if (!targets.empty() && is_fp8_target(targets.front())) {
      std::vector<Fp8Target> turns;
      for (const Target& t : targets) turns.push_back(fp8_target(t));
      return timings(runner_.time_fp8(turns, gemm(p), time_));
    }
    if (!p.is_conv()) {
      std::vector<kernels::Target> turns;
      for (const Target& t : targets) turns.push_back(gemm_target(t));
      const kernels::Problem g = gemm(p);
      // A reference alone is timed by itself (Runner::time), a stage in turns (Runner::time_interleaved).
      if (turns.size() == 1) return {timing(runner_.time(turns[0], g, time_))};
      return timings(runner_.time_interleaved(turns, g, time_));
    }
    std::vector<ConvTarget> turns;
    for (const Target& t : targets) turns.push_back(with_epilogue(conv_target(t), p));
    try {
      return timings(runner_.time_conv(turns, *p.conv, time_));
    } catch (const GpuError& e) {
      // cuDNN refused the shape: time the others alone, and say why cuDNN has no time.
      std::vector<ConvTarget> without;
      for (const ConvTarget& t : turns)
        if (!is_cudnn_kind(t)) without.push_back(t);
      if (without.size() == turns.size()) throw;
      std::vector<Timing> rest = without.empty() ? std::vector<Timing>{} : timings(runner_.time_conv(without, *p.conv, time_));
      std::vector<Timing> out;
      size_t next = 0;
      for (const ConvTarget& t : turns) {
        if (is_cudnn_kind(t)) out.push_back({e.what()});
        else out.push_back(rest[next++]);
      }
      return out;
    }
  }

 private:
  static kernels::Problem gemm(const Problem& p) { return {p.gemm.m, p.gemm.n, p.gemm.k}; }
  const GpuReference& of(const Reference* r) const {
    for (const GpuReference& x : refs_)
      if (&x.row == r) return x;
    throw std::logic_error("a reference of another backend");
  }
  kernels::Target gemm_target(const Target& t) const {
    return t.stage ? kernels::Target::of(*kernels::find_stage(t.stage->id)) : of(t.reference).gemm;
  }
  ConvTarget conv_target(const Target& t) const {
    return t.stage ? ConvTarget::of(*kernels::find_stage(t.stage->id)) : of(t.reference).convolution;
  }
  bool is_fp8_target(const Target& t) const { return t.stage ? is_fp8(t.stage->track) : of(t.reference).fp8; }
  Fp8Target fp8_target(const Target& t) const {
    return t.stage ? Fp8Target::of(*kernels::find_stage(t.stage->id)) : of(t.reference).fp8_target;
  }
  static CheckOutcome outcome(const kernels::CheckResult& c, StageTrack track) {
    CheckOutcome o{c.rejected, c.rel_err, kernels::tolerance(track), c.nonfinite, c.guard_hits, c.ok};
    o.per_element = c.per_element, o.outside = c.outside, o.outside_exact = c.outside_exact, o.worst = c.worst;
    return o;
  }
  static bool is_cudnn_kind(const ConvTarget& t) {
    return t.kind == ConvTarget::Kind::Cudnn || t.kind == ConvTarget::Kind::CudnnFused;
  }
  bool is_cudnn(const Target& t) const { return !t.stage && of(t.reference).conv && is_cudnn_kind(of(t.reference).convolution); }
  // The layer's epilogue (bias always; residual and ReLU as the network runs it) for fused targets.
  static ConvTarget with_epilogue(ConvTarget t, const Problem& p) {
    t.epilogue = {p.epilogue.relu, p.epilogue.residual};
    return t;
  }
  static Timing timing(const kernels::TimeResult& r) { return {r.rejected, r.median_ms, r.tflops, r.reps, r.unheld}; }
  static std::vector<Timing> timings(const std::vector<kernels::TimeResult>& r) {
    std::vector<Timing> out;
    for (const kernels::TimeResult& x : r) out.push_back(timing(x));
    return out;
  }

  kernels::Runner runner_;  // first: throws GpuError when there is no usable GPU
  kernels::TimeOptions time_;
  std::deque<GpuReference> refs_;  // never grows after the constructor: the rows' pointers stay
  mutable bool said_no_cudnn_ = false;
};

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(const TimeSettings& time) { return std::make_unique<GpuBackend>(time); }

}  // namespace gemmlab::bench
