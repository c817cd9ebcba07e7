// Stage 11 - + cp.async multistage (lesson 10-multistage). Stage 10's tile (128x128x32, 8 warps
// of 64x32, Swizzle<3,3,3> shared layout, ldmatrix.x4, mma.sync m16n8k16) with the CuTe GEMM tutorial's kStage
// pipeline instead of one register-staged buffer:
//   - `cp.async.cg.shared.global` 16 bytes (SASS LDGSTS.E.BYPASS.128) copies global -> shared
//     without registers or a stall: the thread issues and moves on;
//   - 4 shared stages (16 KB each, 64 KB dynamic shared memory), so while k-tile t is computed,
//     tiles t+1 .. t+3 are in flight; `cp.async.wait_group 2` + one barrier per k-tile;
//   - the warp fragments double-buffered in registers: ldmatrix for step kk+1 is issued before
//     the mma of step kk.
// The loop, step by step, is in 11_multistage.cuh (MultistageMainloop, multistage_kernel).
// Stages 8-10 wait for global memory once per k-tile with the whole block at a barrier; here
// that latency hides behind three tiles of math.
//
// Any M, N: rows past the edge are zero-filled by cp.async (src-size 0). cp.async copies 16-byte
// chunks, so K % 8 == 0 (and 16-byte aligned A, B) takes the asynchronous path; other K fall
// back to synchronous 2-byte loads into the same pipeline: correct, and much slower.
// Expected (H200, 4096^3): ~323 TFLOP/s, 46 % of cuBLAS; 146 registers, one block per SM.
// Measured numbers and how they were taken: kernels/stages/fp16/FP16_NOTES.md.
//
// Run: gemmlab bench --stages smem-swizzle,multistage --sizes 4096 --check
#include "11_multistage.cuh"

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
