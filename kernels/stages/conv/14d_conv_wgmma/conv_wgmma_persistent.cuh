// Stages 14d and 14e on the many-tile layers: the same block, kept resident over several tiles.
//
// A 1x1 layer of ResNet-50 has a short K (64-512 channels: 1-8 k-tiles), so a block of the plain
// launch spends most of its life waiting: for its first boxes (the load latency), then for its
// stores; two blocks an SM hide little of it. Here a block stays and takes tiles b, b + grid,
// b + 2 grid ... (conv::ConvWork::persistent_grid): its producer thread loads the next tile's boxes
// while the consumers are still in the last tile's epilogue, since the ring's stage and phase
// counter `it` runs on over the tiles. The fused epilogue stages its tile in shared memory of its
// own (past the row origins), which the producer never writes.
//
//   im2col loads only (one producer thread), one k slice per tile (no cluster), 3 stages so that two
//   blocks with their staging buffers fit an SM.
#pragma once
#include "stages/conv/14d_conv_wgmma/conv_wgmma.cuh"

namespace gemmlab::kernels::conv {

template <class S, bool kFused>
__device__ __forceinline__ void conv_wgmma_persistent_block(const CUtensorMap& map_filter, const CUtensorMap& map_input,
                                                            const ConvOut& out, const Shape& sh, const ConvWork& work) {
#if GEMMLAB_SM90A
  constexpr int kS = S::kStages;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char* tiles = hopper::align_tiles(smem_raw);
  uint64_t* full = reinterpret_cast<uint64_t*>(tiles + kS * S::kStageBytes);
  uint64_t* empty = full + kS;
  // The staging buffer: where the plain block keeps its row origins (unused with im2col boxes).
  unsigned char* staging = reinterpret_cast<unsigned char*>(empty + kS);
  if (threadIdx.x == 0) {
    hopper::tma_prefetch_descriptor(&map_filter);
    hopper::tma_prefetch_descriptor(&map_input);
    for (int s = 0; s < kS; ++s) {
      hopper::mbarrier_init(&full[s], 1);
      hopper::mbarrier_init(&empty[s], 4 * S::kConsumers);
    }
    hopper::fence_barrier_init();
  }
  __syncthreads();

  const long long blocks = work.blocks();
  int it = 0;
  if (threadIdx.x < 128) {
    if (threadIdx.x != 0) return;
#pragma unroll 1
    for (long long b = blockIdx.x; b < blocks; b += gridDim.x)
      produce_tma_tile<S, false>(map_filter, map_input, sh, tiles, full, empty, work.block(int(b)), it);
    return;
  }

  const bool warp_leader = threadIdx.x % 32 == 0;
  auto release = [&](int stage) {
    if (warp_leader) hopper::mbarrier_arrive(&empty[stage]);
  };
#pragma unroll 1
  for (long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    const ConvBlock job = work.block(int(b));
    float d[S::kAccumulators];
    hopper::consume_k_tiles<S, decltype(release), false, /*kOverwrite=*/true>(
        d, hopper::smem_u32(tiles), full, threadIdx.x / 128 - 1, job.k_begin, job.k_end, it, release);
    unsigned thread;  // read afresh, as in conv_wgmma_block
    asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(thread));
    const int m0 = job.m_tile * S::kTileM, n0 = job.n_tile * S::kTileN;
    if constexpr (kFused) {
      if (fused_vectors_fit(sh, out.f16, out.bias, out.residual))
        store_fused_staged<S>(d, staging, out.f16, out.bias, out.residual, out.relu, out.alpha, sh, m0, n0,
                              int(thread) - 128);
      else
        store_fused_rows<S>(d, out, sh, m0 + 64 * int(thread / 128 - 1), n0, int(thread % 128));
    } else {
      store_output_rows<S>(d, out.f32, sh, m0 + 64 * int(thread / 128 - 1), n0, int(thread % 128), out.alpha, out.beta);
    }
  }
#endif
}

template <class S, int kMinBlocks>
__global__ void __launch_bounds__(S::kThreads, kMinBlocks)
    conv_wgmma_persistent_kernel(const __grid_constant__ CUtensorMap map_filter,
                                 const __grid_constant__ CUtensorMap map_input, ConvOut out, Shape sh, ConvWork work) {
  conv_wgmma_persistent_block<S, false>(map_filter, map_input, out, sh, work);
}
template <class S, int kMinBlocks>
__global__ void __launch_bounds__(S::kThreads, kMinBlocks)
    conv_wgmma_fused_persistent_kernel(const __grid_constant__ CUtensorMap map_filter,
                                       const __grid_constant__ CUtensorMap map_input, ConvOut out, Shape sh,
                                       ConvWork work) {
  conv_wgmma_persistent_block<S, true>(map_filter, map_input, out, sh, work);
}

}  // namespace gemmlab::kernels::conv
