// The host side of stages 14d and 14e: the tensor maps, the tile and work split of conv::wgmma_tile
// and wgmma_work, and the launch (a cluster per tile where its k slices add up). 14d writes fp32
// (ConvArgs::output), 14e the fused fp16 epilogue (ConvArgs::output_f16, bias, residual, relu).
#pragma once
#include "stages/conv/14d_conv_wgmma/conv_wgmma.cuh"
#include "stages/conv/14d_conv_wgmma/conv_wgmma_persistent.cuh"
#include "stages/conv/conv_stage.cuh"
#include "stages/hopper/hopper_host.h"
#include "stages/hopper/hopper_launch.cuh"

namespace gemmlab::kernels::conv_wgmma {

using Stage = hopper::ConvWgmmaStage;
using conv::ALoad;

template <bool kFused, class S, int kMinBlocks, ALoad kLoad>
constexpr auto kernel_of() {
  if constexpr (kFused) return conv::conv_wgmma_fused_kernel<S, kMinBlocks, kLoad>;
  else return conv::conv_wgmma_kernel<S, kMinBlocks, kLoad>;
}

// Any C (conv_alignment.h): C % 8 != 0 takes the element-by-element producer (GatherScalar).
template <bool kFused>
const char* check(const conv::Shape& sh) {
  if (const char* why = hopper::check_hopper_device(reinterpret_cast<const void*>(
          kernel_of<kFused, Stage::Shape, Stage::kBlocksPerSm, ALoad::Gather>())))
    return why;
  return conv::check_problem(sh);
}

// The activations' map: the TMA's im2col boxes, or (kMatrix: conv::a_is_matrix) the input as the
// plain [M][C] matrix with 2D boxes of the tile's rows, as the GEMM stages load A.
template <class S, bool kMatrix>
cudaError_t encode_input_map(CUtensorMap* map, const ConvArgs& a) {
  if constexpr (kMatrix) return hopper::encode_operand_map(map, a.input, int(a.shape.gemm_m()), a.shape.c, S::kTileM);
  return hopper::encode_im2col_map(map, a.input, a.shape, S::kTileM);
}

template <bool kFused, class S, int kMinBlocks, ALoad kLoad>
cudaError_t launch(const ConvArgs& a, const conv::ConvWork& work) {
  CUtensorMap map_filter{}, map_input{};
  if constexpr (kLoad != ALoad::Scalar)
    if (const cudaError_t e = hopper::encode_operand_map(&map_filter, a.filter, a.shape.k, int(a.shape.gemm_k()), S::kTileN);
        e != cudaSuccess)
      return e;
  if constexpr (kLoad == ALoad::Im2col || kLoad == ALoad::Matrix)
    if (const cudaError_t e = encode_input_map<S, kLoad == ALoad::Matrix>(&map_input, a); e != cudaSuccess) return e;
  const auto kernel = kernel_of<kFused, S, kMinBlocks, kLoad>();
  constexpr std::size_t kSmem = Stage::smem_bytes<S>();
  if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
      e != cudaSuccess)
    return e;
  const auto input = static_cast<const __half*>(a.input);
  const auto filter = static_cast<const __half*>(a.filter);
  const conv::ConvOut out{a.output, a.alpha, a.beta, static_cast<__half*>(a.output_f16), a.bias,
                          static_cast<const __half*>(a.residual), a.relu};
  if (work.splits == 1) {
    kernel<<<unsigned(work.blocks()), S::kThreads, kSmem, a.stream>>>(map_filter, map_input, input, filter, out,
                                                                       a.shape, work);
    return cudaGetLastError();
  }
  // The k slices of a tile are one cluster (they add up in its first block's shared memory).
  const hopper::ClusterLaunch launch(dim3(unsigned(work.blocks())), dim3(unsigned(work.splits)), S::kThreads, kSmem,
                                     a.stream);
  return cudaLaunchKernelEx(&launch.config, kernel, map_filter, map_input, input, filter, out, a.shape, work);
}

// The resident blocks (conv::wgmma_persistent_grid): im2col boxes, 64 x 128 tiles, one k slice.
template <bool kFused>
cudaError_t launch_persistent(const ConvArgs& a, const conv::ConvWork& work, long long grid) {
  using S = Stage::PersistentShape;
  CUtensorMap map_filter{}, map_input{};
  if (const cudaError_t e = hopper::encode_operand_map(&map_filter, a.filter, a.shape.k, int(a.shape.gemm_k()), S::kTileN);
      e != cudaSuccess)
    return e;
  if (const cudaError_t e = encode_input_map<S, false>(&map_input, a); e != cudaSuccess) return e;
  const auto kernel = kFused ? conv::conv_wgmma_fused_persistent_kernel<S, conv::kPersistentBlocksPerSm>
                             : conv::conv_wgmma_persistent_kernel<S, conv::kPersistentBlocksPerSm>;
  constexpr std::size_t kSmem = Stage::persistent_smem_bytes<S>();
  if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
      e != cudaSuccess)
    return e;
  const conv::ConvOut out{a.output, a.alpha, a.beta, static_cast<__half*>(a.output_f16), a.bias,
                          static_cast<const __half*>(a.residual), a.relu};
  kernel<<<unsigned(grid), S::kThreads, kSmem, a.stream>>>(map_filter, map_input, out, a.shape, work);
  return cudaGetLastError();
}

// The tile of conv::wgmma_tile for this load; the scalar producer takes the gathered tiles.
template <bool kFused, ALoad kLoad>
cudaError_t launch_gathered(const ConvArgs& a, const conv::WgmmaTile& t, const conv::ConvWork& work) {
  return t.n == 64 ? launch<kFused, Stage::NarrowShape, Stage::kNarrowBlocksPerSm, kLoad>(a, work)
                   : launch<kFused, Stage::Shape, Stage::kBlocksPerSm, kLoad>(a, work);
}

// The tile of conv::wgmma_tile with A by TMA boxes, im2col or 2D ones.
template <bool kFused, ALoad kLoad>
cudaError_t launch_boxes(const ConvArgs& a, const conv::WgmmaTile& t, const conv::ConvWork& work) {
  if (t.m == 128) return launch<kFused, Stage::TallNarrowShape, Stage::kTallNarrowBlocksPerSm, kLoad>(a, work);
  if (t.m == 256) return launch<kFused, Stage::TallShape, Stage::kTallBlocksPerSm, kLoad>(a, work);
  return launch<kFused, Stage::Shape, Stage::kBlocksPerSm, kLoad>(a, work);
}

template <bool kFused>
cudaError_t run(const ConvArgs& a) {
  if (check<kFused>(a.shape) != nullptr) return cudaErrorInvalidValue;
  // 14d writes fp32 only, 14e fp16 only, with its bias.
  if (kFused != (a.output_f16 != nullptr) || (kFused && a.bias == nullptr)) return cudaErrorInvalidValue;
  const int sms = conv::multiprocessors();
  const bool im2col = conv::im2col_tma_fits(a.shape);
  const conv::WgmmaTile t = conv::wgmma_tile(a.shape, sms, im2col);
  const conv::ConvWork work = conv::wgmma_work(a.shape, sms, im2col);
  if (a.shape.c % 8 != 0) return launch_gathered<kFused, ALoad::Scalar>(a, t, work);
  if (!im2col) return launch_gathered<kFused, ALoad::Gather>(a, t, work);
  if (const long long grid = conv::wgmma_persistent_grid(a.shape, sms, im2col); grid > 0)
    return launch_persistent<kFused>(a, work, grid);  // (im2col boxes: conv::wgmma_work says why)
  return work.a_matrix ? launch_boxes<kFused, ALoad::Matrix>(a, t, work) : launch_boxes<kFused, ALoad::Im2col>(a, t, work);
}

}  // namespace gemmlab::kernels::conv_wgmma
