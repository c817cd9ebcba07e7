// Stage 19d (`wgmma-split-k-128`), lesson 19-persistent (sm_90a). Adds over stage 19b: a tile of 128
// rows, half the blocks. The two warpgroups of one block take the two 64-row halves of a 128-row
// tile and share each B box; K is cut into as many slices as fit one wave, as in 19b. Where 19b's
// 64-row tiles alone overflow a wave, 19d's fit: 128 x 28672 x 8192 makes 448 tiles of 64 x 128
// for 264 slots (two waves) but 224 of 128 x 128 (one); there 19d ran at 104-105% of cuBLAS, 19b at
// 90%. Where both fit one wave, 19b's deeper pipeline (4 stages, not 3) won when all its rows were
// used (128 x 8192 x 8192: 84% against 80-82%), 19d when 19b's second row of tiles was at most half
// used (96 x 8192 x 8192: 81-84% against 77-81%; kernels/lab/results/shapes/README.md); stage 19e,
// one block per SM with 8 stages, beat both there. The dispatcher (19c) runs 19d where only its
// tiles fit one wave.
// The kernel and its launch: stages/hopper/split_k_wgmma.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma-split-k,wgmma-split-k-128 --sizes 128x8192x8192,96x8192x8192 --check
#include "stages/hopper/split_k_wgmma.cuh"

namespace gemmlab::kernels {

// 128 x 128 x 64, two warpgroups (thread 0 also issues the TMA), 3 stages of 32 KB (hopper_shapes.h).
StageLaunch launch_wgmma_split_k_128() { return SplitKWgmma<hopper::SplitK128Stage::Shape>::launch(); }

}  // namespace gemmlab::kernels
