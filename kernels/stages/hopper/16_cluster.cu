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
// Measured, GPU time only, timed in turns with cuBLAS and stage 15 (full benches of 2026-11-27
// 14:12Z H100 / 14:16Z H200): at 4096^3 and 8192^3 level with stage 15 (0.975x / 1.026x on the
// H100, 1.044x / 1.021x on the H200; 0.983-1.028x over ten earlier H100 runs at 4096^3, and alone
// at the power limit the same time at the same clock): a 128 x 256 tile does not wait for L2
// there. On lesson 18's problem, 256x32768x8192, B's 512 MB stream from DRAM and the two tiles of
// a column need the same strip: stage 15 reads 562-575 MB, this stage 545 MB (B once; ncu), and
// it is 1.070x stage 15 on the H100 (99.7 % of cuBLAS; 1.052-1.090x in twelve rounds: DRAM-bound
// there) and 1.005x on the H200 (96.9 %; 1.003-1.057x in ten: past its ridge). HOPPER_NOTES.md's
// top section.
//
// Run: gemmlab bench --stages warp-specialized,cluster --sizes 256x32768x8192,4096
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
