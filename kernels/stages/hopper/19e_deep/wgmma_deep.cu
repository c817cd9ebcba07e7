// Stage 19e (`wgmma-deep`), lesson 19-persistent (sm_90a). Adds over stage 19b: a pipeline twice as
// deep. The same kernel and 64 x 128 tile with 8 stages of 24 KB, 192 KB of A and B in flight, so
// one block fills an SM. Where the 64-row tiles fit the SMs one block each (128 x 8192 x 8192, where
// the time is the read of B, and 1024^3) one block of 8 stages holds as many bytes in flight as
// 19b's two blocks of 4, without cutting K in two and adding the halves afterwards: 95-99% of cuBLAS
// at 128 x 8192 x 8192 against 19b's 85-86%, 91-94% at 1024^3 against 84%, 92% at 96 x 8192 x 8192
// against 19d's 82-83% (kernels/lab/results/shapes/README.md). K is still cut where the tiles fill
// half the SMs or fewer (16 x 8192 x 8192: 64 tiles, 2 slices). The dispatcher (19c) runs it where
// the tiles fit, but 19f where 128-row tiles in full rows make at least as many blocks.
// The kernel and its launch: stages/hopper/split_k_wgmma.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages wgmma-split-k,wgmma-deep --sizes 128x8192x8192,1024 --check
#include "stages/hopper/split_k_wgmma.cuh"

namespace gemmlab::kernels {

// 64 x 128 x 64, one warpgroup (thread 0 also issues the TMA), 8 stages of 24 KB (hopper_shapes.h).
StageLaunch launch_wgmma_deep() { return SplitKWgmma<hopper::DeepStage::Shape>::launch(); }

}  // namespace gemmlab::kernels
