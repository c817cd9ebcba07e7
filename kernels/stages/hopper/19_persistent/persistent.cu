// Stage 19 (`persistent`), lesson 19-persistent (sm_90a). Adds over stage 18: long-lived blocks.
// As many clusters as the GPU holds loop over cluster tiles in the order of
// gemmlab/persistent_schedule.h (serpentine units, narrowed last rows, a stream-k tail, two
// clusters spare); the producer runs on into the next tile; C leaves through the TMA from a
// staging buffer (persistent.cuh). K % 8 == 0; any M and N.
// Run: gemmlab bench --stages cluster,persistent --sizes 4096,8192 --check
#include "stages/hopper/19_persistent/persistent.cuh"
#include "stages/hopper/hopper_launch.cuh"

#include <atomic>

namespace gemmlab::kernels {
namespace {

using Stage = hopper::PersistentStage;  // stage 18's tile and clusters (hopper_shapes.h)
using Shape = Stage::Shape;
static_assert(Stage::kClusterM == hopper::kClusterBlocks);
const void* kKernel = reinterpret_cast<const void*>(hopper::persistent_kernel<Shape, true>);

const char* check_persistent(int m, int n, int k) {
  if (const char* why = hopper::check_hopper_device(kKernel)) return why;
  return hopper::check_tma_problem(m, n, k);
}

// How many clusters of the kernel the current GPU holds at once: asked once per device (the
// runner asks for the workspace, then launches, on every run).
cudaError_t resident_clusters(int* clusters) {
  constexpr int kDevices = 64;
  static std::atomic<int> known[kDevices] = {};
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  if (device < kDevices && (*clusters = known[device].load()) > 0) return cudaSuccess;
  // Both instantiations use the same shared memory and block: one answer serves both.
  auto* kernel = hopper::persistent_kernel<Shape, true>;
  if (const cudaError_t e = fp16::allow_shared_memory(kernel, Stage::kSmemBytes); e != cudaSuccess) return e;
  hopper::ClusterLaunch probe(dim3(Stage::kClusterM), dim3(Stage::kClusterM, 1, 1), Shape::kThreads,
                              Stage::kSmemBytes, nullptr);
  if (const cudaError_t e = cudaOccupancyMaxActiveClusters(clusters, kernel, &probe.config); e != cudaSuccess)
    return e;
  if (*clusters < 1) return cudaErrorInvalidConfiguration;
  if (device < kDevices) known[device] = *clusters;
  return cudaSuccess;
}

// As many clusters as are resident at once; with `tail`, the stream-k tail when the units do not
// fill whole rounds (only the TMA epilogue can add to C).
cudaError_t plan_for(int m, int n, int k, bool tail, persistent::Plan* plan) {
  int clusters = 0;
  if (const cudaError_t e = resident_clusters(&clusters); e != cudaSuccess) return e;
  *plan = persistent::make_plan(fp16::tiles_of(m, Shape::kTileM), fp16::tiles_of(n, Shape::kTileN), Stage::kClusterM,
                                Stage::kMaxStride, fp16::tiles_of(k, Shape::kTileK), clusters, tail, Shape::kTileN, n);
  return cudaSuccess;
}

// The tail's flags: one int per (split unit, block of the cluster, consumer warpgroup).
size_t workspace_for(const persistent::Plan& plan) {
  return size_t(plan.tail_units) * Stage::kClusterM * Shape::kConsumers * sizeof(int);
}
size_t workspace(int m, int n, int k) {
  persistent::Plan plan;
  return plan_for(m, n, k, true, &plan) == cudaSuccess ? workspace_for(plan) : 0;
}

// The kernel with tile pipeline Sh and kSlots C staging slots per consumer (the stage:
// Shape, Stage::kStagingSlots).
template <class Sh, int kSlots, bool kMulticast = true>
cudaError_t launch(const GemmArgs& args, const CUtensorMap& map_a, const CUtensorMap& map_b_half) {
  // C through the TMA when nothing reads it (beta == 0) and its columns start 16-byte aligned.
  // A narrowed tile's last 16 or 24 columns go out as 32 x 8 boxes (map_c8).
  CUtensorMap map_c{}, map_c8{};
  const bool tma_store = args.beta == 0.f && args.m % 4 == 0 && reinterpret_cast<uintptr_t>(args.C) % 16 == 0 &&
                         hopper::encode_c_map(&map_c, args.C, args.m, args.n) == cudaSuccess &&
                         hopper::encode_c_map(&map_c8, args.C, args.m, args.n, 8) == cudaSuccess;
  auto* kernel = tma_store ? hopper::persistent_kernel<Sh, true, kSlots, kMulticast>
                           : hopper::persistent_kernel<Sh, false, kSlots, kMulticast>;
  constexpr size_t kSmem = Sh::kSmemBytes + Sh::kConsumers * kSlots * 2 * tma::kCBoxBytes;
  static_assert(kSmem <= hopper::kMaxSmemPerBlock);
  if (const cudaError_t e = fp16::allow_shared_memory(kernel, kSmem); e != cudaSuccess) return e;
  persistent::Plan plan;
  if (const cudaError_t e = plan_for(args.m, args.n, args.k, tma_store, &plan); e != cudaSuccess) return e;
  if (args.workspace_bytes < workspace_for(plan)) return cudaErrorInvalidValue;
  static std::atomic<int> next_epoch{1};  // a new value per launch: the flags never need a reset
  const hopper::TailFlags tail{static_cast<int*>(args.workspace), next_epoch++};
  const hopper::ClusterLaunch launch(dim3(Stage::kClusterM * plan.clusters), dim3(Stage::kClusterM, 1, 1),
                                     Sh::kThreads, kSmem, args.stream);
  return cudaLaunchKernelEx(&launch.config, kernel, map_a, map_b_half, map_c, map_c8, args.C, args.m, args.n, args.k,
                            args.alpha, args.beta, plan, tail);
}

cudaError_t run_persistent(const GemmArgs& args) {
  if (check_persistent(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  CUtensorMap map_a, map_b_half;
  if (const cudaError_t e = hopper::encode_maps<Shape>(args, &map_a, &map_b_half, Stage::kClusterM); e != cudaSuccess)
    return e;
  return launch<Shape, Stage::kStagingSlots>(args, map_a, map_b_half);
}

}  // namespace

StageLaunch launch_persistent() { return {check_persistent, workspace, run_persistent}; }

}  // namespace gemmlab::kernels
