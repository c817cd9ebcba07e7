#include "model/kernel_run.h"

#include <algorithm>
#include <ctime>
#include <exception>
#include <optional>
#include <utility>

#include "gemmlab/expected.h"

namespace gemmlab::app {
namespace {

// What an entry id runs: a registered stage or cuBLAS of a track. The registry (gemmlab/stages.def) is
// the only list of ids; anything else is refused here, before the runner sees it.
Expected<kernels::Target> target_of(const std::string& id) {
  if (const ReferenceDesc* r = find_reference(id)) {
    if (is_conv(r->track)) return Error{id + " is a convolution reference: time convolutions with gemmlab bench --conv"};
    return kernels::Target::cublas(r->track);
  }
  if (const kernels::StageInfo* s = kernels::find_stage(id)) {
    // Run times GEMM sizes; the conv stages' problem is a convolution (the bench's --conv).
    if (is_conv(s->track))
      return Error{id + " is a convolution stage: Run times GEMM sizes; time it with gemmlab bench --conv "
                        "N,H,W,C,K,R,S[,pad,stride] (or --conv resnet50)"};
    return kernels::Target::of(*s);
  }
  return Error{"unknown stage id '" + id +
               "': not in sim/include/gemmlab/stages.def (nor a reference of gemmlab/stage_desc.h); "
               "use an id from the stage registry"};
}

std::string utc_now() {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return date;
}

}  // namespace

KernelRun::KernelRun(std::vector<std::string> stages, kernels::Problem problem)
    : stages_(std::move(stages)), problem_(problem) {
  state_.total = static_cast<int>(stages_.size());
  state_.results.source = "this run";
  worker_ = std::thread([this] { work(); });
}

KernelRun::~KernelRun() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void KernelRun::cancel() {
  std::lock_guard<std::mutex> g(lock_);
  state_.cancelling = true;
}

KernelRunSnapshot KernelRun::snapshot() const {
  std::lock_guard<std::mutex> g(lock_);
  return state_;
}

void KernelRun::set_current(const std::string& what) {
  std::lock_guard<std::mutex> g(lock_);
  state_.current = what;
}

void KernelRun::add_skipped(const std::string& id, const std::string& why) {
  std::lock_guard<std::mutex> g(lock_);
  BenchSkipped s;
  s.stage = id, s.reason = why, s.m = problem_.m, s.n = problem_.n, s.k = problem_.k;
  BenchResult key;
  key.m = s.m, key.n = s.n, key.k = s.k;
  s.size_key = key.size_key();
  state_.results.skipped.push_back(s);
  ++state_.done;
}

void KernelRun::add_result(const BenchResult& r) {
  std::lock_guard<std::mutex> g(lock_);
  state_.results.results.push_back(r);
  ++state_.done;
}

void KernelRun::work() {
  const kernels::Problem& p = problem_;
  try {
    kernels::Runner runner;  // throws GpuError naming the reason when there is no usable GPU
    {
      const auto& d = runner.device();
      std::lock_guard<std::mutex> g(lock_);
      state_.results.device = {d.name, d.driver, d.cuda, d.sms, d.clock_mhz,
                               static_cast<long long>(d.l2_bytes)};
      state_.results.date = utc_now();
    }
    // The cuBLAS reference of each track, timed once, before the first entry of that track.
    // A cuBLAS entry reports this same timing, so its ratio is exactly 1 (as in `gemmlab bench`).
    kernels::TimeResult reference[2];
    bool have_reference[2] = {false, false};
    for (const std::string& id : stages_) {
      {
        std::lock_guard<std::mutex> g(lock_);
        if (state_.cancelling) break;
        state_.current = id + ": checking and timing";
      }
      const Expected<kernels::Target> target = target_of(id);
      if (!target) {
        add_skipped(id, target.error());
        continue;
      }
      const kernels::Target t = *target;
      const int tr = static_cast<int>(t.track);
      if (std::string why = runner.validate(p, t); !why.empty()) {
        add_skipped(id, why);
        continue;
      }
      if (!have_reference[tr]) {
        set_current(id + ": timing the cuBLAS reference (" + kernels::track_name(t.track) + ")");
        reference[tr] = runner.time(kernels::Target::cublas(t.track), p, {});
        have_reference[tr] = true;
        set_current(id + ": checking and timing");
      }
      if (!reference[tr].rejected.empty()) {
        add_skipped(id, "the cuBLAS reference cannot run this size: " + reference[tr].rejected);
        continue;
      }
      const kernels::CheckResult c = runner.check(t, p);
      if (!c.rejected.empty()) {
        add_skipped(id, c.rejected);
        continue;
      }
      const bool is_reference = t.stage == nullptr;
      // A stage is timed in turns with cuBLAS and the stage before it on its ladder, where this run
      // has that one's result (Runner::time_stage, as `gemmlab bench`): its ratios compare runs at
      // the same clock. The reference row keeps its own earlier timing.
      std::optional<kernels::Target> before = is_reference ? std::nullopt : kernels::Target::previous_of(*t.stage);
      if (before) {
        std::lock_guard<std::mutex> g(lock_);
        const auto& done = state_.results.results;
        if (std::none_of(done.begin(), done.end(), [&](const BenchResult& r) { return r.stage == before->id() && r.ok; }))
          before.reset();
      }
      const kernels::Target* previous = before ? &*before : nullptr;
      const kernels::Runner::StageTurns turns =
          is_reference ? kernels::Runner::StageTurns{reference[tr], reference[tr], {}}
                       : runner.time_stage(t, previous, p, {});
      const kernels::TimeResult& tm = turns.stage;
      if (!tm.rejected.empty()) {
        add_skipped(id, tm.rejected);
        continue;
      }
      BenchResult b;
      b.stage = id;
      b.track = kernels::track_name(t.stage ? t.stage->track : t.track);
      b.m = p.m, b.n = p.n, b.k = p.k;
      b.ok = c.ok;
      b.rel_err = c.rel_err;
      b.ms = tm.median_ms;
      b.tflops = tm.tflops;
      b.reps = tm.reps;
      b.cublas_ms = turns.cublas.median_ms;
      b.ratio_to_cublas = is_reference         ? 1.0
                          : tm.median_ms > 0   ? turns.cublas.median_ms / tm.median_ms
                                               : 0;
      if (previous) b.previous_stage = previous->id(), b.previous_ms = turns.previous.median_ms;
      add_result(b);
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> g(lock_);
    state_.error = e.what();
  } catch (...) {
    std::lock_guard<std::mutex> g(lock_);
    state_.error = "the run stopped on an unknown error";
  }
  std::lock_guard<std::mutex> g(lock_);
  state_.current.clear();
  state_.finished = true;
}

std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, kernels::Problem p) {
  return std::make_unique<KernelRun>(std::move(stages), p);
}

std::vector<std::string> built_stage_ids() {
  std::vector<std::string> ids;
  for (const auto& s : kernels::stage_registry())
    if (!is_conv(s.track)) ids.push_back(s.id);  // convolutions run from `gemmlab bench --conv`
  return ids;
}

}  // namespace gemmlab::app
