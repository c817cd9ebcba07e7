// Stage 19d (`wgmma-split-k-128`), lesson 19-persistent (sm_90a). Adds over stage 19b: a tile of 128
// rows. At M = 65 .. 128 stage 19b's two 64-row tiles of a column each read the whole of B's
// column through L2: at 128 x 8192 x 8192 about 400 MB leave L2 for a 130 MB problem. Here the
// two warpgroups of one block take the two 64-row halves of a 128-row tile and read each B box
// once from shared memory; K is cut into as many slices as fit one wave, as in 19b (64 tiles on
// 264 slots -> 4 slices, 256 blocks). The dispatcher (19c) runs it for one row of 128-row tiles.
// The kernel and its launch: stages/hopper/split_k_wgmma.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma-split-k,wgmma-split-k-128 --sizes 128x8192x8192,96x8192x8192 --check
#include "stages/hopper/split_k_wgmma.cuh"

namespace gemmlab::kernels {

// 128 x 128 x 64, two warpgroups (thread 0 also issues the TMA), 3 stages of 32 KB (hopper_shapes.h).
StageLaunch launch_wgmma_split_k_128() { return SplitKWgmma<hopper::SplitK128Stage::Shape>::launch(); }

}  // namespace gemmlab::kernels
