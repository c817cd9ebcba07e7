// The PTX of stage 15, the first Hopper (sm_90a) instructions of the ladder, one wrapper each:
//
//   mbarrier.*                       shared-memory barriers that count arrivals and bytes
//   cp.async.bulk.tensor.2d          a TMA box global -> shared, completing on an mbarrier
//                                    (SASS UTMALDG)
// The later stages' own instructions are in their files: wgmma in wgmma_ptx.cuh (stage 16).
//
// Every wrapper compiles to nothing outside sm_90a (GEMMLAB_SM90A false): the stages are built
// for sm_80 too (the Ampere users' build), where their launch refuses before any kernel runs.
#pragma once
#include <cuda.h>  // CUtensorMap (a 128-byte opaque struct; no driver library is linked)
#include <cuda_fp16.h>

#include <cstdint>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GEMMLAB_SM90A 1
#else
#define GEMMLAB_SM90A 0
#endif

namespace gemmlab::kernels::hopper {

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier ----------------------------------------------------------------------------------
// A barrier completes a phase when `count` threads have arrived and every byte announced with
// expect_tx has landed; waiters spin on the phase's parity (0, 1, 0, ...).
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, int count) {
#if GEMMLAB_SM90A
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count));
#endif
}
// Makes the initialised barriers visible to the copy engine (the async proxy) and the cluster.
__device__ __forceinline__ void fence_barrier_init() {
#if GEMMLAB_SM90A
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
// One arrival that also announces `bytes` more bytes this phase waits for (the producer, per box set).
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
#if GEMMLAB_SM90A
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)),
               "r"(bytes)
               : "memory");
#endif
}
__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
#if GEMMLAB_SM90A
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
#endif
}
// Spins until the phase of parity `parity` has completed (try_wait suspends for a while in hardware).
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
#if GEMMLAB_SM90A
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_u32(bar)), "r"(parity)
        : "memory");
  } while (!done);
#endif
}

// ---- TMA ---------------------------------------------------------------------------------------
// The box of `map` whose first element is (c0 inner, c1 outer) lands at `dst`; its bytes count
// towards `bar`'s current phase. Elements outside the tensor are written as zeros (and counted).
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, uint64_t* bar, int c0, int c1) {
#if GEMMLAB_SM90A
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_u32(bar)), "r"(c0), "r"(c1)
      : "memory");
#endif
}
// An im2col box: pixels from (n, h, w) on, channels from c, every pixel moved by the tap's offsets
// (gemmlab/conv_problem.h, im2col_box); coordinates and offsets innermost first.
__device__ __forceinline__ void tma_load_im2col_4d(void* dst, const CUtensorMap* map, uint64_t* bar, int c, int w,
                                                   int h, int n, uint16_t offset_w, uint16_t offset_h) {
#if GEMMLAB_SM90A
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5, %6}], [%2], {%7, %8};\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_u32(bar)), "r"(c), "r"(w), "r"(h), "r"(n), "h"(offset_w),
      "h"(offset_h)
      : "memory");
#endif
}
// The tensor map lives in kernel parameter space; prefetching its descriptor saves the first
// copy a round trip.
// Orders the shared-memory writes this thread made or has seen through the generic proxy (st.shared,
// cp.async) before its later async-proxy accesses (a TMA store reading them, wgmma's operand fetch).
__device__ __forceinline__ void fence_proxy_async_shared() {
#if GEMMLAB_SM90A
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void tma_prefetch_descriptor(const CUtensorMap* map) {
#if GEMMLAB_SM90A
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
#endif
}

}  // namespace gemmlab::kernels::hopper
