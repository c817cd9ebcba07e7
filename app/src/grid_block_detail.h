// Inside one threadblock of the FP32 SIMT stages (lesson 5), drawn by the Grid view in place of
// the C tiles: the 128 x 128 block tile in 8 warp tiles of 32 x 64, and one warp's 32 lanes, each
// with its 8 x 8 accumulators in 2 x 2 blocks of 4 x 4 (gemmlab/simt_block_picture.h).
#pragma once
#include "canvas.h"

namespace gemmlab::app {

// highlight_warp: -1 colours every warp; 0..7 colours that warp's lanes and dims the others.
void draw_simt_block_detail(CanvasState& canvas, int highlight_warp);

}  // namespace gemmlab::app
