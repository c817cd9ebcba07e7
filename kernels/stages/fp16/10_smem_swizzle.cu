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
#include "09_ldmatrix.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = fp16::SmemSwizzleStage;  // 128x128x32, 256 threads, ldmatrix, swizzled (fp16_shapes.h)

// What is new here is the layout every shared offset of stage 9 goes through, one line of
// gemmlab/fp16_smem_tile.h that the simulator's Banks view draws with the same function:
//   offset(row, k) = kSwizzled ? Swizzle<3,3,3>(row * kTileK + k) : row * kTileK + k
using Unswizzled = fp16_tile::SmemOperandLayout<Stage::Shape::kTileK, false>;
using Swizzled = fp16_tile::SmemOperandLayout<Stage::Shape::kTileK, true>;
// The 16-byte chunk (of the 8 in a 128-byte line) where row r, k 0 starts: the 8 rows one ldmatrix
// phase reads. Unswizzled 0,4,0,4,... (rows r and r+2 share banks); swizzled 0,4,1,5,2,6,3,7.
template <class Layout>
constexpr int chunk_of_row(int r) { return (Layout::offset(r, 0) / 8) % 8; }
template <class Layout>
constexpr bool eight_rows_in_eight_chunks() {
  int seen = 0;
  for (int r = 0; r < 8; ++r) seen |= 1 << chunk_of_row<Layout>(r);
  return seen == 0xFF;
}
static_assert(!eight_rows_in_eight_chunks<Unswizzled>() && chunk_of_row<Unswizzled>(2) == 0);
static_assert(eight_rows_in_eight_chunks<Swizzled>() && chunk_of_row<Swizzled>(2) == 1);
const char* check_smem_swizzle(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_smem_swizzle(const GemmArgs& args) {
  return fp16::launch_sync_tile<Stage::Shape, Stage::kLoad, Stage::kSwizzled>(args);
}

}  // namespace

StageLaunch launch_smem_swizzle() { return {check_smem_swizzle, no_workspace, run_smem_swizzle}; }

}  // namespace gemmlab::kernels
