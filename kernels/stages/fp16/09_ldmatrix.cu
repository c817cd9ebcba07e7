// Stage 9 - + ldmatrix (lesson 08-ldmatrix). Same kernel as stage 8 (128x128x32 tile, 8 warps of
// 64x32, mma.sync m16n8k16, one register-staged shared buffer), but the fragments arrive by
// `ldmatrix.sync.aligned.m8n8.x4.shared.b16` (SASS LDSM.16.M88.4): one instruction per 16x16 A
// tile and one per pair of 16x8 B tiles, where stage 8 needed 4 and 4 LDS.32. Each lane gives the
// address of one 16-byte row (gemmlab/fragments.h: ldsm_x4_a_row_start / ldsm_x4_b_row_start)
// and the hardware hands every lane exactly the elements mma wants. That code, the only new code
// of this stage, is 09_ldmatrix.cuh (FragmentLoads<Ldmatrix>); the rest is stage 8's kernel.
//
// The shared tiles are still unswizzled rows of 32 halves (64 bytes), so the conflicts are there
// to see: an ldmatrix phase reads 8 rows at the same k; rows r and r+2 are 128 bytes apart and
// fall in the same 4 banks, so each 8x8 matrix takes 4 wavefronts and an .x4 takes 16 (12
// conflicts) instead of 4. Fewer instructions than stage 8, the same shared-memory wavefronts.
//
// Any M, N, K (predicated, as stage 8). 16 KB static shared memory.
// Expected (H200, 4096^3): ~117 TFLOP/s, 16.5 % of cuBLAS; ncu: 16 wavefronts per LDSM.x4
// (12 conflicts), exactly what `gemmlab sim banks` predicts for these addresses.
// Measured numbers and how they were taken: kernels/stages/fp16/FP16_NOTES.md.
//
// Run: gemmlab bench --stages mma-sync,ldmatrix --sizes 4096 --check
#include "09_ldmatrix.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = fp16::LdmatrixStage;  // 128x128x32, 256 threads, ldmatrix, unswizzled (fp16_shapes.h)
const char* check_ldmatrix(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_ldmatrix(const GemmArgs& args) {
  return fp16::launch_sync_tile<Stage::Shape, Stage::kLoad, Stage::kSwizzled>(args);
}

}  // namespace

StageLaunch launch_ldmatrix() { return {check_ldmatrix, no_workspace, run_ldmatrix}; }

}  // namespace gemmlab::kernels
