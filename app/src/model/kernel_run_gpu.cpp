// Run on this machine's GPU: the session's GPU backend (built only with the CUDA runner).
#include "bench/gpu_backend.h"
#include "model/kernel_run.h"

namespace gemmlab::app {

std::unique_ptr<KernelRun> start_kernel_run(std::vector<std::string> stages, bench::GemmSize size) {
  return start_kernel_run(std::move(stages), size, bench::make_gpu_backend);
}

}  // namespace gemmlab::app
