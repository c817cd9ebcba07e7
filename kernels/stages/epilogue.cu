// Stage 12 - + block swizzle and an epilogue through shared memory (lesson 12-epilogue; the
// block swizzle is lesson 11's). The fastest FP16 stage: stage 11's cp.async multistage loop on
// a larger tile, plus the two things seed 004 ("mma_base") adds around it:
//
//   - Block tile 128x256x32, 8 warps of 64x64 (2 x 4): each warp's k16 step is 32 mma from 4 A
//     and 4 B ldmatrix.x4, 4 mma per ldmatrix where stage 11's 64x32 warps get 2.67. 4 stages of
//     24 KB (96 KB dynamic shared memory), one block per SM.
//   - mma order serpentine (seed 004): odd m rows walk the n tiles backwards, so the B fragment
//     of a row's last mma is the next row's first (register reuse).
//   - Block swizzle, seed 004's serpentine across gridDim.z (gemmlab/raster.h,
//     serpentine_swizzle): grid (S, m tiles, n tiles / S) with S = min(8, n tiles); in launch
//     order, blocks walk S n tiles along an m row, then the next row, and odd z slabs walk the
//     rows upwards, so blocks that run together share the A rows and B columns in L2.
//   - Epilogue through shared memory (seeds 001 and 004): a warp's accumulators sit in registers
//     as 16x8 tiles whose lanes hold 2 neighbouring columns of 8 rows, which C (column-major)
//     stores as 32-byte pieces of 4 columns. Each warp instead writes 16 columns of its tile to
//     its own shared buffer (64 rows + 4 floats of padding per column: the 32-bit writes are
//     conflict-free), then reads 4 consecutive rows per lane back and stores them with one
//     128-bit st.global (SASS STG.E.128): 2 columns x 256 contiguous bytes per instruction.
//
// Any M, N (predicated). K % 8 == 0 (16-byte aligned rows) for cp.async, otherwise the slow
// synchronous fallback of stage 11; M % 4 == 0 for the 128-bit C stores, otherwise 32-bit ones.
// Measured numbers: kernels/stages/FP16_NOTES.md.
//
// Run: gemmlab bench --stages multistage,epilogue --sizes 4096,8192 --check
#include "fp16_multistage.cuh"
#include "fp16_problem.cuh"
#include "gemmlab/raster.h"
#include "stage_api.h"

namespace gemmlab::kernels {
namespace {

using Shape = fp16::MultistageShape<128, 256, 32, 4, 64, 64>;  // 96 KB shared, 256 threads
constexpr int kMaxSwizzleStride = 8;

// Per warp: 16 columns of its 64-row tile at a time, column-major, padded by 4 floats.
constexpr int kStagedCols = 16;
constexpr int kStagedPitch = Shape::kWarpM + 4;
constexpr size_t kEpilogueSmemBytes = (Shape::kThreads / 32) * kStagedCols * kStagedPitch * 4;
static_assert(kEpilogueSmemBytes <= Shape::kSmemBytes, "the epilogue reuses the pipeline's buffers");
static_assert(Shape::kWarpM == 64, "16 lanes x 4 rows cover one staged column");

// Writes C = alpha * acc + beta * C for one warp tile at (row0, col0).
// Staged writes: lane (g, t) writes rows g and g+8 of columns 2t, 2t+1; word col*68 + row puts
// the 32 lanes in 32 different banks (2t*68 = 8t mod 32). Reads: lanes 0-15 read 4 rows each of
// one column (256 contiguous bytes), lanes 16-31 the next column; each 8-lane phase of the
// 128-bit load covers 128 contiguous bytes: conflict-free.
__device__ __forceinline__ void store_accumulators_staged(
    const float (&acc)[Shape::kWarpM / 16][Shape::kWarpN / 8][4], float* staged, float* C, int M,
    int N, int row0, int col0, int lane, float alpha, float beta, bool vector_c) {
#pragma unroll
  for (int pass = 0; pass < Shape::kWarpN / kStagedCols; ++pass) {
#pragma unroll
    for (int mi = 0; mi < Shape::kWarpM / 16; ++mi)
#pragma unroll
      for (int nn = 0; nn < kStagedCols / 8; ++nn)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const FragCoord e = mma_m16n8k16_c(lane, i);
          staged[(nn * 8 + e.col) * kStagedPitch + mi * 16 + e.row] =
              acc[mi][pass * (kStagedCols / 8) + nn][i];
        }
    __syncwarp();
#pragma unroll
    for (int it = 0; it < kStagedCols / 2; ++it) {
      const int col_in_pass = 2 * it + lane / 16, row_in_tile = 4 * (lane % 16);
      const float4 v =
          *reinterpret_cast<const float4*>(staged + col_in_pass * kStagedPitch + row_in_tile);
      const int row = row0 + row_in_tile, col = col0 + pass * kStagedCols + col_in_pass;
      if (col >= N) continue;
      float* c = C + static_cast<size_t>(col) * static_cast<size_t>(M) + row;
      if (vector_c) {  // M % 4 == 0: the 4 rows are all inside or all past M
        if (row >= M) continue;
        float4 out = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
        if (beta != 0.f) {
          const float4 old = *reinterpret_cast<const float4*>(c);
          out.x += beta * old.x, out.y += beta * old.y, out.z += beta * old.z, out.w += beta * old.w;
        }
        *reinterpret_cast<float4*>(c) = out;
      } else {
        const float vs[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (row + j < M) c[j] = alpha * vs[j] + (beta != 0.f ? beta * c[j] : 0.f);
      }
    }
    __syncwarp();  // the buffer is rewritten by the next pass
  }
}

template <bool kVectorized>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    epilogue_kernel(const __half* A, const __half* B, float* C, int M, int N, int K, float alpha,
                    float beta, bool vector_c) {
  extern __shared__ __align__(128) __half smem[];
  const GemmCoord tile = serpentine_swizzle::get_tile_offset(
      Dim3{int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)},
      Dim3{int(gridDim.x), int(gridDim.y), int(gridDim.z)});
  const int m0 = tile.m * Shape::kTileM, n0 = tile.n * Shape::kTileN;
  if (n0 >= N) return;  // the last z slab's no-op blocks (whole block, before any barrier)

  float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
  fp16::MultistageMainloop<Shape, true, kVectorized>::run(acc, A, B, M, N, K, m0, n0, smem);
  __syncthreads();  // every warp is done with the pipeline's buffers

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  float* staged = reinterpret_cast<float*>(smem) + warp * kStagedCols * kStagedPitch;
  store_accumulators_staged(acc, staged, C, M, N, m0 + warp_m, n0 + warp_n, lane, alpha, beta,
                            vector_c);
}

Dim3 grid_of(int m, int n) {
  const GemmCoord tiled{(m + Shape::kTileM - 1) / Shape::kTileM,
                        (n + Shape::kTileN - 1) / Shape::kTileN, 1};
  const int stride = tiled.n < kMaxSwizzleStride ? tiled.n : kMaxSwizzleStride;
  return serpentine_swizzle::get_grid_shape(tiled, stride);
}

const char* check_epilogue(int m, int n, int k) {
  if (const char* why = fp16::check_extents(m, n, k)) return why;
  const Dim3 g = grid_of(m, n);
  if (g.y > fp16::kMaxGridYZ)
    return "m must be at most 8388480: the serpentine grid has one block per 128 rows on "
           "gridDim.y, which holds at most 65535 blocks";
  if (g.z > fp16::kMaxGridYZ)
    return "n is too large for the serpentine grid: gridDim.z = n / (256 * 8) must stay <= 65535";
  return nullptr;
}
size_t no_workspace(int, int, int) { return 0; }

template <bool kVectorized>
cudaError_t launch_with(const GemmArgs& args, bool vector_c) {
  auto* kernel = epilogue_kernel<kVectorized>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(Shape::kSmemBytes));
  if (e != cudaSuccess) return e;
  const Dim3 g = grid_of(args.m, args.n);
  kernel<<<dim3(g.x, g.y, g.z), Shape::kThreads, Shape::kSmemBytes, args.stream>>>(
      static_cast<const __half*>(args.A), static_cast<const __half*>(args.B), args.C, args.m,
      args.n, args.k, args.alpha, args.beta, vector_c);
  return cudaGetLastError();
}

cudaError_t run_epilogue(const GemmArgs& args) {
  if (check_epilogue(args.m, args.n, args.k) != nullptr) return cudaErrorInvalidValue;
  const bool vector_c = args.m % 4 == 0 && reinterpret_cast<uintptr_t>(args.C) % 16 == 0;
  return fp16::rows_16_byte_aligned(args.A, args.B, args.k) ? launch_with<true>(args, vector_c)
                                                            : launch_with<false>(args, vector_c);
}

}  // namespace

StageLaunch launch_epilogue() { return {check_epilogue, no_workspace, run_epilogue}; }

}  // namespace gemmlab::kernels
