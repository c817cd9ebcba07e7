// Stage 13a (`split-k`), lesson 13-split-k-stream-k. Adds over stage 6: more blocks where there
// are few C tiles. K is cut into slices (grid tiles_m x tiles_n x slices, gemmlab/raster.h
// split_k_parallel_range); each block runs stage 6's loop over its slice and writes a partial
// tile to the workspace; a second kernel adds the slices in order (no atomics). One slice, and no
// workspace, where the tiles already fill the GPU.
// Run: gemmlab bench --stages double-buffer,split-k,stream-k --sizes 512x512x16384
#include "stages/fp32/fp32_simt.cuh"
#include "gemmlab/raster.h"
#include "stages/split_k_reduce.cuh"

#include <algorithm>

namespace gemmlab::kernels {
namespace {
using namespace simt;

// slices == 1: C = alpha * acc + beta * C directly. Otherwise partial[slice] = acc (ld = M).
template <int kAccess>
__global__ void __launch_bounds__(kThreads, 2)
    split_k_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                   const float* __restrict__ B, float beta, float* __restrict__ C,
                   float* __restrict__ partials, int slices, bool vec_ok) {
  __shared__ SmemStage smem[2];
  const int m0 = blockIdx.x * kTileM, n0 = blockIdx.y * kTileN;
  const KRange range = split_k_parallel_range(blockIdx.z, K, kTileK, slices);
  float acc[kThreadM][kThreadN];
  clear(acc);
  mainloop_pipelined<kAccess>(A, B, M, N, K, m0, n0, range.begin, range.end, smem, acc);
  if (slices == 1)
    store_tile(C, M, N, m0, n0, ThreadTile(), acc, alpha, beta, vec_ok);
  else
    store_tile(partials + size_t(blockIdx.z) * M * N, M, N, m0, n0, ThreadTile(), acc, 1.f, 0.f,
               vec_ok);
}

int device_slots() {  // SMs x resident blocks of the main kernel
  int dev = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, split_k_kernel<4>, kThreads, 0) !=
          cudaSuccess)
    return 0;
  return sms * per_sm;
}

int slices_for(int m, int n, int k) {
  const long long tiles = 1ll * ((m + kTileM - 1) / kTileM) * ((n + kTileN - 1) / kTileN);
  return split_k_parallel_slices(tiles, device_slots(), k, kTileK);  // gemmlab/raster.h
}

const char* check(int, int n, int) {
  return (n + kTileN - 1) / kTileN > 65535 ? "split-k: N must be at most 8388480 (grid.y limit)"
                                           : nullptr;
}
size_t workspace(int m, int n, int k) {
  const int slices = slices_for(m, n, k);
  return slices > 1 ? size_t(slices) * m * n * sizeof(float) : 0;
}

cudaError_t launch(const GemmArgs& a) {
  const int slices = slices_for(a.m, a.n, a.k);
  const size_t need = slices > 1 ? size_t(slices) * a.m * a.n * sizeof(float) : 0;
  if (a.workspace_bytes < need) return cudaErrorInvalidValue;
  float* partials = static_cast<float*>(a.workspace);
  const dim3 grid((a.m + kTileM - 1) / kTileM, (a.n + kTileN - 1) / kTileN, slices);
  (ab_vector_ok(a) ? split_k_kernel<4> : split_k_kernel<1>)<<<grid, kThreads, 0, a.stream>>>(
      a.m, a.n, a.k, a.alpha, static_cast<const float*>(a.A), static_cast<const float*>(a.B),
      a.beta, a.C, partials, slices,
      c_vector_ok(a) && reinterpret_cast<std::uintptr_t>(partials) % 16 == 0);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess || slices == 1) return e;
  return reduce_split_k(a.m, a.n, slices, a.alpha, a.beta, partials, a.C, a.stream);
}

}  // namespace

StageLaunch launch_split_k() { return {check, workspace, launch}; }

}  // namespace gemmlab::kernels
