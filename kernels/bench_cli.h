// `gemmlab bench ...`: runs the kernel ladder against cuBLAS (app/main.cpp dispatches here).
#pragma once

namespace gemmlab {
// argv[first..] are bench's own arguments. Returns the process exit code: 0 all checks passed,
// 1 a correctness check failed, 2 bad arguments or no usable GPU / a CUDA error.
int bench_main(int argc, char** argv, int first);
}  // namespace gemmlab
