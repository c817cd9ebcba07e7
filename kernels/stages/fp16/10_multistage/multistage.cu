// Stage 10 (`multistage`), lesson 10-multistage. Adds over stage 9: CuTe's kStage pipeline.
// cp.async 16-byte copies (LDGSTS) fill 4 shared buffers without registers, so tiles t+1..t+3 are
// in flight while t computes (wait_group 2, one barrier a k-tile), and the ldmatrix of step kk+1
// is issued before the mma of step kk. The loop is MultistageMainloop in fp16_mainloop.cuh.
// K % 8 == 0 takes the asynchronous path; other K a synchronous fallback. Any M, N.
// Run: gemmlab bench --stages smem-swizzle,multistage --sizes 4096 --check
#include "stages/fp16/fp16_mainloop.cuh"

namespace gemmlab::kernels {
namespace {

// 128x128x32, 4 stages (64 KB), warps 64x32; one block per SM (fp16_shapes.h).
using Stage = fp16::MultistageStage;

const char* check_multistage(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_multistage(const GemmArgs& args) {
  return fp16::launch_multistage_direct<Stage::Shape, Stage::kMinBlocks>(args);
}

}  // namespace

StageLaunch launch_multistage() { return {check_multistage, no_workspace, run_multistage}; }

}  // namespace gemmlab::kernels
