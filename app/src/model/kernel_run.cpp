#include "model/kernel_run.h"

#include <exception>
#include <utility>

namespace gemmlab::app {

KernelRun::KernelRun(std::vector<std::string> stages, bench::GemmSize size, bench::BackendFactory make_backend)
    : stages_(std::move(stages)), size_(size), make_backend_(std::move(make_backend)) {
  state_.total = static_cast<int>(stages_.size());  // until the session counts its reference rows
  state_.results.source = "this run";
  worker_ = std::thread([this] { work(); });
}

KernelRun::~KernelRun() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void KernelRun::cancel() {
  cancel_ = true;
  std::lock_guard<std::mutex> g(lock_);
  state_.cancelling = true;
}

KernelRunSnapshot KernelRun::snapshot() const {
  std::lock_guard<std::mutex> g(lock_);
  return state_;
}

void KernelRun::work() {
  try {
    std::unique_ptr<bench::Backend> backend = make_backend_(bench::TimeSettings{});  // throws: no usable GPU
    const bench::BenchDevice device = backend->device();
    const std::string date = bench::utc_now();
    bench::BenchSession session(*backend, {stages_, {size_}, {}, false});
    session.run(
        [&](const bench::SessionProgress& p) {
          BenchResults r = bench::to_results(session.rows(), device, date, "this run");
          std::lock_guard<std::mutex> g(lock_);
          state_.done = p.done, state_.total = p.total, state_.current = p.current;
          state_.results = std::move(r);
        },
        &cancel_);
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

std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, bench::GemmSize size,
                                            bench::BackendFactory make_backend) {
  return std::make_unique<KernelRun>(std::move(stages), size, std::move(make_backend));
}

std::vector<std::string> built_stage_ids() {
  std::vector<std::string> ids;
  for (const StageDesc& s : stage_table())
    if (!is_conv(s.track)) ids.push_back(s.id);  // convolutions run from `gemmlab bench --conv`
  return ids;
}

}  // namespace gemmlab::app
