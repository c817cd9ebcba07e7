// Stage 19c (`auto`), lesson 19-persistent (sm_90a). Adds over stage 19a: no kernel of its own, a
// choice. Per problem it runs the launch of stage 17 (warp-specialized, 128 x 256 tiles), 19a
// (persistent), 19b or 19d (split-K on 64- or 128-row tiles, two blocks per SM) or 19e or 19f (the
// same on a deep pipeline, one block per SM) that gemmlab/auto_dispatch.h's rule picks from the
// tiles each would make against this GPU's SMs; the stages' own launch functions run it, so there
// is nothing here to keep in step with them. Its checks and workspace are the chosen stage's.
// Run: gemmlab bench --stages wgmma-split-k,persistent,auto --sizes 16x8192x8192,64x28672x8192,1024
#include "gemmlab/auto_dispatch.h"
#include "stage_api.h"

namespace gemmlab::kernels {
namespace {

// The launch the rule picks on the current GPU, or nullptr where no GPU answers.
StageLaunch (*picked(int m, int n, int k))() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
    return nullptr;
  if (m < 1 || n < 1 || k < 1) return launch_persistent;  // its check names the bad size
  switch (pick_auto_launch(m, n, k, sms).launch) {
    case AutoLaunch::WarpSpecialized: return launch_warp_specialized;
    case AutoLaunch::Persistent: return launch_persistent;
    case AutoLaunch::SplitK: return launch_wgmma_split_k;
    case AutoLaunch::SplitK128: return launch_wgmma_split_k_128;
    case AutoLaunch::Deep: return launch_wgmma_deep;
    case AutoLaunch::DeepRows: return launch_wgmma_deep_128;
  }
  return launch_persistent;
}

const char* check_auto(int m, int n, int k) {
  auto* stage = picked(m, n, k);
  return stage ? stage().check(m, n, k) : "no CUDA device could be queried";
}
size_t workspace_auto(int m, int n, int k) {
  auto* stage = picked(m, n, k);
  return stage ? stage().workspace(m, n, k) : 0;
}
cudaError_t run_auto(const GemmArgs& args) {
  auto* stage = picked(args.m, args.n, args.k);
  return stage ? stage().launch(args) : cudaErrorNoDevice;
}

}  // namespace

StageLaunch launch_auto() { return {check_auto, workspace_auto, run_auto}; }

}  // namespace gemmlab::kernels
