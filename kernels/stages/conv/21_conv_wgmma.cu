// Stage 21 - conv-wgmma (sm_90a only): stage 18's implicit GEMM on the Hopper track (lessons 13-17).
// Stage 18 ends at 45-75% of cuDNN on ResNet-50's 3x3 layers: mma.sync cannot keep Hopper's tensor
// cores busy, and cuDNN's kernels there are wgmma kernels. What changes:
//   - the math is wgmma m64n128k16 straight from shared memory (stage 14), in a consumer
//     warpgroup that only waits for data (stage 15's full / empty mbarriers);
//   - the filters (KRSC, the GEMM's K-contiguous B) arrive by TMA, one 64 x 128 box per k-tile;
//   - the activations cannot: no 2D box holds an im2col tile. The producer warpgroup gathers them
//     with stage 18's address function (row origins once, one tap per vector and k-tile) as
//     cp.async of 16 bytes, zero-filled in the padding, each written where the TMA's 128-byte
//     swizzle would put it (tma::sw128_byte_offset), so wgmma's descriptors read it unchanged.
//     cp.async.mbarrier.arrive.noinc lets the copies themselves complete the stage's full barrier,
//     and the consumer's fence.proxy.async makes those generic-proxy writes visible to wgmma.
//   - 64 x 128 tiles, two blocks per SM (64 x 64 where K <= 64, conv::wgmma_tile_n: 3 stages, four
//     blocks per SM, 6 % faster than 4 stages at three on the 56x56 layer), and split-k
//     where the tiles leave SMs idle and K is long (conv::wgmma_split_k, the 7x7 layer): ResNet-50's
//     small layers have few tiles.
// C must be a multiple of 8 (16-byte vectors, TMA's 16-byte row strides of the filters).
// The kernel: 21_conv_wgmma.cuh. Measured numbers: CONV_NOTES.md.
//
// Run: gemmlab bench --conv resnet50 --stages conv-fp16,conv-wgmma
#include "21_conv_wgmma.cuh"
#include "conv_stage.cuh"
#include "stages/hopper/hopper_host.h"

namespace gemmlab::kernels {
namespace {

using Wide = hopper::ConvWgmmaStage::Shape;         // 64 x 128
using Narrow = hopper::ConvWgmmaStage::NarrowShape;  // 64 x 64
const void* kKernel = reinterpret_cast<const void*>(conv::conv_wgmma_kernel<Wide, hopper::ConvWgmmaStage::kBlocksPerSm>);

const char* check_conv_wgmma(const conv::Shape& sh) {
  if (const char* why = hopper::check_hopper_device(kKernel)) return why;
  return conv::check_shape(sh, conv::Element::F16);
}

template <class S, int kMinBlocks = 2>
cudaError_t launch(const ConvArgs& a) {
  CUtensorMap map_filter;
  if (const cudaError_t e = hopper::encode_operand_map(&map_filter, a.filter, a.shape.k, int(a.shape.gemm_k()), S::kTileN);
      e != cudaSuccess)
    return e;
  if (const cudaError_t e = cudaFuncSetAttribute(conv::conv_wgmma_kernel<S, kMinBlocks>,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize, int(S::kSmemBytes));
      e != cudaSuccess)
    return e;
  const int splits = conv::wgmma_split_k(a.shape, conv::multiprocessors(), a.beta);
  if (splits > 1)  // the slices add into a zeroed output
    if (const cudaError_t e = cudaMemsetAsync(a.output, 0, size_t(a.shape.output_elements()) * 4, a.stream); e != cudaSuccess)
      return e;
  const dim3 grid(unsigned((a.shape.gemm_m() + S::kTileM - 1) / S::kTileM), unsigned((a.shape.k + S::kTileN - 1) / S::kTileN),
                  unsigned(splits));
  conv::conv_wgmma_kernel<S, kMinBlocks><<<grid, S::kThreads, S::kSmemBytes, a.stream>>>(
      map_filter, static_cast<const __half*>(a.input), a.output, a.shape, a.alpha, a.beta);
  return cudaGetLastError();
}

cudaError_t run_conv_wgmma(const ConvArgs& a) {
  if (check_conv_wgmma(a.shape) != nullptr) return cudaErrorInvalidValue;
  using Stage = hopper::ConvWgmmaStage;
  return conv::wgmma_tile_n(a.shape) == 128 ? launch<Wide, Stage::kBlocksPerSm>(a)
                                            : launch<Narrow, Stage::kNarrowBlocksPerSm>(a);
}

}  // namespace

StageLaunch launch_conv_wgmma() {
  return {conv::refuse_gemm, conv::no_workspace, nullptr, check_conv_wgmma, run_conv_wgmma};
}

}  // namespace gemmlab::kernels
