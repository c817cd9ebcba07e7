#include "fp16_tune/variants.h"
#include "stages/fp16/fp16_mainloop.cuh"

using namespace gemmlab::kernels;

namespace {

size_t no_workspace(int, int, int) { return 0; }
template <class S, int kMinBlocks>
StageLaunch get() {
  return {fp16::check_grid_m_by_n_128, no_workspace, fp16::launch_multistage_direct<S, kMinBlocks>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::multistage_variants() {
  using K32S3 = fp16::MultistageShape<128, 128, 32, 3, 64, 32>;
  using K64S3 = fp16::MultistageShape<128, 128, 64, 3, 64, 32>;
  using K64S4 = fp16::MultistageShape<128, 128, 64, 4, 64, 32>;
  return {
      variant("multistage/k32s3", "11 k32 3 stages", 128, 128, 32, 256, get<K32S3, 1>),
      variant("multistage/k64s3", "11 k64 3 stages", 128, 128, 64, 256, get<K64S3, 1>),
      variant("multistage/k64s4", "11 k64 4 stages", 128, 128, 64, 256, get<K64S4, 1>),
  };
}
