// Stage 11 - + cp.async multistage (lesson 10-multistage). Stage 10's tile (128x128x32, 8 warps
// of 64x32, Swizzle<3,3,3> shared layout, ldmatrix.x4, mma.sync m16n8k16) with seed 001's kStage
// pipeline instead of one register-staged buffer:
//   - `cp.async.cg.shared.global` 16 bytes (SASS LDGSTS.E.BYPASS.128) copies global -> shared
//     without registers or a stall: the thread issues and moves on;
//   - 4 shared stages (16 KB each, 64 KB dynamic shared memory), so while k-tile t is computed,
//     tiles t+1 .. t+3 are in flight; `cp.async.wait_group 2` + one barrier per k-tile;
//   - the warp fragments double-buffered in registers: ldmatrix for step kk+1 is issued before
//     the mma of step kk (kernels/stages/fp16_multistage.cuh has the loop, step by step).
// Stages 8-10 wait for global memory once per k-tile with the whole block at a barrier; here
// that latency hides behind three tiles of math.
//
// Any M, N: rows past the edge are zero-filled by cp.async (src-size 0). cp.async copies 16-byte
// chunks, so K % 8 == 0 (and 16-byte aligned A, B) takes the asynchronous path; other K fall
// back to synchronous 2-byte loads into the same pipeline: correct, and much slower.
// Measured numbers: kernels/stages/FP16_NOTES.md.
//
// Run: gemmlab bench --stages smem-swizzle,multistage --sizes 4096 --check
#include "fp16_multistage.cuh"
#include "fp16_problem.cuh"
#include "stage_api.h"

namespace gemmlab::kernels {
namespace {

using Shape = fp16::MultistageShape<128, 128, 32, 4, 64, 32>;  // 64 KB shared, 256 threads

template <bool kVectorized>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    multistage_kernel(const __half* A, const __half* B, float* C, int M, int N, int K,
                      float alpha, float beta) {
  extern __shared__ __align__(128) __half smem[];
  const int m0 = blockIdx.x * Shape::kTileM, n0 = blockIdx.y * Shape::kTileN;
  float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
  fp16::MultistageMainloop<Shape, false, kVectorized>::run(acc, A, B, M, N, K, m0, n0, smem);
  const int warp = threadIdx.x / 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  fp16::store_accumulators_direct<Shape::kWarpM, Shape::kWarpN>(
      acc, C, M, N, m0 + warp_m, n0 + warp_n, threadIdx.x % 32, alpha, beta);
}

template <bool kVectorized>
cudaError_t launch_with(const GemmArgs& args, dim3 grid) {
  auto* kernel = multistage_kernel<kVectorized>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(Shape::kSmemBytes));
  if (e != cudaSuccess) return e;
  kernel<<<grid, Shape::kThreads, Shape::kSmemBytes, args.stream>>>(
      static_cast<const __half*>(args.A), static_cast<const __half*>(args.B), args.C, args.m,
      args.n, args.k, args.alpha, args.beta);
  return cudaGetLastError();
}

const char* check_multistage(int m, int n, int k) { return fp16::check_grid_m_by_n_128(m, n, k); }
size_t no_workspace(int, int, int) { return 0; }
cudaError_t run_multistage(const GemmArgs& args) {
  if (check_multistage(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  const dim3 grid((args.m + Shape::kTileM - 1) / Shape::kTileM,
                  (args.n + Shape::kTileN - 1) / Shape::kTileN);
  return fp16::rows_16_byte_aligned(args.A, args.B, args.k) ? launch_with<true>(args, grid)
                                                            : launch_with<false>(args, grid);
}

}  // namespace

StageLaunch launch_multistage() { return {check_multistage, no_workspace, run_multistage}; }

}  // namespace gemmlab::kernels
