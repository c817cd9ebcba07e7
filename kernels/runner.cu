// The runner (runner.h): buffers, inputs, poison, reference, error, timing.
#include "runner.h"
#include "runner_support.cuh"
#include "stream_hold.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace gemmlab::kernels {

namespace {
// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..." (the
// wording varies between the open and proprietary modules): the first dotted number after "Module".
std::string nvidia_driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  const auto at = line.find("Module");
  if (at == std::string::npos) return "";
  std::istringstream rest(line.substr(at));
  for (std::string word; rest >> word;)
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) &&
        word.find('.') != std::string::npos)
      return word;
  return "";
}

}  // namespace

// ---------------------------------------------------------------- public helpers
std::string Target::id() const {
  if (launch_instead) return name_instead;
  if (stage) return stage->id;
  return gemm_reference(operand_track(track))->id;
}

double tolerance(Track t) { return track_desc(t).tolerance; }

std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA GPU: cudaGetDeviceCount says ") + cudaGetErrorName(e) + " (" +
           cudaGetErrorString(e) + "). `gemmlab bench` needs an NVIDIA GPU and its driver.";
  }
  if (count == 0) return "no CUDA GPU: the driver sees no device.";
  return {};
}

// ---------------------------------------------------------------- Runner

Runner::Runner() : impl_(std::make_unique<Impl>()) {
  if (std::string why = gpu_unavailable_reason(); !why.empty()) throw GpuError(why);
  if (const char* d = std::getenv("GEMMLAB_DEVICE")) impl_->device = std::atoi(d);
  GL_CUDA(cudaSetDevice(impl_->device));
  cudaDeviceProp prop{};
  GL_CUDA(cudaGetDeviceProperties(&prop, impl_->device));
  DeviceInfo& di = impl_->info;
  di.name = prop.name;
  di.sms = prop.multiProcessorCount;
  di.l2_bytes = size_t(prop.l2CacheSize);
  di.cc_major = prop.major;
  di.cc_minor = prop.minor;
  di.global_mem = prop.totalGlobalMem;
  int clock_khz = 0;
  GL_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, impl_->device));
  di.clock_mhz = clock_khz / 1000;
  int drv = 0, rt = 0;
  GL_CUDA(cudaDriverGetVersion(&drv));
  GL_CUDA(cudaRuntimeGetVersion(&rt));
  // The kernel module's version (580.159.04) is what nvidia-smi calls the driver; the CUDA API
  // level (13.0) alone does not identify it. /proc has it on Linux; fall back to the API level.
  di.driver = nvidia_driver_version();
  if (di.driver.empty()) di.driver = "CUDA " + std::to_string(drv / 1000) + "." + std::to_string(drv % 1000 / 10);
  di.cuda = std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10);

  GL_CUDA(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking));
  GL_CUBLAS(cublasCreate(&impl_->cublas));
  // SGEMM in plain fp32: no TF32 tensor cores (the fp32 stages are compared with true fp32).
  GL_CUBLAS(cublasSetMathMode(impl_->cublas, CUBLAS_DEFAULT_MATH));
  impl_->sums = DeviceBuffer(2 * sizeof(double));
  impl_->counts = DeviceBuffer(3 * sizeof(unsigned long long));
  impl_->seed = (uint64_t(std::random_device{}()) << 32) ^ uint64_t(std::random_device{}()) ^
                uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
}

Runner::~Runner() {
  if (impl_->cublaslt) cublasLtDestroy(impl_->cublaslt);
  if (impl_->cublas) cublasDestroy(impl_->cublas);
  if (impl_->stream) cudaStreamDestroy(impl_->stream);
}

const DeviceInfo& Runner::device() const { return impl_->info; }

std::string Runner::validate(const Problem& p, const Target& t) const {
  if (std::string why = impl_->refuse(t, p); !why.empty()) return why;
  const double bytes = double(element_bytes(t.track)) * (1.0 * p.m * p.k + 1.0 * p.k * p.n) +
                       4.0 * (2.0 * p.m * p.n + 2 * kGuardWords) +
                       double(impl_->workspace_bytes(t, p));
  return impl_->memory_refusal(bytes);
}

void Runner::launch(const Target& t, const GemmArgs& args) { impl_->run(t, args); }

// Host reference in double: C = alpha * A * B + beta * C0, with the track's layouts; `terms2`
// gets the norm the error is measured against (alpha_beta_output).
static std::vector<double> host_gemm(Track track, const Problem& p, const std::vector<unsigned char>& a,
                                     const std::vector<unsigned char>& b, const std::vector<float>& c0,
                                     float alpha, float beta, double* terms2) {
  auto elem = [track](const std::vector<unsigned char>& v, size_t i) -> double {
    if (track == Track::fp32) {
      float f;
      std::memcpy(&f, v.data() + 4 * i, 4);
      return f;
    }
    __half h;
    std::memcpy(&h, v.data() + 2 * i, 2);
    return double(__half2float(h));
  };
  std::vector<double> c(size_t(p.m) * p.n);
  *terms2 = 0;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i) {
      double acc = 0;
      for (int k = 0; k < p.k; ++k) {
        // fp32: A(i,k) at i + k*m (column-major); fp16: at i*k_dim + k (row-major).
        const size_t ai = track == Track::fp32 ? size_t(i) + size_t(k) * p.m
                                               : size_t(i) * p.k + k;
        acc += elem(a, ai) * elem(b, size_t(k) + size_t(j) * p.k);
      }
      const size_t ci = size_t(i) + size_t(j) * p.m;
      c[ci] = alpha_beta_output(double(alpha) * acc, beta != 0.f ? double(beta) * c0[ci] : 0.0, terms2);
    }
  return c;
}

CheckResult Runner::Impl::check(Runner& self, const Target& t, const Problem& p, float alpha,
                                float beta, bool host_reference) {
  CheckResult r;
  if (std::string why = self.validate(p, t); !why.empty()) {
    r.rejected = why;
    return r;
  }
  const size_t mk = size_t(p.m) * p.k, kn = size_t(p.k) * p.n, mn = size_t(p.m) * p.n;
  const size_t eb = element_bytes(t.track);
  DeviceBuffer A(mk * eb), B(kn * eb), C((mn + 2 * kGuardWords) * 4), Cref(mn * 4);
  DeviceBuffer ws(workspace_bytes(t, p));
  float* c = C.get<float>() + kGuardWords;

  fill_random(A.get(), mk, t.track);
  fill_random(B.get(), kn, t.track);
  fill(C.get<uint32_t>(), kGuardWords, kGuardWord);
  fill(C.get<uint32_t>() + kGuardWords + mn, kGuardWords, kGuardWord);
  if (beta != 0.f) {
    // C is an input too: the same random C for both.
    fill_random_f32(c, mn);
    GL_CUDA(cudaMemcpyAsync(Cref.get(), c, mn * 4, cudaMemcpyDeviceToDevice, stream));
  } else {
    fill(reinterpret_cast<uint32_t*>(c), mn, kPoisonWord);
    fill(Cref.get<uint32_t>(), mn, kPoisonWord);
  }
  // Poisoned workspace too: a stage must not read partials it did not write.
  if (ws.bytes()) fill(ws.get<uint32_t>(), ws.bytes() / 4, kPoisonWord);

  GemmArgs a;
  a.m = p.m, a.n = p.n, a.k = p.k, a.alpha = alpha, a.beta = beta, a.stream = stream;
  a.A = A.get(), a.B = B.get();

  std::vector<unsigned char> host_a, host_b;
  std::vector<float> host_c0;
  if (host_reference) {
    host_a.resize(A.bytes()), host_b.resize(B.bytes()), host_c0.resize(mn);
    GL_CUDA(cudaMemcpyAsync(host_a.data(), A.get(), A.bytes(), cudaMemcpyDeviceToHost, stream));
    GL_CUDA(cudaMemcpyAsync(host_b.data(), B.get(), B.bytes(), cudaMemcpyDeviceToHost, stream));
    GL_CUDA(cudaMemcpyAsync(host_c0.data(), c, mn * 4, cudaMemcpyDeviceToHost, stream));
  } else {
    a.C = Cref.get<float>();
    run_cublas(t.track, a);
  }
  a.C = c, a.workspace = ws.get(), a.workspace_bytes = ws.bytes();
  run(t, a);

  if (host_reference) {
    std::vector<uint32_t> out(mn + 2 * kGuardWords);
    GL_CUDA(cudaMemcpyAsync(out.data(), C.get(), C.bytes(), cudaMemcpyDeviceToHost, stream));
    GL_CUDA(cudaStreamSynchronize(stream));
    double terms2 = 0;
    const std::vector<double> want = host_gemm(t.track, p, host_a, host_b, host_c0, alpha, beta, &terms2);
    return compare_on_host(out, want, tolerance(t.track), terms2);
  }

  return compare_on_gpu(c, Cref.get<float>(), mn, C.get<uint32_t>(), tolerance(t.track));
}

CheckResult Runner::Impl::compare_on_gpu(const float* c, const float* ref, size_t n, const uint32_t* guarded,
                                         double tol) {
  GL_CUDA(cudaMemsetAsync(sums.get(), 0, sums.bytes(), stream));
  GL_CUDA(cudaMemsetAsync(counts.get(), 0, counts.bytes(), stream));
  compare_kernel<<<fill_blocks(n), kReduceThreads, 0, stream>>>(
      c, ref, n, guarded, guarded + kGuardWords + n, kGuardWords, kGuardWord, sums.get<double>(),
      counts.get<unsigned long long>());
  GL_CUDA(cudaGetLastError());
  double s[2];
  unsigned long long k[3];
  GL_CUDA(cudaMemcpyAsync(s, sums.get(), sizeof s, cudaMemcpyDeviceToHost, stream));
  GL_CUDA(cudaMemcpyAsync(k, counts.get(), sizeof k, cudaMemcpyDeviceToHost, stream));
  GL_CUDA(cudaStreamSynchronize(stream));
  if (k[1] != 0)
    throw GpuError("the reference has " + std::to_string(k[1]) +
                   " non-finite elements: the reference itself failed");
  CheckResult r;
  r.nonfinite = (long long)k[0];
  r.guard_hits = (long long)k[2];
  r.rel_err = s[1] > 0 ? std::sqrt(s[0] / s[1]) : (s[0] > 0 ? INFINITY : 0.0);
  r.ok = r.nonfinite == 0 && r.guard_hits == 0 && r.rel_err < tol;
  return r;
}

CheckResult Runner::check(const Target& t, const Problem& p, float alpha, float beta) {
  return impl_->check(*this, t, p, alpha, beta, /*host_reference=*/false);
}

CheckResult Runner::check_host(const Target& t, const Problem& p, float alpha, float beta) {
  if (double(p.m) * p.n * p.k > double(1 << 30)) {  // about 2 s of double-precision host math
    CheckResult r;
    r.rejected = "the host reference is for M*N*K up to 2^30; use check() for larger problems";
    return r;
  }
  return impl_->check(*this, t, p, alpha, beta, /*host_reference=*/true);
}

TimeResult Runner::time(const Target& t, const Problem& p, const TimeOptions& opt) {
  return time_interleaved({t}, p, opt).front();
}

Runner::StageTurns Runner::time_stage(const Target& t, const Target* previous, const Problem& p,
                                      const TimeOptions& opt) {
  std::vector<Target> targets = {t, Target::cublas(t.track)};
  if (previous) targets.push_back(*previous);
  const std::vector<TimeResult> r = time_interleaved(targets, p, opt);
  StageTurns turns{r[0], r[1], {}};
  if (previous) turns.previous = r[2];
  return turns;
}

// The targets take turns, a few timed runs each per round, on the same rotating input sets: a GPU
// that lowers its clock as it heats (the H100 and H200 at their power limit) slows them alike,
// where timing one after the other favoured whichever ran first by up to 10 %.
std::vector<TimeResult> Runner::time_interleaved(const std::vector<Target>& targets, const Problem& p,
                                                 const TimeOptions& opt) {
  std::vector<TimeResult> results(targets.size());
  for (size_t j = 0; j < targets.size(); ++j) {
    if (std::string why = impl_->refuse(targets[j], p); !why.empty()) {
      for (TimeResult& r : results) r.rejected = why;
      return results;
    }
    if (targets[j].track != targets.front().track) {
      for (TimeResult& r : results) r.rejected = "interleaved targets must read the same operands";
      return results;
    }
  }
  const Track track = targets.front().track;
  Impl& I = *impl_;
  const size_t mk = size_t(p.m) * p.k, kn = size_t(p.k) * p.n, mn = size_t(p.m) * p.n;
  const size_t eb = element_bytes(track);
  const double set_bytes = double((mk + kn) * eb + mn * 4);
  size_t ws_bytes = 0;
  for (const Target& t : targets) ws_bytes = std::max(ws_bytes, I.workspace_bytes(t, p));

  std::string refusal;
  const int sets = I.rotation_sets(set_bytes, double(ws_bytes), refusal);
  if (!refusal.empty()) {
    for (TimeResult& r : results) r.rejected = refusal;
    return results;
  }

  struct Set {
    DeviceBuffer A, B, C;
  };
  std::vector<Set> inputs;
  inputs.reserve(sets);
  for (int s = 0; s < sets; ++s) {
    inputs.push_back({DeviceBuffer(mk * eb), DeviceBuffer(kn * eb), DeviceBuffer(mn * 4)});
    I.fill_random(inputs.back().A.get(), mk, track);
    I.fill_random(inputs.back().B.get(), kn, track);
    I.fill(inputs.back().C.get<uint32_t>(), mn, kPoisonWord);
  }
  DeviceBuffer ws(ws_bytes);
  if (ws.bytes()) I.fill(ws.get<uint32_t>(), ws.bytes() / 4, kPoisonWord);

  auto args_for = [&](int i) {
    const Set& s = inputs[size_t(i) % inputs.size()];
    GemmArgs a;
    a.m = p.m, a.n = p.n, a.k = p.k;
    a.A = s.A.get(), a.B = s.B.get(), a.C = s.C.get<float>();
    a.workspace = ws.get(), a.workspace_bytes = ws.bytes(), a.stream = I.stream;
    return a;
  };
  const double flops = p.flops();
  TimeOptions o = opt;
  if (o.reps <= 0) o.reps = -(flops >= 2.0 * 8192.0 * 8192.0 * 8192.0 ? 10 : 20);
  return I.time_in_turns(targets.size(), [&](size_t j, int i) { I.run(targets[j], args_for(i)); }, o, flops, sets);
}

int Runner::Impl::rotation_sets(double set_bytes, double extra_bytes, std::string& refusal) const {
  // Enough sets that one run's inputs are long gone from the L2 when they come round again.
  int sets = std::clamp(int(std::ceil(3.0 * double(info.l2_bytes) / set_bytes)), 2, 64);
  size_t free_b = 0, total_b = 0;
  GL_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const double usable = kUsableFreeMemory * double(free_b) - extra_bytes;
  if (usable < set_bytes) {
    refusal = "needs " + gib(set_bytes + extra_bytes) + " of GPU memory and " + gib(double(free_b)) +
              " is free: choose smaller sizes";
    return 0;
  }
  return std::max(1, std::min(sets, int(usable / set_bytes)));
}

// reps > 0: exactly that many; reps < 0: up to -reps, fewer when the budget says so (never fewer
// than min_reps).
std::vector<TimeResult> Runner::Impl::time_in_turns(size_t count, const std::function<void(size_t, int)>& launch,
                                                    const TimeOptions& opt, double flops, int sets) {
  std::vector<TimeResult> results(count);
  cudaEvent_t ev[2];
  GL_CUDA(cudaEventCreate(&ev[0]));
  GL_CUDA(cudaEventCreate(&ev[1]));
  struct EventGuard {
    cudaEvent_t* e;
    ~EventGuard() { cudaEventDestroy(e[0]), cudaEventDestroy(e[1]); }
  } guard{ev};
  // The events bracket GPU time only: the run is queued behind a held stream (stream_hold.h),
  // else the host's launch work would be timed too.
  StreamHold hold;
  auto timed_run = [&](size_t j, int i) {
    hold.hold(stream);
    GL_CUDA(cudaEventRecord(ev[0], stream));
    launch(j, i);
    GL_CUDA(cudaEventRecord(ev[1], stream));
    hold.release();
    GL_CUDA(cudaEventSynchronize(ev[1]));
    float ms = 0;
    GL_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    return double(ms);
  };

  // Warm-up (module load, cuBLAS heuristics, clocks), also the estimate for the budget: the
  // slowest target's time sets the number of rounds.
  double estimate = 0;
  int run = 0;
  for (size_t j = 0; j < count; ++j) {
    double best = 1e30;
    for (int w = 0; w < std::max(1, opt.warmup); ++w) {
      best = std::min(best, timed_run(j, run++));
      // (Not on the first run: it may build a plan, cuDNN's fused graph once per form, seconds.)
      if (w > 0 && best * 1e-3 * (w + 1) > opt.budget_s / 4) break;
    }
    estimate += best;
  }
  int reps = std::abs(opt.reps);
  const int affordable = int(opt.budget_s / std::max(1e-9, estimate * 1e-3));
  if (opt.reps < 0) reps = std::max(std::min(reps, affordable), opt.min_reps);

  // Rounds of: per target one untimed run (the switch from the other kernel, e.g. a new shared
  // memory carve-out, is not this kernel's time), then per_turn timed runs; each run on the next
  // input set, so every run starts with its inputs out of the L2.
  const int per_turn = std::max(1, opt.per_turn);
  std::vector<std::vector<double>> ms(count);
  // Every other round runs the targets in reverse, so that no target always follows the same one
  // (a GPU still cooling from cuBLAS, say): the stages a bench compares share every place.
  for (int done = 0, round = 0; done < reps; done += per_turn, ++round)
    for (size_t turn = 0; turn < count; ++turn) {
      const size_t j = round % 2 ? count - 1 - turn : turn;
      if (count > 1) launch(j, run++);
      for (int i = done; i < std::min(reps, done + per_turn); ++i) {
        ms[j].push_back(timed_run(j, run++));
        // Counted for the timed runs only: a warm-up run may wait (cuBLAS allocates its workspace
        // on its first call).
        results[j].unheld += hold.timed_out();
      }
    }
  for (size_t j = 0; j < count; ++j) {
    std::vector<double>& m = ms[j];
    std::sort(m.begin(), m.end());
    TimeResult& r = results[j];
    r.reps = reps;
    r.sets = sets;
    r.min_ms = m.front();
    r.max_ms = m.back();
    r.median_ms = reps % 2 ? m[size_t(reps) / 2] : 0.5 * (m[size_t(reps) / 2 - 1] + m[size_t(reps) / 2]);
    r.tflops = flops / (r.median_ms * 1e-3) / 1e12;
  }
  return results;
}

}  // namespace gemmlab::kernels
