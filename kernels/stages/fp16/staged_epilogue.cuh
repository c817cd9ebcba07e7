// The kernel of stage 12: the hand-written mma_base HGEMM's serpentine block swizzle picks the tile, stage 10's
// multistage main loop (with the serpentine mma order) computes it, and the accumulators leave
// through shared memory as 128-bit stores. 12_epilogue/epilogue.cu says why; this file says how.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>
#ifndef __CUDACC_RTC__  // NVRTC (an exercise's GPU grade, kernels/exercise/) builds the kernel alone
#include <string>
#endif

#include "stages/fp16/fp16_mainloop.cuh"
#include "stages/fp16/fp16_problem.cuh"
#include "gemmlab/raster.h"
#ifndef __CUDACC_RTC__
#include "stage_api.h"
#endif

namespace gemmlab::kernels::fp16 {

// Per warp, 16 columns of its tile at a time, column-major, each column padded by 4 floats: the
// buffer layout is gemmlab/fp16_smem_tile.h's StagedEpilogueLayout.
template <class Shape>
struct StagedEpilogue {
  using Layout = StagedEpilogueLayout<Shape::kWarpM>;
  static constexpr int kCols = Layout::kCols;
  static constexpr int kPitch = Layout::kPitch;  // floats
  static constexpr size_t kSmemBytes = (Shape::kThreads / 32) * kCols * kPitch * sizeof(float);
  static_assert(kSmemBytes <= Shape::kSmemBytes, "the epilogue reuses the pipeline's buffers");
  static_assert(Shape::kWarpM == 64, "16 lanes x 4 rows cover one staged column");
  static_assert(Shape::kWarpN % kCols == 0);

  // C = alpha * acc + beta * C for the warp tile at (row0, col0); staged: this warp's buffer.
  // Writes: lane (g, t) writes rows g and g+8 of columns 2t, 2t+1; word col*68 + row puts the
  // 32 lanes in 32 different banks (2t * 68 = 8t mod 32): conflict-free STS.32.
  // Reads: lanes 0-15 read 4 rows each of one column (256 contiguous bytes), lanes 16-31 the
  // next column; each 8-lane phase of the 128-bit load covers 128 contiguous bytes: conflict-free.
  // C is read only when beta != 0 (the runner poisons C with NaN and 0 * NaN is NaN).
  __device__ __forceinline__ static void store(
      const float (&acc)[Shape::kWarpM / 16][Shape::kWarpN / 8][4], float* staged, float* C,
      int M, int N, int row0, int col0, int lane, float alpha, float beta, bool vector_c) {
#pragma unroll
    for (int pass = 0; pass < Shape::kWarpN / kCols; ++pass) {
#pragma unroll
      for (int mi = 0; mi < Shape::kWarpM / 16; ++mi)
#pragma unroll
        for (int nn = 0; nn < kCols / 8; ++nn)
#pragma unroll
          for (int i = 0; i < 4; ++i)
            staged[Layout::write(mi, nn, lane, i)] = acc[mi][pass * (kCols / 8) + nn][i];
      __syncwarp();
#pragma unroll
      for (int it = 0; it < kCols / 2; ++it) {
        const int col_in_pass = Layout::read_col(it, lane), row_in_tile = Layout::read_row(lane);
        const float4 v = *reinterpret_cast<const float4*>(
            Layout::read_address(staged, col_in_pass, row_in_tile));
        const int row = row0 + row_in_tile, col = col0 + pass * kCols + col_in_pass;
        if (col >= N || row >= M) continue;
        float* c = C + static_cast<size_t>(col) * static_cast<size_t>(M) + row;
        if (vector_c) {  // M % 4 == 0: the 4 rows are all inside M
          float4 out = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
          if (beta != 0.f) {
            const float4 old = *reinterpret_cast<const float4*>(c);
            out.x += beta * old.x;
            out.y += beta * old.y;
            out.z += beta * old.z;
            out.w += beta * old.w;
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
};

// kMinBlocks, kCopyParts: tuning options (fp16_tune); stage 12 uses 1 and 1.
template <class Shape, bool kVectorized, int kMinBlocks = 1, int kCopyParts = 1>
__global__ void __launch_bounds__(Shape::kThreads, kMinBlocks)
    staged_epilogue_kernel(const __half* A, const __half* B, float* C, int M, int N, int K,
                           float alpha, float beta, bool vector_c) {
  extern __shared__ __align__(128) __half smem[];
  const GemmCoord tile = serpentine_swizzle::get_tile_offset(
      Dim3{int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)},
      Dim3{int(gridDim.x), int(gridDim.y), int(gridDim.z)});
  const int m0 = tile.m * Shape::kTileM, n0 = tile.n * Shape::kTileN;
  if (n0 >= N) return;  // a no-op block of the last z slab (the whole block, before any barrier)

  float acc[Shape::kWarpM / 16][Shape::kWarpN / 8][4] = {};
  MultistageMainloop<Shape, true, kVectorized, kCopyParts>::run(acc, A, B, M, N, K, m0, n0,
                                                                smem);
  __syncthreads();  // every warp is done with the pipeline's buffers

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = (warp / Shape::kWarpsN) * Shape::kWarpM;
  const int warp_n = (warp % Shape::kWarpsN) * Shape::kWarpN;
  float* staged = reinterpret_cast<float*>(smem) + StagedEpilogue<Shape>::Layout::buffer(warp);
  StagedEpilogue<Shape>::store(acc, staged, C, M, N, m0 + warp_m, n0 + warp_n, lane, alpha, beta,
                               vector_c);
}

// Serpentine grid (S, m tiles, ceil(n tiles / S)) with S = min(max_stride, n tiles): a narrow
// problem gets no slab wider than itself, so no more than S - 1 no-op blocks per slab row.
template <class Shape>
Dim3 serpentine_grid(int m, int n, int max_stride) {
  const GemmCoord tiled{tiles_of(m, Shape::kTileM), tiles_of(n, Shape::kTileN), 1};
  return serpentine_swizzle::get_grid_shape(tiled, serpentine_swizzle::launch_stride(tiled.n, max_stride));
}

#ifndef __CUDACC_RTC__  // the launch side: std::string, GemmArgs, <<<>>>
// One message per tile height: 256 rows -> "m must be at most 16776960: ...".
template <class Shape>
const char* serpentine_m_limit() {
  static const std::string message = "m must be at most " + std::to_string(long(kMaxGridYZ) * Shape::kTileM) +
                                     ": the serpentine grid has one block per " + std::to_string(Shape::kTileM) +
                                     " rows on gridDim.y, which holds at most 65535 blocks";
  return message.c_str();
}

template <class Shape>
const char* check_serpentine(int m, int n, int k, int max_stride) {
  if (const char* why = check_extents(m, n, k)) return why;
  const Dim3 g = serpentine_grid<Shape>(m, n, max_stride);
  if (g.y > kMaxGridYZ) return serpentine_m_limit<Shape>();
  if (g.z > kMaxGridYZ) return "n is too large for the serpentine grid: gridDim.z must stay <= 65535";
  return nullptr;
}

template <class Shape, int kMinBlocks = 1, int kCopyParts = 1>
cudaError_t launch_staged_epilogue(const GemmArgs& args, int max_stride) {
  if (check_serpentine<Shape>(args.m, args.n, args.k, max_stride) != nullptr)
    return cudaErrorInvalidValue;
  const bool vector_c = args.m % 4 == 0 && reinterpret_cast<uintptr_t>(args.C) % 16 == 0;
  const bool vectorized = rows_16_byte_aligned(args.A, args.B, args.k);
  auto* kernel = vectorized ? staged_epilogue_kernel<Shape, true, kMinBlocks, kCopyParts>
                            : staged_epilogue_kernel<Shape, false, kMinBlocks, kCopyParts>;
  if (const cudaError_t e = allow_shared_memory(kernel, Shape::kSmemBytes); e != cudaSuccess)
    return e;
  const Dim3 g = serpentine_grid<Shape>(args.m, args.n, max_stride);
  kernel<<<dim3(g.x, g.y, g.z), Shape::kThreads, Shape::kSmemBytes, args.stream>>>(
      static_cast<const __half*>(args.A), static_cast<const __half*>(args.B), args.C, args.m,
      args.n, args.k, args.alpha, args.beta, vector_c);
  return cudaGetLastError();
}
#endif  // __CUDACC_RTC__

}  // namespace gemmlab::kernels::fp16
