// StreamHold (stream_hold.h): a one-thread kernel that waits for a flag the host raises.
#include "stream_hold.h"

#include <atomic>

#include "runner_support.cuh"

namespace gemmlab::kernels {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// Polls the host's flag over the bus about once a microsecond; gives up after timeout_ns so that
// a launch that itself waits for the GPU (a synchronizing call inside it) cannot hang the bench.
__global__ void wait_for_release(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long start = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - start > timeout_ns) {
      flags[1] = 1;
      return;
    }
    __nanosleep(1000);
  }
}

}  // namespace

StreamHold::StreamHold() {
  void* p = nullptr;
  GL_CUDA(cudaHostAlloc(&p, 2 * sizeof(int), cudaHostAllocMapped));
  host_ = static_cast<volatile int*>(p);
  host_[0] = 0;
  host_[1] = 0;
  void* d = nullptr;
  GL_CUDA(cudaHostGetDevicePointer(&d, p, 0));
  device_ = static_cast<int*>(d);
}

StreamHold::~StreamHold() {
  if (!host_) return;
  host_[0] = 1;  // a hold still queued (its run's launch threw) ends now rather than at its timeout
  cudaFreeHost(const_cast<int*>(host_));
}

void StreamHold::hold(cudaStream_t stream) {
  host_[0] = 0;
  host_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  wait_for_release<<<1, 1, 0, stream>>>(device_, kTimeoutNs);
  GL_CUDA(cudaGetLastError());  // the hold kernel's launch
}

void StreamHold::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  host_[0] = 1;
}

bool StreamHold::timed_out() const { return host_[1] != 0; }

}  // namespace gemmlab::kernels
