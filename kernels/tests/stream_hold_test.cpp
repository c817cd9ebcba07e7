// The timing's stream hold (kernels/stream_hold.h) on a real GPU: work queued behind a hold waits
// for release(), host time spent between the timed run's events is not timed, and a hold nobody
// releases gives up after its timeout. Exit 77 with "skipped: no GPU" when there is none (gpu_gtest_main.cpp).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "stream_hold.h"

namespace gemmlab::kernels {
namespace {

using Clock = std::chrono::steady_clock;

struct Stream {
  cudaStream_t s = nullptr;
  cudaEvent_t ev[2] = {};
  Stream() {
    EXPECT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    for (cudaEvent_t& e : ev) EXPECT_EQ(cudaEventCreate(&e), cudaSuccess);
  }
  ~Stream() {
    for (cudaEvent_t e : ev) cudaEventDestroy(e);
    cudaStreamDestroy(s);
  }
};

// The elapsed time of the stream's two events with `host_ms` of host sleep between them; `hold`,
// when given, holds the stream until both are queued.
float events_around_sleep(Stream& st, int host_ms, StreamHold* hold) {
  if (hold) hold->hold(st.s);
  float ms = -1;
  EXPECT_EQ(cudaEventRecord(st.ev[0], st.s), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(host_ms));
  EXPECT_EQ(cudaEventRecord(st.ev[1], st.s), cudaSuccess);
  if (hold) hold->release();
  EXPECT_EQ(cudaEventSynchronize(st.ev[1]), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&ms, st.ev[0], st.ev[1]), cudaSuccess);
  return ms;
}

TEST(StreamHold, QueuedWorkWaitsForRelease) {
  Stream st;
  StreamHold hold;
  hold.hold(st.s);
  ASSERT_EQ(cudaEventRecord(st.ev[0], st.s), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(cudaEventQuery(st.ev[0]), cudaErrorNotReady);
  hold.release();
  ASSERT_EQ(cudaEventSynchronize(st.ev[0]), cudaSuccess);
  EXPECT_FALSE(hold.timed_out());
}

// What the bench relies on: the host's time between the two events (here a 20 ms sleep, in the
// bench a launch's host work) is not in their elapsed time.
TEST(StreamHold, HostTimeBetweenTheEventsIsNotTimed) {
  Stream st;
  StreamHold hold;
  const float held = events_around_sleep(st, 20, &hold);
  EXPECT_GE(held, 0.f);
  EXPECT_LT(held, 1.f);
  EXPECT_FALSE(hold.timed_out());
  std::printf("  20 ms of host sleep between held events: %.4f ms timed\n", held);
  // Unheld, the same sleep is timed.
  EXPECT_GT(events_around_sleep(st, 20, nullptr), 15.f);
}

TEST(StreamHold, AHoldNobodyReleasesGivesUp) {
  Stream st;
  StreamHold hold;
  const auto t0 = Clock::now();
  hold.hold(st.s);
  ASSERT_EQ(cudaStreamSynchronize(st.s), cudaSuccess);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_TRUE(hold.timed_out());
  EXPECT_GE(s, 0.9 * StreamHold::kTimeoutNs * 1e-9);
  EXPECT_LT(s, 5.0);
  // The next hold starts afresh.
  hold.hold(st.s);
  hold.release();
  ASSERT_EQ(cudaStreamSynchronize(st.s), cudaSuccess);
  EXPECT_FALSE(hold.timed_out());
}

}  // namespace
}  // namespace gemmlab::kernels
