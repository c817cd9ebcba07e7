// Stage 7's PTX: the tensor-core instruction every FP16 stage is built on (sm_80 or newer, also
// on sm_90a). The later stages' own instructions are in their files: ldmatrix in
// ldmatrix_fragments.cuh, cp.async in fp16_mainloop.cuh.
//
//   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32   -> SASS HMMA.16816.F32
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

namespace gemmlab::kernels::fp16 {

// ldmatrix and cp.async take 32-bit shared-window addresses, not generic pointers.
__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// d += a * b for one 16x8x16 tile: a = 4 registers of half2 (A 16x16, row), b = 2 registers of
// half2 (B 16x8, col), d = 4 floats (C 16x8). Which lane holds which element: gemmlab/fragments.h.
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace gemmlab::kernels::fp16
