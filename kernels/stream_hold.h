// Holds a stream while the host queues a timed run, so that the run's CUDA events bracket GPU
// time only.
//
// With an idle stream the first event is stamped as soon as it is queued, and everything the
// host does before the kernel reaches the GPU (encoding tensor maps, cuBLAS's heuristics, the
// driver's submission) is timed as if the GPU ran it: about 12 us for a cublasGemmEx call and 3 us
// for a stage 17 launch (H200), a few percent of a 4096^3 run (~190 us) and a third of a
// 512x512x16384 one (~30 us), so a stage's ratio to cuBLAS read high. Held,
// the stream runs a one-thread kernel that waits for a flag in mapped host memory; the host
// queues the start event, the run and the stop event behind it, then raises the flag. nvbench
// times its cold runs behind the same kind of blocking kernel.
#pragma once

#include <cuda_runtime.h>

namespace gemmlab::kernels {

class StreamHold {
 public:
  // Throws GpuError when the mapped host flag cannot be allocated.
  StreamHold();
  ~StreamHold();
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;

  // Queues the waiting kernel on `stream`: the work queued next waits until release().
  void hold(cudaStream_t stream);
  // Lets the waiting kernel end.
  void release();
  // After the stream has passed the held work: whether the waiting kernel gave up (after
  // kTimeoutNs) before release(), i.e. the run's launch waited for the GPU itself and the
  // host's time was timed after all.
  bool timed_out() const;

  static constexpr unsigned long long kTimeoutNs = 50'000'000;  // 50 ms

 private:
  volatile int* host_ = nullptr;  // [0] release flag, [1] timed-out flag
  int* device_ = nullptr;         // the same two ints, as the GPU sees them
};

}  // namespace gemmlab::kernels
