// Stage 10 - + shared-memory swizzle (lesson 09-swizzle). Stage 9 with one change: every shared
// offset of the A and B tiles goes through CuTe's Swizzle<3,3,3> (gemmlab/swizzle.h) on half
// offsets, for the 16-byte stores that fill the tile and the ldmatrix rows that read it alike.
//
// Swizzle<3,3,3> XORs bits 6-8 of the half offset into bits 3-5, i.e. the 16-byte chunk index
// inside a 128-byte line with the line index. With 32-half (64-byte) rows, row r of a tile is
// line r/2, chunk 4*(r%2) + k/8; the 8 rows one ldmatrix phase reads at one k now land in the
// 8 different chunks of the bank space: 1 wavefront per 8x8 matrix, 4 per .x4, 0 conflicts
// (stage 9: 16 / 12). The data and the fragments are the same; only where they sit changed.
// The swizzle costs a few integer instructions per address.
//
// Any M, N, K (predicated, as stage 8). 16 KB static shared memory.
// Expected (H200, 4096^3): ~207 TFLOP/s, 29 % of cuBLAS; ncu: 4.0 wavefronts per LDSM.x4,
// 0 conflicts.
// Measured numbers and how they were taken: kernels/stages/fp16/FP16_NOTES.md.
//
// Run: gemmlab bench --stages ldmatrix,smem-swizzle --sizes 4096 --check
#include "fp16_sync_kernel.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = fp16::SmemSwizzleStage;  // 128x128x32, 256 threads, ldmatrix, swizzled (fp16_shapes.h)
const char* check_smem_swizzle(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_smem_swizzle(const GemmArgs& args) {
  return fp16::launch_sync_tile<Stage::Shape, Stage::kLoad, Stage::kSwizzled>(args);
}

}  // namespace

StageLaunch launch_smem_swizzle() { return {check_smem_swizzle, no_workspace, run_smem_swizzle}; }

}  // namespace gemmlab::kernels
