#include "fp16_tune/variants.h"
#include "stages/fp16/ldmatrix_fragments.cuh"

using namespace gemmlab::kernels;

namespace {

size_t no_workspace(int, int, int) { return 0; }
template <class S, fp16::FragmentLoad kLoad, bool kSwizzled>
StageLaunch get() {
  return {fp16::check_grid_m_by_n_128, no_workspace, fp16::launch_sync_tile<S, kLoad, kSwizzled>};
}

}  // namespace

std::vector<StageInfo> fp16_tune::sync_variants() {
  using K64 = fp16::SyncTileShape<64>;
  return {
      variant("mma-sync/k64", "8 tile k 64", 128, 128, 64, 256, get<K64, fp16::FragmentLoad::Lds32, false>),
      variant("ldmatrix/k64", "9 tile k 64", 128, 128, 64, 256, get<K64, fp16::FragmentLoad::Ldmatrix, false>),
      variant("smem-swizzle/k64", "10 tile k 64", 128, 128, 64, 256, get<K64, fp16::FragmentLoad::Ldmatrix, true>),
  };
}
