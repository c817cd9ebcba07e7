// The math of one k16 step (32 bytes of every A and B row) for each conv element type, on the
// fragments the FP16 ladder's ldmatrix.x4 loads (fp16::load_step_fragments). The registers hold
// the same bytes whatever the element (PTX ISA "Matrix Fragments for mma.m16n8k32" and
// "mma.m8n8k32"; gemmlab/fragments.h): a[0] rows 0-7 and a[1] rows 8-15 of bytes 0-15, a[2], a[3]
// the same rows of bytes 16-31; b[0] bytes 0-15 and b[1] bytes 16-31 of a column.
//   F16: one m16n8k16 (k = 16 halves)              fp32 accumulators
//   S8 : one m16n8k32 (k = 32 bytes)               s32 accumulators
//   S4 : four m8n8k32 (k = 32 nibbles per 16 bytes): rows 0-7 and 8-15, bytes 0-15 and 16-31;
//        the m8n8 accumulator pair (row g, cols 2t, 2t+1) is c0,c1 (rows 0-7) or c2,c3 (rows 8-15)
//        of the m16n8 layout, so all three keep the same accumulator layout and epilogue.
#pragma once
#include <cstdint>

#include "stages/fp16/fp16_warp_tile.cuh"
#include "gemmlab/conv_problem.h"

namespace gemmlab::kernels::conv {

__device__ __forceinline__ void mma_m16n8k32_s8(int (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// d0, d1 of an m8n8 tile: row g, columns 2t and 2t+1.
__device__ __forceinline__ void mma_m8n8k32_s4(int& d0, int& d1, uint32_t a, uint32_t b) {
  asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+r"(d0), "+r"(d1)
               : "r"(a), "r"(b));
}

template <::gemmlab::conv::Element E>
struct ConvMath;

template <>
struct ConvMath<::gemmlab::conv::Element::F16> : fp16::WarpMmaF16<false> {
  using Acc = float;
};

// op(accumulators, A fragment, B fragment) for every 16 x 8 tile of the warp.
template <int kM, int kN, class Op>
__device__ __forceinline__ void each_tile(int (&acc)[kM][kN][4], const fp16::WarpTile<kM * 16, kN * 8>& f, Op op) {
#pragma unroll
  for (int mi = 0; mi < kM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kN; ++ni) op(acc[mi][ni], f.a[mi], f.b[ni]);
}

template <>
struct ConvMath<::gemmlab::conv::Element::S8> {
  using Acc = int;
  template <int kM, int kN>
  __device__ __forceinline__ static void run(int (&acc)[kM][kN][4], const fp16::WarpTile<kM * 16, kN * 8>& f) {
    each_tile(acc, f, mma_m16n8k32_s8);
  }
};

template <>
struct ConvMath<::gemmlab::conv::Element::S4> {
  using Acc = int;
  template <int kM, int kN>
  __device__ __forceinline__ static void run(int (&acc)[kM][kN][4], const fp16::WarpTile<kM * 16, kN * 8>& f) {
    each_tile(acc, f, [](int (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
      mma_m8n8k32_s4(c[0], c[1], a[0], b[0]);  // rows 0-7, k 0-31
      mma_m8n8k32_s4(c[2], c[3], a[1], b[0]);  // rows 8-15, k 0-31
      mma_m8n8k32_s4(c[0], c[1], a[2], b[1]);  // rows 0-7, k 32-63
      mma_m8n8k32_s4(c[2], c[3], a[3], b[1]);  // rows 8-15, k 32-63
    });
  }
};

}  // namespace gemmlab::kernels::conv
