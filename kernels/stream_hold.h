// Holds a stream while the host queues a timed run, so that the run's CUDA events bracket GPU
// time only.
//
// With an idle stream the first event is stamped as soon as it is queued, and everything the
// host does before the kernel reaches the GPU (encoding tensor maps, cuBLAS's heuristics, the
// driver's submission: 5-20 us) is timed as if the GPU ran it: at 4096^3 (~190 us) that is a few
// percent, at 512x512x16384 (~30 us) a third, and it flatters whichever kernel is slower. Held,
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
