// Stage 21 - conv-wgmma (sm_90a only): stage 18's implicit GEMM on the Hopper track (lessons 13-17).
// Stage 18 ends at 45-75% of cuDNN on ResNet-50's 3x3 layers: mma.sync cannot keep Hopper's tensor
// cores busy, and cuDNN's kernels there are wgmma kernels. What changes:
//   - the math is wgmma straight from shared memory (stage 14), in consumer warpgroups that only
//     wait for data (stage 15's full / empty mbarriers);
//   - the filters (KRSC, the GEMM's K-contiguous B) arrive by TMA, one 64-channel box per k-tile;
//   - the activations arrive by the TMA's im2col mode where C is a multiple of 64: one box of
//     kTileM pixels x 64 channels per k-tile, the copy engine walking the output pixels and their
//     filter tap itself, padding and image edges zero-filled (the address function of stage 18 in
//     hardware; gemmlab/conv_problem.h, im2col_box). Against gathering them with cp.async in a
//     producer warpgroup (the fallback for other C, GEMMLAB_CONV_IM2COL=0 to compare): +7 to +30%
//     on the 3x3 layers (H100, CONV_NOTES.md), the producer's address arithmetic was the bottleneck;
//   - tiles by problem (conv::wgmma_tile): 128 x 64 where K <= 64, 256 x 128 where those fill one
//     wave of SMs, else 64 x 128 at two blocks per SM;
//   - split-k where the tiles leave SMs idle and K is long (conv::wgmma_work: the 7x7 layer), each
//     tile's slices one cluster that adds up in its first block's distributed shared memory: no
//     zeroed output and no atomics (+12% on the 7x7 layer against fp32 atomics).
// C must be a multiple of 8 (16-byte vectors, TMA's 16-byte row strides).
// The kernel: 21_conv_wgmma.cuh. Measured numbers: CONV_NOTES.md.
//
// Run: gemmlab bench --conv resnet50 --stages conv-fp16,conv-wgmma
#include <cstdlib>

#include "21_conv_wgmma.cuh"
#include "conv_stage.cuh"
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

// GEMMLAB_CONV_IM2COL=0 gathers A where the TMA's im2col boxes could load it: a knob for comparing
// the two copies on one GPU (kernels/tools/conv_tiles.sh, CONV_NOTES.md), not for use.
bool gather_forced() {
  const char* e = std::getenv("GEMMLAB_CONV_IM2COL");
  return e && *e == '0';
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
  const bool im2col = conv::im2col_tma_fits(a.shape) && !gather_forced();
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
