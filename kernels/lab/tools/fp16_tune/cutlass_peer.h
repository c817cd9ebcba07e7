// What the CUTLASS peer variants (variants_cutlass.cu: 2.x sm80, variants_cutlass3.cu: 3.x sm90)
// share: a size check through CUTLASS's own can_implement, and a launch through initialize + run.
// `arguments(const GemmArgs&)` builds the kernel's G::Arguments. Only in a build given a CUTLASS
// checkout (GEMMLAB_HAVE_CUTLASS).
#pragma once
#include <cutlass/cutlass.h>

#include "stage_api.h"

namespace fp16_tune::cutlass_peer {

using gemmlab::kernels::GemmArgs;

// k_rule / m_rule: the message when K is not a multiple of 8 / M not a multiple of 4 (CUTLASS's
// 128-bit accesses or TMA's 16-byte strides).
template <class G, auto arguments>
const char* check(int m, int n, int k, const char* k_rule, const char* m_rule) {
  if (k % 8 != 0) return k_rule;
  if (m % 4 != 0) return m_rule;
  GemmArgs a;
  a.m = m, a.n = n, a.k = k;
  a.A = a.B = reinterpret_cast<const void*>(256);  // aligned, never read: can_implement checks shapes
  a.C = reinterpret_cast<float*>(256);
  if (G::can_implement(arguments(a)) != cutlass::Status::kSuccess) return "CUTLASS cannot run this size";
  return nullptr;
}

// initialize() sets the kernel's dynamic shared-memory limit (and, in 3.x, encodes its tensor maps).
template <class G, auto arguments>
cudaError_t launch(const GemmArgs& args, void* workspace) {
  G op;
  if (op.initialize(arguments(args), workspace, args.stream) != cutlass::Status::kSuccess)
    return cudaErrorInvalidValue;
  if (op.run(args.stream) != cutlass::Status::kSuccess) {
    const cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaErrorLaunchFailure;
  }
  return cudaSuccess;
}

}  // namespace fp16_tune::cutlass_peer
