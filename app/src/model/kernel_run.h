// The kernels view's "Run": checks each stage against cuBLAS and times it on a worker thread,
// with progress and cancel. No ImGui here, so the GPU tests (kernels/tests/app_kernel_run.cpp)
// run exactly what the button runs. Compiled only in builds with the CUDA runner.
//
//   auto run = start_kernel_run({"naive", "cublas-fp32"}, {512, 512, 512});
//   KernelRunSnapshot s = run->snapshot();   // each frame: done/total, current, results so far
//   run->cancel();                           // stops after the entry in progress
//
// Per entry, as `gemmlab bench` does: the track's cuBLAS reference is timed first (once per
// track), then the stage is validated, checked against cuBLAS and timed in turns with cuBLAS and
// with the stage before it on its ladder when this run has that one's result. An entry that cannot run
// (unknown id, not built, refused size, too little GPU memory) becomes a "skipped" entry with the
// reason; a CUDA error stops the run and lands in `error`.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model/results_file.h"
#include "runner.h"

namespace gemmlab::app {

struct KernelRunSnapshot {
  int done = 0;             // entries finished (results + skipped)
  int total = 0;            // entries asked for
  bool cancelling = false;  // cancel() was called
  bool finished = false;    // the worker has returned: no more changes
  std::string current;      // "naive: checking and timing"
  std::string error;        // why the run stopped early (no GPU, CUDA error); empty otherwise
  BenchResults results;     // source "this run"; the entries finished so far
};

class KernelRun {
 public:
  KernelRun(std::vector<std::string> stages, kernels::Problem problem);
  ~KernelRun();  // cancels and waits for the entry in progress
  KernelRun(const KernelRun&) = delete;
  KernelRun& operator=(const KernelRun&) = delete;

  void cancel();
  KernelRunSnapshot snapshot() const;

 private:
  void work();
  void set_current(const std::string& what);
  void add_skipped(const std::string& id, const std::string& why);
  void add_result(const BenchResult& r);

  const std::vector<std::string> stages_;
  const kernels::Problem problem_;
  mutable std::mutex lock_;
  KernelRunSnapshot state_;  // guarded by lock_
  std::thread worker_;       // last: starts once everything above exists
};

std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, kernels::Problem p);

// Every stage whose file is in this build, in registry order: what Run runs when the step names
// no stages (cuBLAS is then the reference of each track, not an entry of its own).
std::vector<std::string> built_stage_ids();

}  // namespace gemmlab::app
