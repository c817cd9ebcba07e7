// Stage 8 - mma.sync m16n8k16 (lesson 07-tensor-cores). First stage of the FP16 track:
// C (f32, column-major) = alpha * A (f16, row-major) * B (f16, column-major) + beta * C.
//
// What it adds over the SIMT stages: the warp, not the thread, is the unit of math. Each warp
// owns 64x32 of the 128x128 block tile as 4 x 4 tensor-core tiles of 16x8 and issues
// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` (SASS HMMA.16816.F32) once per tile and
// k16 step: 4096 flops per instruction instead of 2 per FFMA. The operands are fragments spread
// over the 32 lanes (gemmlab/fragments.h gives the PTX tables: lane L's register r of A holds
// a_{2r}, a_{2r+1} at row L/4 (+8), columns 2*(L%4) (+8)).
//
// Deliberately plain: the fragments come from shared memory by ordinary 32-bit loads (LDS.32,
// 4 per A tile, 2 per B tile), the shared tiles are unswizzled 64-byte rows, and one shared
// buffer is filled through registers (ld.global.v4 -> st.shared.v4) between two barriers.
// Each LDS.32 reads 8 rows x 4 words of a 64-byte-pitch tile: rows r and r+2 share banks, so
// it costs 4 wavefronts where 1 would do (hardware_rules.md: 32-bit, one phase of 32 lanes).
//
// Any M, N, K: rows past M / N and k past K load as zeros (predicated); K % 8 != 0 (or unaligned
// A / B) takes 2-byte loads. Tile 128x128x32, 256 threads, 16 KB static shared memory.
// Expected (H200, 4096^3): ~107 TFLOP/s, 15 % of cuBLAS; ncu: 4 wavefronts per LDS.32 (3
// conflicts), the tensor pipe ~17 % busy: the shared-memory pipe (72 % busy) is the bottleneck.
// Measured numbers and how they were taken: kernels/stages/fp16/FP16_NOTES.md.
//
// Run: gemmlab bench --stages mma-sync --sizes 4096 --check
#include "08_mma_sync.cuh"

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
