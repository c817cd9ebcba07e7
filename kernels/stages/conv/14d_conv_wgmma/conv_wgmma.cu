// Stage 14d (`conv-wgmma`), lesson 14-implicit-gemm (sm_90a). Stage 14a's implicit GEMM on the
// Hopper ladder: wgmma consumers with full / empty mbarriers (stages 16-17), filters by TMA, and
// activations by the TMA's im2col mode where C is a multiple of 64 (else gathered with cp.async by
// a producer warpgroup); tiles and split-k clusters by problem (conv::wgmma_tile, wgmma_work).
// The kernel is conv_wgmma.cuh. C a multiple of 8.
// Run: gemmlab bench --conv resnet50 --stages conv-fp16,conv-wgmma

#include "stages/conv/14d_conv_wgmma/conv_wgmma.cuh"
#include "stages/conv/conv_stage.cuh"
#include "stages/hopper/hopper_host.h"
#include "stages/hopper/hopper_launch.cuh"

namespace gemmlab::kernels {
namespace {

using Stage = hopper::ConvWgmmaStage;
const void* kKernel = reinterpret_cast<const void*>(conv::conv_wgmma_kernel<Stage::Shape, Stage::kBlocksPerSm, false>);

const char* check_conv_wgmma(const conv::Shape& sh) {
  if (const char* why = hopper::check_hopper_device(kKernel)) return why;
  return conv::check_shape(sh, conv::Element::F16);
}

template <class S, int kMinBlocks, bool kIm2col>
cudaError_t launch(const ConvArgs& a, const conv::ConvWork& work) {
  CUtensorMap map_filter, map_input{};
  if (const cudaError_t e = hopper::encode_operand_map(&map_filter, a.filter, a.shape.k, int(a.shape.gemm_k()), S::kTileN);
      e != cudaSuccess)
    return e;
  if constexpr (kIm2col)
    if (const cudaError_t e = hopper::encode_im2col_map(&map_input, a.input, a.shape, S::kTileM); e != cudaSuccess) return e;
  const auto kernel = conv::conv_wgmma_kernel<S, kMinBlocks, kIm2col>;
  constexpr std::size_t kSmem = Stage::smem_bytes<S>();
  if (const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
      e != cudaSuccess)
    return e;
  const auto input = static_cast<const __half*>(a.input);
  if (work.splits == 1) {
    kernel<<<unsigned(work.blocks()), S::kThreads, kSmem, a.stream>>>(map_filter, map_input, input, a.output, a.shape,
                                                                       work, a.alpha, a.beta);
    return cudaGetLastError();
  }
  // The k slices of a tile are one cluster (they add up in its first block's shared memory).
  const hopper::ClusterLaunch launch(dim3(unsigned(work.blocks())), dim3(unsigned(work.splits)), S::kThreads, kSmem,
                                     a.stream);
  return cudaLaunchKernelEx(&launch.config, kernel, map_filter, map_input, input, a.output, a.shape, work, a.alpha,
                            a.beta);
}

cudaError_t run_conv_wgmma(const ConvArgs& a) {
  if (check_conv_wgmma(a.shape) != nullptr) return cudaErrorInvalidValue;
  const int sms = conv::multiprocessors();
  const bool im2col = conv::im2col_tma_fits(a.shape);
  const conv::WgmmaTile t = conv::wgmma_tile(a.shape, sms, im2col);
  const conv::ConvWork work = conv::wgmma_work(a.shape, sms, im2col);
  if (!im2col)
    return t.n == 64 ? launch<Stage::NarrowShape, Stage::kNarrowBlocksPerSm, false>(a, work)
                     : launch<Stage::Shape, Stage::kBlocksPerSm, false>(a, work);
  if (t.m == 128) return launch<Stage::TallNarrowShape, Stage::kTallNarrowBlocksPerSm, true>(a, work);
  if (t.m == 256) return launch<Stage::TallShape, Stage::kTallBlocksPerSm, true>(a, work);
  return launch<Stage::Shape, Stage::kBlocksPerSm, true>(a, work);
}

}  // namespace

StageLaunch launch_conv_wgmma() {
  return {conv::refuse_gemm, conv::no_workspace, nullptr, check_conv_wgmma, run_conv_wgmma};
}

}  // namespace gemmlab::kernels
