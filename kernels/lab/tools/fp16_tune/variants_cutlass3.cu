// CUTLASS 3.x's sm90 GEMM (TMA + wgmma + warp specialization, persistent) as fp16_tune variants,
// so that stage 17 is timed against the peer of issue 13's Hopper target in the same process,
// the same rounds, the same rotated inputs and the same GPU-time method (a held stream, runner.cu)
// as cuBLAS. Built with variants_cutlass.cu when CMake is given a CUTLASS checkout
// (-DGEMMLAB_CUTLASS_DIR): a measurement of a peer, never a dependency of the product. The
// Release build defines NDEBUG: CUTLASS's device asserts would serialize the wgmma pipeline
// (C7510, hardware_rules.md).
// The schedules hardware_rules.md's "best of 3 schedules" compares, with its tiles:
//   persistent/cutlass3-coop-128x256  cooperative 128x256x64, cluster 2x1 (its best at 4096^3 and
//                                     8192^3 on both GPUs; cuBLAS's own 4096^3 choice on the H100)
//   persistent/cutlass3-coop-128x256-c  the same with an epilogue that can read C (fewer stages)
//   persistent/cutlass3-coop-256x128  cooperative 256x128x64, cluster 1x2 (cuBLAS's on the H200)
//   persistent/cutlass3-pingpong      ping-pong 128x128x64, cluster 2x1 (a tile per consumer warpgroup)
// Stages: as many as fit beside the epilogue's shared memory (StageCountAutoCarveout). All but
// the -c one are built without C (D = alpha A B, beta must be 0), as CUTLASS builds that problem.
#include <type_traits>

#include <cute/tensor.hpp>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

#include "fp16_tune/cutlass_peer.h"
#include "fp16_tune/variants.h"

using namespace gemmlab::kernels;

namespace {

using namespace cute;

// ElementC float: the epilogue can read C (beta != 0) and keeps shared memory for it; void: it
// cannot (beta must be 0), and that memory goes to the main loop's stages (CUTLASS's choice for
// D = alpha A B; the bench's problems have beta = 0).
template <class TileShape, class ClusterShape, class MainloopSchedule, class EpilogueSchedule, class ElementC>
struct Cutlass3 {
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,  // accumulator, compute
      ElementC, cutlass::layout::ColumnMajor, 4,                      // C: m x n, ldc = m
      float, cutlass::layout::ColumnMajor, 4,                         // D: the same tensor
      EpilogueSchedule>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
      cutlass::half_t, cutlass::layout::RowMajor, 8,     // A: m x k, lda = k
      cutlass::half_t, cutlass::layout::ColumnMajor, 8,  // B: k x n, ldb = k
      float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename Epilogue::SharedStorage))>,
      MainloopSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

template <class G>
constexpr bool kReadsC = !std::is_void_v<typename G::GemmKernel::ElementC>;

template <class G>
typename G::Arguments arguments(const GemmArgs& a) {
  using K = typename G::GemmKernel;
  // Packed strides (m, k, batch) / (n, k, batch) / (m, n, batch): A and B k-major, C m-major.
  const int64_t m = a.m, n = a.n, k = a.k;
  const typename K::StrideA stride_a{k, Int<1>{}, m * k};
  const typename K::StrideB stride_b{k, Int<1>{}, n * k};
  const typename K::StrideC stride_c{Int<1>{}, m, m * n};
  const typename K::StrideD stride_d{Int<1>{}, m, m * n};
  // The runner's device and its SM count, asked once: CUTLASS would otherwise ask on every launch.
  static const int device = [] { int d = 0; return cudaGetDevice(&d) == cudaSuccess ? d : 0; }();
  static const int sms = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
  cutlass::KernelHardwareInfo hw;
  hw.device_id = device, hw.sm_count = sms;
  typename G::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                             {a.m, a.n, a.k, 1},
                             {static_cast<const cutlass::half_t*>(a.A), stride_a,
                              static_cast<const cutlass::half_t*>(a.B), stride_b},
                             {{a.alpha, a.beta}, kReadsC<G> ? a.C : nullptr, stride_c, a.C, stride_d},
                             hw};
  return args;
}

template <class G>
const char* check(int m, int n, int k) {
  return fp16_tune::cutlass_peer::check<G, arguments<G>>(
      m, n, k, "K must be a multiple of 8 (TMA's 16-byte row strides)",
      "M must be a multiple of 4 (TMA's 16-byte C row strides)");
}

template <class G>
size_t workspace(int m, int n, int k) {
  GemmArgs a;
  a.m = m, a.n = n, a.k = k;
  return G::get_workspace_size(arguments<G>(a));
}

template <class G>
cudaError_t launch(const GemmArgs& args) {
  if (!kReadsC<G> && args.beta != 0.f) return cudaErrorInvalidValue;  // built without C
  return fp16_tune::cutlass_peer::launch<G, arguments<G>>(args, args.workspace);
}

template <class G>
StageLaunch get() {
  return {check<G>, workspace<G>, launch<G>};
}

using Cooperative = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using CooperativeEpilogue = cutlass::epilogue::TmaWarpSpecializedCooperative;
using Pingpong = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using PingpongEpilogue = cutlass::epilogue::TmaWarpSpecialized;

using Coop128x256 = Cutlass3<Shape<_128, _256, _64>, Shape<_2, _1, _1>, Cooperative, CooperativeEpilogue, void>::Gemm;
using Coop128x256C = Cutlass3<Shape<_128, _256, _64>, Shape<_2, _1, _1>, Cooperative, CooperativeEpilogue, float>::Gemm;
using Coop256x128 = Cutlass3<Shape<_256, _128, _64>, Shape<_1, _2, _1>, Cooperative, CooperativeEpilogue, void>::Gemm;
using Pingpong128x128 = Cutlass3<Shape<_128, _128, _64>, Shape<_2, _1, _1>, Pingpong, PingpongEpilogue, void>::Gemm;

}  // namespace

std::vector<StageInfo> fp16_tune::cutlass3_variants() {
  using fp16_tune::variant;
  return {
      variant("persistent/cutlass3-coop-128x256", "CUTLASS 3.x sm90 coop 128x256x64 2x1", 128, 256, 64, 384,
              get<Coop128x256>),
      variant("persistent/cutlass3-coop-128x256-c", "CUTLASS 3.x sm90 coop 128x256x64 2x1, C", 128, 256, 64, 384,
              get<Coop128x256C>),
      variant("persistent/cutlass3-coop-256x128", "CUTLASS 3.x sm90 coop 256x128x64 1x2", 256, 128, 64, 384,
              get<Coop256x128>),
      variant("persistent/cutlass3-pingpong", "CUTLASS 3.x sm90 ping-pong 128x128x64 2x1", 128, 128, 64, 384,
              get<Pingpong128x128>),
  };
}
