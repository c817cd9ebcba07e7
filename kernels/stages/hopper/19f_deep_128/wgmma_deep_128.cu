// Stage 19f (`wgmma-deep-128`), lesson 19-persistent (sm_90a). Adds over stage 19e: 19d's 128-row
// tile on 19e's deep pipeline. Two warpgroups take the two 64-row halves of a 128 x 128 tile and
// share each B box; 6 stages of 32 KB, 192 KB in flight, one block per SM. Where a problem has
// several rows of tiles but few tiles and a long K (512 x 512 x 16384: 16 tiles, K cut into 8
// slices), the reads from L2 bound the time, and each k-tile of 128 x 128 feeds twice the math of
// 19e's 64 x 128: 98-101% of cuBLAS against 19e's 92-93%. It also wins where one row of its tiles
// fits the SMs and 64-row tiles would not (96 x 16384 x 8192: 128 tiles, 92-93% against 19b's
// 80-82%; kernels/lab/results/shapes/README.md). Where K is too short to cut (1024^3), its 64 tiles
// leave half the SMs idle and 19e wins; where its last row of tiles is part-used (192 rows), 19b.
// The kernel and its launch: stages/hopper/split_k_wgmma.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma-deep,wgmma-deep-128 --sizes 512x512x16384,1024 --check
#include "stages/hopper/split_k_wgmma.cuh"

namespace gemmlab::kernels {

// 128 x 128 x 64, two warpgroups (thread 0 also issues the TMA), 6 stages of 32 KB (hopper_shapes.h).
StageLaunch launch_wgmma_deep_128() { return SplitKWgmma<hopper::DeepRowStage::Shape>::launch(); }

}  // namespace gemmlab::kernels
