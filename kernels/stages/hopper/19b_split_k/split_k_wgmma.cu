// Stage 19b (`wgmma-split-k`), lesson 19-persistent (sm_90a). Adds over stage 16: few output
// tiles still fill the GPU. A decode step (M = 16 .. 128) or a small square gives stage 16's
// 128 x 128 tiles a few dozen blocks for 132 SMs. Here a tile is 64 rows (one warpgroup, which
// also issues the TMA), and K is cut into slices as stage 13a cuts it (grid tiles_m x tiles_n x
// slices, gemmlab/raster.h split_k_parallel_range), but only as many as fit one wave
// (split_k_wave_slices: 64 tiles on 264 slots -> 4 slices, 256 blocks; 5 would leave 56 blocks for
// a second wave). Each block runs stage 16's pipeline over its slice and writes a partial tile to
// the workspace, and a second kernel adds the slices in order (stages/split_k_reduce.cuh: the
// same C every run), launched as a programmatic dependent so that it starts as this one ends.
// One slice, no workspace, where the tiles fill the GPU. The dispatcher (19c) runs it where its
// rule says (gemmlab/auto_dispatch.h). The kernel and its launch: stages/hopper/split_k_wgmma.cuh.
// K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma,wgmma-split-k --sizes 16x8192x8192,512x512x16384 --check
#include "stages/hopper/split_k_wgmma.cuh"

namespace gemmlab::kernels {

// 64 x 128 x 64, one warpgroup, 4 stages of 24 KB: two blocks per SM (hopper_shapes.h).
// 16x8192x8192: 64 tiles on 264 slots -> 4 slices, 256 blocks.
StageLaunch launch_wgmma_split_k() { return SplitKWgmma<hopper::SplitKStage::Shape>::launch(); }

}  // namespace gemmlab::kernels
