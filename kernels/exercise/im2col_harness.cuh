// Exercise 14-implicit-gemm/im2col on the GPU: stage 14a's kernel (stages/conv/conv_mainloop.cuh,
// conv_fprop_tile) with the A operand gathered at the learner's im2col_offset instead of the
// stage's own address arithmetic (ImplicitGemmCopyA: row_origin + tap_step, gemmlab/conv_problem.h).
// The learner's function knows one problem (N 2, 7 x 7 x 8, 3 x 3, pad 1, stride 2: A is 32 x 72),
// so grade_device_gpu.cpp runs that problem alone, on the tile the stage picks for it. NVRTC
// compiles this file with the learner's after it; nothing else includes it.
#pragma once
#include "stages/conv/conv_mainloop.cuh"

// The learner's: the NHWC offset of the input element A(row, col) reads, -1 where it is padding.
long long im2col_offset(int row, int col);

namespace gemmlab::kernels::exercise_gpu {

// The stage's A copy (thread map, shared layout, one cp.async of 16 bytes per vector, zero-filled
// in the padding) with the learner's addresses. The stage forms one address per vector (8 channels
// of one tap, C % 8 == 0), so this asks im2col_offset once per vector, for its first channel, and
// takes the other 7 as the next 7 offsets: asking all 8 and comparing would no longer be the
// stage's load. The host grade, which runs first, checked every element: a function that passed
// it reads each vector's 8 channels one after another (c is the NHWC tensor's innermost index).
template <int kRows, int kTileK, int kThreads>
struct LearnerCopyA {
  using ThreadMap = fp16::OperandThreadMap<kRows, kTileK, kThreads>;
  using Layout = fp16::SmemOperandLayout<kTileK, true>;
  static constexpr int kAccesses = ThreadMap::kAccesses;

  const __half* input;
  int rows, cols, input_elements;  // A is rows x cols (the host grade's domain)
  int row0, row_in_tile, k_in_tile;  // row0: this thread's first row of A

  __device__ __forceinline__ LearnerCopyA(const __half* input_, const conv::Shape& sh, int m0, int thread)
      : input(input_), rows(int(sh.gemm_m())), cols(int(sh.gemm_k())), input_elements(int(sh.input_elements())) {
    const PitchCoord start = ThreadMap::Map::initial_offset(thread);
    row_in_tile = start.s;
    k_in_tile = start.c;
    row0 = m0 + start.s;
  }
  __device__ __forceinline__ int smem_offset(int i) const {
    return fp16::tile_store_offset<Layout, ThreadMap>(PitchCoord{k_in_tile, row_in_tile}, i);
  }
  // Where the vector at A(row, col) starts, or -1 for the padding. The host grade passed only
  // offsets in [-1, N*H*W*C); anything else that reaches the GPU is clamped into the activations
  // and aligned down to a vector (cp.async needs 16-byte addresses): a wrong output, never a
  // fault. For a function that passed, neither changes anything (col is a multiple of 8 = C).
  __device__ __forceinline__ long long vector_start(int row, int col) const {
    const long long o = ::im2col_offset(row, col);
    if (o == -1) return -1;
    const long long inside = o < 0 ? 0 : o >= input_elements ? input_elements - 1 : o;
    return inside & ~7ll;
  }
};

// The stage's copy_tile_async_part for the learner's copy (CpAsyncCopies finds it by argument-
// dependent lookup). Rows past M and columns past R*S*C are zero-filled without asking the
// learner's function: it is called only inside the 32 x 72 the host grade covered.
template <int kRows, int kTileK, int kThreads>
__device__ __forceinline__ void copy_tile_async_part(const LearnerCopyA<kRows, kTileK, kThreads>& c, int k0,
                                                     uint32_t tile_address, __half*, int first, int last) {
  constexpr int kRowStep = LearnerCopyA<kRows, kTileK, kThreads>::ThreadMap::kRowStep;
  const int col = k0 + c.k_in_tile;
#pragma unroll
  for (int i = first; i < last; ++i) {
    const int row = c.row0 + i * kRowStep;
    const long long at = row < c.rows && col < c.cols ? c.vector_start(row, col) : -1;
    fp16::cp_async_16(tile_address + 2u * c.smem_offset(i), c.input + (at >= 0 ? at : 0), at >= 0);
  }
}

// conv_fprop_kernel<16, TileShapeOf<kTile>> with LearnerCopyA for the A operand; grid, threads
// and shared memory as launch_tile gives them (grade_device_gpu.cpp: launch_im2col).
template <int kTile>
__global__ void __launch_bounds__(conv::TileShapeOf<kTile>::kThreads)
    im2col_conv_kernel(const __half* input, const __half* filter, float* out, conv::Shape sh, float alpha,
                       float beta) {
  using S = conv::TileShapeOf<kTile>;
  extern __shared__ __align__(128) __half smem[];
  conv::conv_fprop_tile<conv::Element::F16, S, LearnerCopyA<S::kTileM, S::kTileK, S::kThreads>>(smem, input, filter,
                                                                                                 out, sh, alpha, beta);
}

}  // namespace gemmlab::kernels::exercise_gpu
