// The four PTX instructions the FP16 tensor-core stages are built from, one wrapper each.
// All need sm_80 or newer (mma.sync m16n8k16, ldmatrix, cp.async); they also run on sm_90a.
//
//   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32   -> SASS HMMA.16816.F32
//   ldmatrix.sync.aligned.m8n8.x4.shared.b16            -> SASS LDSM.16.M88.4
//   cp.async.cg.shared.global (16 bytes, zero-fill)     -> SASS LDGSTS.E.BYPASS.128
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

namespace gemmlab::kernels::fp16 {

// ldmatrix and cp.async take 32-bit shared-window addresses, not generic pointers.
__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// d += a * b for one 16x8x16 tile: a = 4 registers of half2 (A 16x16, row), b = 2 registers of
// half2 (B 16x8, col), d = 4 floats (C 16x8). Which lane holds which element: fp16_fragments.cuh.
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8x8 b16 matrices; matrix i's eight row addresses come from lanes 8i .. 8i+7, and lane L
// receives row L/4, elements 2*(L%4) and 2*(L%4)+1 of each matrix in r[i].
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_row_address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_row_address));
}

// Copies 16 bytes global -> shared without going through registers. When !valid, nothing is read
// (src-size 0) and the 16 shared bytes are zero-filled: that is how rows past M / N and k past K
// become zeros that the mma adds harmlessly. `.cg` caches in L2 only (the data is used once per
// block from shared memory).
__device__ __forceinline__ void cp_async_16(uint32_t smem_address, const void* global, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address),
               "l"(global), "r"(src_bytes));
}

// Closes the group of cp.async issued since the last commit (one group per k-tile).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most `kPending` committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

}  // namespace gemmlab::kernels::fp16
