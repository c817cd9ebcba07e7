#include "fp16_tune/variants.h"
#include "stages/fp16_staged_epilogue.cuh"

using namespace gemmlab::kernels;

namespace {

size_t no_workspace(int, int, int) { return 0; }
template <class S, int kStride>
const char* check(int m, int n, int k) {
  return fp16::check_serpentine<S>(m, n, k, kStride);
}
template <class S, int kStride>
cudaError_t launch(const GemmArgs& args) {
  return fp16::launch_staged_epilogue<S>(args, kStride);
}
template <class S, int kStride>
StageLaunch get() {
  return {check<S, kStride>, no_workspace, launch<S, kStride>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::epilogue_variants() {
  using K32S4 = fp16::MultistageShape<128, 256, 32, 4, 64, 64>;  // the stage's own shape
  using K32S3 = fp16::MultistageShape<128, 256, 32, 3, 64, 64>;
  using K64S3 = fp16::MultistageShape<128, 256, 64, 3, 64, 64>;
  using K64S4 = fp16::MultistageShape<128, 256, 64, 4, 64, 64>;
  using Tall = fp16::MultistageShape<256, 128, 32, 4, 64, 64>;     // warps 4 x 2
  return {
      {"epilogue/sw2", "12 stride 2", Track::fp16, "", 128, 256, 32, 256, get<K32S4, 2>},
      {"epilogue/sw16", "12 stride 16", Track::fp16, "", 128, 256, 32, 256, get<K32S4, 16>},
      {"epilogue/k32s3", "12 k32 3 stages", Track::fp16, "", 128, 256, 32, 256, get<K32S3, 8>},
      {"epilogue/k64s3", "12 k64 3 stages", Track::fp16, "", 128, 256, 64, 256, get<K64S3, 8>},
      {"epilogue/k64s4", "12 k64 4 stages", Track::fp16, "", 128, 256, 64, 256, get<K64S4, 8>},
      {"epilogue/256x128", "12 256x128", Track::fp16, "", 256, 128, 32, 256, get<Tall, 8>},
  };
}
