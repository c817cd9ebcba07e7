// Stage 8 (`ldmatrix`), lesson 08-ldmatrix. Adds over stage 7: the fragments arrive by
// ldmatrix.x4 (LDSM.16.M88.4), one per 16x16 A tile and one per pair of 16x8 B tiles, each lane
// naming one 16-byte row. The new code is FragmentLoads<Ldmatrix> in ldmatrix_fragments.cuh; the
// kernel is stage 7's (sync_tile.cuh). Tiles are still unswizzled: 16 wavefronts per .x4.
// Run: gemmlab bench --stages mma-sync,ldmatrix --sizes 4096 --check
#include "stages/fp16/ldmatrix_fragments.cuh"  // FragmentLoads<Ldmatrix>, the new code
#include "stages/fp16/sync_tile.cuh"           // the register-staged block of stage 7

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
