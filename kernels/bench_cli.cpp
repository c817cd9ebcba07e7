// `gemmlab bench`: the command (kernels/bench/bench_command.h) on this machine's GPU.
#include "bench_cli.h"

#include "bench/bench_command.h"
#include "bench/gpu_backend.h"

namespace gemmlab {

int bench_main(int argc, char** argv, int first) {
  return bench::bench_command(argc, argv, first, bench::make_gpu_backend);
}

}  // namespace gemmlab
