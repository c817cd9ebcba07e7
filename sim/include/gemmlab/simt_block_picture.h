// The FP32 SIMT block of stages 5, 6, 11, 13a, 13b as a picture (lesson 5): which warp and lane hold each
// accumulator of the 128 x 128 block tile, from simt_tile::thread_tile_origin, the function the
// kernels call. 8 warps of 32 x 64 (4 along m, 2 along n); a lane's 8 x 8 accumulators are 2 x 2
// blocks of 4 x 4, 16 rows and 32 columns apart.
//   element (36, 8) -> thread 37 (warp 1, lane 5); (52, 40) -> thread 37 too (its block (1, 1))
#pragma once
#include <cstddef>
#include <vector>

namespace gemmlab {

struct SimtBlockPicture {
  int rows = 0, cols = 0;       // 128 x 128
  int warp_m = 0, warp_n = 0;   // the warp tile, 32 x 64
  std::vector<int> thread;      // rows x cols, row-major: the thread that accumulates C(m, n)
  int owner(int m, int n) const { return thread[static_cast<std::size_t>(m) * cols + n]; }
};
SimtBlockPicture simt_block_picture();

}  // namespace gemmlab
