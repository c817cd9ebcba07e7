// Stage 18 (`cluster`), lesson 18-cluster (sm_90a). Adds over stage 17: clusters of 2 blocks on
// vertically neighbouring tiles share B. Each block loads its A and half of the B box, and the
// copy engine writes that half into both blocks (cp.async.bulk.tensor .multicast::cluster); a
// stage is free once both blocks' consumers released it (remote mbarrier arrives). The kernel is
// in cluster_multicast.cuh. K % 8 == 0; any M and N.
// Run: gemmlab bench --stages warp-specialized,cluster --sizes 256x32768x8192,4096
#include "stages/hopper/cluster_multicast.cuh"
#include "stages/hopper/hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::ClusterStage;  // stage 17's tile, clusters of 2 along m (hopper_shapes.h)
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
