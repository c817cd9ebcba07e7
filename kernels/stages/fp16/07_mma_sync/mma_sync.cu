// Stage 7 (`mma-sync`), lesson 07-tensor-cores: the FP16 track's first stage,
// C (f32, column-major) = alpha * A (f16, row-major) * B (f16, column-major) + beta * C.
// Adds over the SIMT stages: the warp is the unit of math. 8 warps of 64x32 on a 128x128x32 tile
// issue mma.sync m16n8k16 (HMMA.16816.F32) with fragments from plain LDS.32 of unswizzled
// 64-byte rows (4-way bank conflicts, on purpose) and one register-staged shared buffer.
// The kernel is shared with stages 8 and 9: sync_tile.cuh. Any M, N, K.
// Run: gemmlab bench --stages mma-sync --sizes 4096 --check
#include "stages/fp16/sync_tile.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = fp16::MmaSyncStage;  // 128x128x32, 256 threads, LDS.32, unswizzled (fp16_shapes.h)
const char* check_mma_sync(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_mma_sync(const GemmArgs& args) {
  return fp16::launch_sync_tile<Stage::Shape, Stage::kLoad, Stage::kSwizzled>(args);
}

}  // namespace

StageLaunch launch_mma_sync() { return {check_mma_sync, no_workspace, run_mma_sync}; }

}  // namespace gemmlab::kernels
