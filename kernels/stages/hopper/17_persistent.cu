// Stage 17 - + persistent blocks (sm_90a only). Stage 16 launched one block per output tile: at
// 4096^3 that is 512 blocks, 3.9 per SM, and each block's start (barriers made, pipeline filled
// from empty: 4 k-tiles of latency before the first wgmma) and end (the tensor cores idle while
// 128 KB of C is stored) are paid per tile.
//
//   - One block per SM, in as many clusters of 2 as the GPU holds at once
//     (cudaOccupancyMaxActiveClusters), each looping over cluster tiles in stage 12's serpentine
//     order (gemmlab/persistent_schedule.h: the tile scheduler, tested on the host); a Hilbert
//     curve over the same units measured no faster (HOPPER_NOTES.md). Two clusters stay idle where
//     that adds no round and nothing below evens the rounds out: 0.7-1.7 points of cuBLAS faster
//     than 66 clusters with 8 idle in the last round (four SMs fewer write C at once).
//   - Narrowed rows: where the last round would leave clusters idle and no stream-k tail runs,
//     the last tile rows are cut into one tile more, 240 or 248 columns wide (wgmma m64n240k16,
//     m64n248k16: their time scales with N), so that every cluster takes as many tiles and the
//     longest computes fewer columns. 4096^3: rows 16-31 in 17 tiles, 264 units = 4 rounds of 66
//     clusters, at most 1,000 columns a cluster instead of 1,024: 0.9-1.1 % less time than the 64
//     clusters before it (seven alternating rounds on an H100 and an H200), 100.7-101.1 % of
//     cuBLAS. The B box's two halves overlap in a narrowed tile; its last 16 or 24 columns of C go
//     out as 32 x 8 boxes.
//   - The producer's k-tile counter runs on across tiles: while the consumers store one tile's
//     accumulators it already loads the next tile's first 4 k-tiles, so the next main loop
//     starts with a full pipeline; barriers are made once per block, not once per tile.
//   - The epilogue through the TMA: each consumer stages its accumulators in shared memory,
//     32 columns at a time, and the copy engine stores them (`cp.async.bulk.tensor` global <-
//     shared, SASS UTMASTG) while the warpgroup goes on; the last stores overlap the next tile's
//     main loop. Stage 16's direct stores cost 5-11 % of the time (measured by leaving
//     them out, HOPPER_NOTES.md). With beta != 0, or M % 4 != 0, the direct stores remain.
//   - A stream-k tail (lesson 13's idea on the last round): at 8192^3 the 1024 cluster tiles fill
//     15 rounds of 66 clusters and leave 34, which would idle 32 clusters for the last round;
//     their k-tiles are split evenly over all 66 clusters instead, the piece that starts a tile
//     storing it and the others adding to it with the TMA's reduce-add (no partial sums in
//     registers or a workspace; only a flag per piece of C). With the TMA epilogue only, and only
//     where the last round would be at most 3/4 full (4096^3: 58 of 66, narrowed rows instead).
//   - Fewer cluster tiles than clusters (512 x 512 x 16384: 4) are split the same way over the
//     clusters, where each piece keeps at least 8 k-tiles, in groups with the same k ranges for
//     every tile where they fit (the tiles that share A rows or B columns then read each k-slice
//     together: a third less DRAM traffic). Without it 4 of 66 clusters ran the whole K: 17 % of
//     cuBLAS; split, 83-88 % (512 x 512 x 32768: 14 % -> 93-95 %; 1024 x 1024 x 16384: 38 % ->
//     100-101 %; 1536 x 1536 x 8192, 36 cluster tiles over the tail ranges: 71-73 % -> 101-103 %),
//     timed with the host's launch work; GPU time only, 79-82 % at 512 x 512 x 16384 and 86-91 %
//     at 512 x 512 x 32768.
//   - A short step between two tiles, where the tensor cores wait: the tile's first MMA overwrites
//     the accumulators (scale-d 0) instead of 128 register writes zeroing them, the next tile is
//     looked up while the last MMAs drain, and a block's last wait is for the staging's reads
//     only (the kernel's end covers the writes). +0.3-0.5 points of cuBLAS at 4096^3 on the H100
//     (14 alternating rounds), +0.5-0.7 on the H200 (six).
//   - Where alpha is 1 (the usual case) the epilogue stores the accumulators as they are, without
//     the multiply, as cuBLAS's kernel does: 0.3-0.5 % less time at 4096^3 on the H100 (26
//     alternating rounds in three calls).
//   - The stores are issued as cuBLAS's kernel issues them, from uniform registers: one elected
//     lane of a warp ptxas knows is uniform, instead of thread 0 (whose operands nvcc moved
//     through R2UR in a loop over the lanes), and the staging written at immediate offsets from
//     four bases per thread: 9 % fewer instructions, 0.5 % fewer SM cycles, the time level.
// K must be a multiple of 8 (TMA's 16-byte row strides); any M and N.
// The kernel: 17_persistent.cuh (persistent_kernel).
// Measured, GPU time only (ratio to cuBLAS timed in turns), 2026-11-27 07:04-07:22Z: H100
// 100.7-101.2 % at 4096^3 (nine rounds on two machines; bench runs 100.8 % and 101.0 %),
// 104.9-112.4 % at 8192^3 in the bench runs; H200 100.9-101.1 % (three rounds; bench run
// 100.5 %) and 104.2 %. Before the narrowed rows (04:21-04:52Z): 99.6-100.0 % and 99.6-100.5 %
// at 4096^3.
// CUTLASS 3.x's sm90 kernels timed in turns with it (fp16_tune): 98.4-99.4 % (96.4 % in one
// round) and 99.3-102.1 % (H100). Runs and method: HOPPER_NOTES.md.
//
// Run: gemmlab bench --stages cluster,persistent --sizes 4096,8192 --check
#include "17_persistent.cuh"
#include "hopper_launch.cuh"

#include <atomic>
#include <cstdlib>

namespace gemmlab::kernels {
namespace {

using Stage = hopper::PersistentStage;  // stage 16's tile and clusters (hopper_shapes.h)
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
  // Measurement only (HOPPER_NOTES.md): GEMMLAB_PERSISTENT_VARIANT=1 runs 3 stages with 4 staging
  // slots per consumer (32 KB) instead of 4 stages with 2; =2 one slot, each chunk's TMA store
  // done reading it before the next chunk is written (no STS while the copy engine reads); =3 no B
  // multicast (each block loads its whole B box).
  static const int variant = [] {
    const char* v = std::getenv("GEMMLAB_PERSISTENT_VARIANT");
    return v ? std::atoi(v) : 0;
  }();
  if (variant == 1) return launch<hopper::WgmmaShape<128, 256, 3, true>, 4>(args, map_a, map_b_half);
  if (variant == 2) return launch<Shape, 1>(args, map_a, map_b_half);
  if (variant == 3) return launch<Shape, Stage::kStagingSlots, false>(args, map_a, map_b_half);
  return launch<Shape, Stage::kStagingSlots>(args, map_a, map_b_half);
}

}  // namespace

StageLaunch launch_persistent() { return {check_persistent, workspace, run_persistent}; }

}  // namespace gemmlab::kernels
