#include "fp16_tune/variants.h"
#include "stages/fp16/staged_epilogue.cuh"

using namespace gemmlab::kernels;

namespace {

size_t no_workspace(int, int, int) { return 0; }
template <class S, int kStride>
const char* check(int m, int n, int k) {
  return fp16::check_serpentine<S>(m, n, k, kStride);
}
// kMinBlocks: __launch_bounds__ blocks per SM (2: two independent blocks share an SM);
// kCopyParts: the next tile's cp.async spread over that many k16 steps (11_multistage.cuh).
template <class S, int kStride, int kMinBlocks = 1, int kCopyParts = 1>
cudaError_t launch(const GemmArgs& args) {
  return fp16::launch_staged_epilogue<S, kMinBlocks, kCopyParts>(args, kStride);
}
template <class S, int kStride, int kMinBlocks = 1, int kCopyParts = 1>
StageLaunch get() {
  return {check<S, kStride>, no_workspace, launch<S, kStride, kMinBlocks, kCopyParts>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::epilogue_variants() {
  // Stage 12's shape until 2026-11-26 (the variants below that name no other tile vary it):
  // 128x256x32, 4 stages, the barrier before the last k16 step's mma.
  using K32S4 = fp16::MultistageShape<128, 256, 32, 4, 64, 64>;
  using K32S3 = fp16::MultistageShape<128, 256, 32, 3, 64, 64>;
  using K64S3 = fp16::MultistageShape<128, 256, 64, 3, 64, 64>;
  using K64S4 = fp16::MultistageShape<128, 256, 64, 4, 64, 64>;
  using Tall = fp16::MultistageShape<256, 128, 32, 4, 64, 64>;     // warps 4 x 2, barrier before
  using TallS3 = fp16::MultistageShape<256, 128, 32, 3, 64, 64>;   // 72 KB: CUTLASS 2.x's best sm80 shape on Hopper
  using TallK64S3 = fp16::MultistageShape<256, 128, 64, 3, 64, 64>;  // 144 KB, warps 4 x 2
  using TallS5 = fp16::MultistageShape<256, 128, 32, 5, 64, 64>;     // 120 KB
  using TallS6 = fp16::MultistageShape<256, 128, 32, 6, 64, 64>;     // 144 KB
  using K32S6 = fp16::MultistageShape<128, 256, 32, 6, 64, 64>;      // 144 KB
  // 128x128 tiles, 4 warps of 64x64 (2 x 2, 128 threads), two blocks per SM.
  using SqK64S3 = fp16::MultistageShape<128, 128, 64, 3, 64, 64>;  // 96 KB a block
  using SqK32S4 = fp16::MultistageShape<128, 128, 32, 4, 64, 64>;  // 64 KB a block
  using SqK32S6 = fp16::MultistageShape<128, 128, 32, 6, 64, 64>;  // 96 KB a block
  // Stage 12's order (barrier after the first k16 step's mma) on other depths and tile k.
  using NowS5 = fp16::MultistageShape<256, 128, 32, 5, 64, 64, true>;     // 120 KB
  using NowS6 = fp16::MultistageShape<256, 128, 32, 6, 64, 64, true>;     // 144 KB
  using NowK64S3 = fp16::MultistageShape<256, 128, 64, 3, 64, 64, true>;  // 144 KB
  using Now = fp16::EpilogueStage::Shape;
  return {
      variant("epilogue/now-s5", "12, 5 stages", 256, 128, 32, 256, get<NowS5, 8>),
      variant("epilogue/now-s6", "12, 6 stages", 256, 128, 32, 256, get<NowS6, 8>),
      variant("epilogue/now-k64s3", "12, 256x128x64, 3 stages", 256, 128, 64, 256, get<NowK64S3, 8>),
      variant("epilogue/now-sw4", "12, serpentine stride 4", 256, 128, 32, 256, get<Now, 4>),
      variant("epilogue/now-sw16", "12, serpentine stride 16", 256, 128, 32, 256, get<Now, 16>),
      // Slabs as wide as 8192^3's 64 n tiles (or half): rows swept whole, B re-read from DRAM as
      // with CUTLASS's identity raster (which sweeps m), to see whether the traffic it spreads pays.
      variant("epilogue/now-sw32", "12, serpentine stride 32", 256, 128, 32, 256, get<Now, 32>),
      variant("epilogue/now-sw64", "12, serpentine stride 64", 256, 128, 32, 256, get<Now, 64>),
      variant("epilogue/128x256", "12 until 2026-11-26: 128x256x32", 128, 256, 32, 256, get<K32S4, 8>),
      variant("epilogue/sw2", "12 stride 2", 128, 256, 32, 256, get<K32S4, 2>),
      variant("epilogue/sw16", "12 stride 16", 128, 256, 32, 256, get<K32S4, 16>),
      variant("epilogue/k32s3", "12 k32 3 stages", 128, 256, 32, 256, get<K32S3, 8>),
      variant("epilogue/k64s3", "12 k64 3 stages", 128, 256, 64, 256, get<K64S3, 8>),
      variant("epilogue/k64s4", "12 k64 4 stages", 128, 256, 64, 256, get<K64S4, 8>),
      variant("epilogue/256x128", "12 256x128", 256, 128, 32, 256, get<Tall, 8>),
      variant("epilogue/256x128s3", "12 256x128x32 3 stages", 256, 128, 32, 256, get<TallS3, 8>),
      variant("epilogue/256x128sw1", "12 256x128, stride 1", 256, 128, 32, 256, get<Tall, 1>),
      variant("epilogue/256x128sw4", "12 256x128, stride 4", 256, 128, 32, 256, get<Tall, 4>),
      variant("epilogue/k64s3p3", "12 k64 3 stages, copy over 3 steps", 128, 256, 64, 256, get<K64S3, 8, 1, 3>),
      variant("epilogue/256x128k64", "12 256x128x64 3 stages", 256, 128, 64, 256, get<TallK64S3, 8>),
      variant("epilogue/256x128k64sw4", "12 256x128x64 3 st, stride 4", 256, 128, 64, 256, get<TallK64S3, 4>),
      variant("epilogue/256x128k64sw16", "12 256x128x64 3 st, stride 16", 256, 128, 64, 256, get<TallK64S3, 16>),
      variant("epilogue/256x128s5", "12 256x128x32 5 stages", 256, 128, 32, 256, get<TallS5, 8>),
      variant("epilogue/256x128s6", "12 256x128x32 6 stages", 256, 128, 32, 256, get<TallS6, 8>),
      variant("epilogue/k32s6", "12 k32 6 stages", 128, 256, 32, 256, get<K32S6, 8>),
      variant("epilogue/sq64s3x2", "12 128x128x64 3 st, 2 blocks/SM", 128, 128, 64, 128, get<SqK64S3, 8, 2>),
      variant("epilogue/sq64s3x2p3", "12 128x128x64 3 st, 2/SM, copy/3", 128, 128, 64, 128, get<SqK64S3, 8, 2, 3>),
      variant("epilogue/sq32s4x2", "12 128x128x32 4 st, 2 blocks/SM", 128, 128, 32, 128, get<SqK32S4, 8, 2>),
      variant("epilogue/sq32s6x2", "12 128x128x32 6 st, 2 blocks/SM", 128, 128, 32, 128, get<SqK32S6, 8, 2>),
  };
}
