// Exercise 15-tma/box-coords on the GPU: stage 15's kernel (stages/hopper/15_tma, the kernel and
// main loop of stages/hopper/tma_mainloop.cuh) with the learner's tma_box(...) placing every A and
// B box the producer issues. The tensor maps are the stage's (hopper_host.cu), made on the host and
// passed as __grid_constant__ parameters. NVRTC compiles this file (for sm_90a) with the learner's
// after it (grade_device_gpu.cpp); nothing else includes it.
//
// The copies are the stage's TmaCopies with issue() asking the learner, not TmaCopies with a
// coordinate parameter: start() and copy_step() call issue() directly, so a derived struct
// restates those two (a few lines) and the stage's code stays as lesson 15 shows it.
#pragma once
#include "stages/hopper/tma_mainloop.cuh"

// The learner's: where the box of `operand` (0: A, 1: B) for `k_tile` of block (m_block, n_block)
// starts, in elements, inner (along K) first.
void tma_box(int operand, int m_block, int n_block, int k_tile, int* inner, int* outer);

namespace gemmlab::kernels::exercise_gpu {

using TmaShape = hopper::TmaStage::Shape;

// The host grade's domain (grader_tma_box.cpp: the 512 x 512 x 512 problem): blocks and k-tiles
// outside it get the stage's own boxes, so the learner's function runs only where it was graded.
constexpr int kGradedMBlocks = 512 / TmaShape::kTileM, kGradedNBlocks = 512 / TmaShape::kTileN;
constexpr int kGradedKTiles = 512 / TmaShape::kTileK;

// What the copy engine does with a box that is not the stage's: elements outside the tensor are
// zero-filled (PTX ISA, "Tensors", tiled mode, out of boundary access; the stage's tensor maps ask
// for zeros), as they are for the stage's own boxes past K. So no clamp is needed for a box that
// crosses the tensor's edge; the harness still keeps each start within one box of the tensor (a box
// near INT_MAX would leave the coordinates' int range) and the inner start on 8 halves (the ISA asks
// for 16-byte aligned boxes; the rows are K halves apart, K % 8 == 0). A box the host grade passed
// (inner 64 t, outer 128 m or 256 n) is left as it is; any other gives a wrong C, never a fault.
__device__ __forceinline__ int inside_by_a_box(int x, int box, int extent) {
  return x < -box ? -box : (x > extent ? extent : x);
}

template <class S>
struct LearnerTmaCopies : hopper::TmaCopies<S> {
  using Base = hopper::TmaCopies<S>;
  int m_block, n_block, k_tiles;
  int M, N, K;

  __device__ __forceinline__ void issue(int tile, int stage) const {  // the issuer only
    __half* dst = this->tiles + stage * S::kStageHalves;
    int ax = tile * S::kTileK, ay = this->m0, bx = ax, by = this->n0;  // the stage's boxes
    if (tile < k_tiles && tile < kGradedKTiles && m_block < kGradedMBlocks && n_block < kGradedNBlocks) {
      ax = ay = bx = by = -2147483647;  // left so by the learner: clamped, zeros, a wrong C
      ::tma_box(0, m_block, n_block, tile, &ax, &ay);
      ::tma_box(1, m_block, n_block, tile, &bx, &by);
      ax = inside_by_a_box(ax, S::kTileK, K) & ~7, ay = inside_by_a_box(ay, S::kTileM, M);
      bx = inside_by_a_box(bx, S::kTileK, K) & ~7, by = inside_by_a_box(by, S::kTileN, N);
    }
    hopper::mbarrier_arrive_expect_tx(&this->full[stage], Base::kTxBytes);
    hopper::tma_load_2d(dst, this->map_a, &this->full[stage], ax, ay);
    hopper::tma_load_2d(dst + S::kBOffsetHalves, this->map_b, &this->full[stage], bx, by);
  }
  __device__ __forceinline__ void start() const {
    if (this->issuer)
      for (int s = 0; s < S::kStages - 1; ++s) issue(s, s);
    this->await(0);
  }
  __device__ __forceinline__ void copy_step(int step, int& next_tile, int& write_stage) const {
    if (step != 0) return;
    if (this->issuer) issue(next_tile, write_stage);
    ++next_tile;
    write_stage = write_stage == S::kStages - 1 ? 0 : write_stage + 1;
  }
};

// Stage 15's kernel (tma_mma_sync_kernel<TmaStage::Shape>) with LearnerTmaCopies in its main loop.
__global__ void __launch_bounds__(TmaShape::kThreads, 1)
    tma_box_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float* C,
                   int M, int N, int K, float alpha, float beta, bool vector_c) {
#if GEMMLAB_SM90A
  using S = TmaShape;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __half* tiles = reinterpret_cast<__half*>(hopper::align_tiles(smem_raw));
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + S::kStages * S::kStageHalves);

  const auto [m0, n0] = hopper::serpentine_tile_origin<S>();
  if (n0 >= N) return;  // a no-op block of the last z slab

  if (threadIdx.x == 0) hopper::start_pipeline(&map_a, &map_b, full, nullptr, S::kStages, 0);
  __syncthreads();

  float acc[S::kWarpM / 16][S::kWarpN / 8][4] = {};
  const int thread = threadIdx.x, warp = thread / 32;
  const int warp_m = (warp / S::kWarpsN) * S::kWarpM, warp_n = (warp % S::kWarpsN) * S::kWarpN;
  {
    using Layout = hopper::TmaMainloop<S>::Layout;
    const fp16::LdsmLaneOffsets lane = fp16::LdsmLaneOffsets::of<Layout>(warp_m, warp_n, thread % 32);
    const int k_tiles = fp16::tiles_of(K, S::kTileK);
    LearnerTmaCopies<S> copies{{&map_a, &map_b, tiles, full, m0, n0, thread == 0},
                               m0 / S::kTileM, n0 / S::kTileN, k_tiles, M, N, K};
    fp16::run_multistage_k_tiles<S, true>(acc, copies, k_tiles, hopper::smem_u32(tiles), 2u * lane.a,
                                          S::kBOffsetHalves * 2 + 2u * lane.b);
  }
  __syncthreads();  // every warp is done with the pipeline's buffers

  float* staged = reinterpret_cast<float*>(tiles) + fp16::StagedEpilogue<S>::Layout::buffer(warp);
  fp16::StagedEpilogue<S>::store(acc, staged, C, M, N, m0 + warp_m, n0 + warp_n, thread % 32, alpha, beta,
                                 vector_c);
#endif
}

}  // namespace gemmlab::kernels::exercise_gpu
