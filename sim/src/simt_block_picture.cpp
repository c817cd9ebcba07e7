#include "gemmlab/simt_block_picture.h"

#include "gemmlab/simt_warp_tile.h"

namespace gemmlab {

SimtBlockPicture simt_block_picture() {
  using namespace simt_tile;
  SimtBlockPicture p;
  p.rows = kTileM;
  p.cols = kTileN;
  p.warp_m = kWarpM;
  p.warp_n = kWarpN;
  p.thread.assign(static_cast<std::size_t>(kTileM) * kTileN, -1);
  for (unsigned t = 0; t < unsigned(kThreads); ++t) {
    const TileCoord o = thread_tile_origin(t);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int a = 0; a < kLaneTile; ++a)
          for (int b = 0; b < kLaneTile; ++b)
            p.thread[static_cast<std::size_t>(o.m + i * kRepeatM + a) * kTileN + (o.n + j * kRepeatN + b)] = int(t);
  }
  return p;
}

}  // namespace gemmlab
