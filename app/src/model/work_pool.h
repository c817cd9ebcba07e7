// A small fixed pool of worker threads for the simulations the views start in the background.
// Work that input can multiply (one simulation per ncu CSV row: 2,000 kernels) queues here
// instead of starting a thread each (std::async started ~300 threads on 2 cores).
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gemmlab::app {

class WorkPool {
 public:
  explicit WorkPool(unsigned threads);
  ~WorkPool();  // runs what is queued, then joins
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  template <class F>
  auto submit(F f) -> std::future<decltype(f())> {
    auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
    auto result = task->get_future();
    enqueue([task] { (*task)(); });
    return result;
  }
  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

 private:
  void enqueue(std::function<void()> job);
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // last: start once the rest exists
};

// The app's pool: min(hardware threads - 1, 4) workers, at least 1.
WorkPool& background_pool();

}  // namespace gemmlab::app
