// The kernels view's "Run": the bench session (kernels/bench/bench_session.h, the same object as
// `gemmlab bench`) on a worker thread, with progress and cancel. No ImGui and no timing of its
// own here, so the tests run exactly what the button runs (app_test_bench_session with a fake GPU,
// kernels/tests/app_kernel_run.cpp on a real one).
//
//   auto run = start_kernel_run({"naive", "simt-tile"}, {512, 512, 512});
//   KernelRunSnapshot s = run->snapshot();   // each frame: done/total, current, results so far
//   run->cancel();                           // stops after the step in progress
//
// The rows are the session's: the reference of each track the entries need (timed alone), then
// each entry checked and timed in turns with its reference and the stage before it on its ladder.
// An entry that cannot run (unknown id, a convolution, refused size, too little GPU memory) is a
// "skipped" entry with the reason; a CUDA error stops the run and lands in `error`.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_command.h"
#include "model/results_file.h"

namespace gemmlab::app {

struct KernelRunSnapshot {
  int done = 0;             // steps finished (reference rows and entries)
  int total = 0;            // steps of the whole run
  bool cancelling = false;  // cancel() was called
  bool finished = false;    // the worker has returned: no more changes
  std::string current;      // "naive 512x512x512: checking and timing"
  std::string error;        // why the run stopped early (no GPU, CUDA error); empty otherwise
  BenchResults results;     // source "this run"; the rows finished so far
};

class KernelRun {
 public:
  KernelRun(std::vector<std::string> stages, bench::GemmSize size, bench::BackendFactory make_backend);
  ~KernelRun();  // cancels and waits for the step in progress
  KernelRun(const KernelRun&) = delete;
  KernelRun& operator=(const KernelRun&) = delete;

  void cancel();
  KernelRunSnapshot snapshot() const;

 private:
  void work();

  const std::vector<std::string> stages_;
  const bench::GemmSize size_;
  const bench::BackendFactory make_backend_;
  std::atomic<bool> cancel_{false};
  mutable std::mutex lock_;
  KernelRunSnapshot state_;  // guarded by lock_
  std::thread worker_;       // last: starts once everything above exists
};

std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, bench::GemmSize size,
                                            bench::BackendFactory make_backend);
#if GEMMLAB_WITH_RUNNER
// On this machine's GPU (kernel_run_gpu.cpp, built with the CUDA runner).
std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, bench::GemmSize size);
#endif

// Every GEMM stage of the registry, in registry order: what Run runs when the step names no
// stages (convolutions run from `gemmlab bench --conv`).
std::vector<std::string> built_stage_ids();

}  // namespace gemmlab::app
