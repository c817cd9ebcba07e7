// Stage 16 - + thread block clusters and TMA multicast (sm_90a only). Stage 15's kernel, launched
// in clusters of 2 blocks (__cluster_dims__(1, 2, 1)) that compute vertically neighbouring tiles
// of C: the same 256 columns of B for different rows of A.
//
//   - Per k-tile each block of stage 15 read 16 KB of A and 32 KB of B from L2; at ~700 TFLOP/s
//     that is about 8 TB/s of L2 -> SM traffic for 132 SMs (the L2 turned out not to be what
//     limits stage 15: see the measurements below). Here each
//     block of a pair loads its own A and *half* of the shared B box, and the copy engine writes
//     that half into both blocks' shared memory (`cp.async.bulk.tensor ... .multicast::cluster`):
//     32 KB from L2 per block per k-tile instead of 48 KB.
//   - A block's producer now writes into its peer's stages too, so a stage is free only when the
//     consumers of both blocks released it: each consumer warp arrives on its own empty barrier
//     and on its peer's (`mapa` + `mbarrier.arrive.shared::cluster`), 16 arrivals per phase.
//   - One cluster barrier, split: every thread arrives (relaxed) once the barriers are made and
//     waits just before its first remote operation. A block leaves when its producer has seen
//     every stage come back from both blocks, not at a second cluster barrier: that one's release
//     waited for the block's C stores to drain, ~2,700 cycles a block (timed inside the kernel);
//     with a full barrier at the start it had kept this stage 2-5 points under stage 15.
// The grid's m extent is rounded up to whole clusters; a block past M loads B for its peer and
// stores nothing. K must be a multiple of 8 (TMA's 16-byte row strides); any M and N.
// The kernel: 16_cluster.cuh (cluster_kernel).
// Measured, GPU time only, timed in turns with cuBLAS and stage 15 (2026-11-27 12:23Z / 12:30Z):
// H100 94.5 % of cuBLAS at 4096^3 and 97.9 % at 8192^3, 0.991x and 0.985x stage 15's speed; H200
// 95.1 % and 99.0 %, 1.006x and 0.997x. Level with stage 15 (0.983-1.028x over ten H100 runs), and
// alone at the power limit the same time at the same clock and power: the saved L2 traffic buys no
// time at these sizes; stage 17's multicast does (HOPPER_NOTES.md, its top section).
//
// Run: gemmlab bench --stages warp-specialized,cluster --sizes 4096,8192 --check
#include "16_cluster.cuh"
#include "hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::ClusterStage;  // stage 15's tile, clusters of 2 along m (hopper_shapes.h)
using Shape = Stage::Shape;
static_assert(Stage::kClusterM == hopper::kClusterBlocks);
const void* kKernel = reinterpret_cast<const void*>(hopper::cluster_kernel<Shape>);

const char* check_cluster(int m, int n, int k) {
  return hopper::check_serpentine_tma<Shape>(kKernel, m, n, k, Stage::kMaxStride, Stage::kClusterM);
}
size_t no_workspace(int, int, int) { return 0; }

cudaError_t run_cluster(const GemmArgs& args) {
  if (check_cluster(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b_half;
  if (const cudaError_t e = hopper::encode_maps<Shape>(args, &map_a, &map_b_half, Stage::kClusterM); e != cudaSuccess)
    return e;
  return hopper::launch_serpentine<Shape>(hopper::cluster_kernel<Shape>, Stage::kMaxStride, Stage::kClusterM,
                                          Shape::kSmemBytes, args, map_a, map_b_half, args.C, args.m,
                                          args.n, args.k, args.alpha, args.beta);
}

}  // namespace

StageLaunch launch_cluster() { return {check_cluster, no_workspace, run_cluster}; }

}  // namespace gemmlab::kernels
