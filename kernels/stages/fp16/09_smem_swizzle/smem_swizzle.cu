// Stage 9 (`smem-swizzle`), lesson 09-swizzle. Adds over stage 8: every shared offset of the A
// and B tiles goes through CuTe's Swizzle<3,3,3> (gemmlab/swizzle.h), for the stores that fill
// a tile and the ldmatrix rows that read it: the 8 rows of one ldmatrix phase land in 8 different
// 16-byte chunks, 4 wavefronts per .x4 and no conflicts. Same kernel (sync_tile.cuh).
// Run: gemmlab bench --stages ldmatrix,smem-swizzle --sizes 4096 --check
#include "stages/fp16/ldmatrix_fragments.cuh"  // FragmentLoads<Ldmatrix>, the new code
#include "stages/fp16/sync_tile.cuh"           // the register-staged block of stage 7

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
