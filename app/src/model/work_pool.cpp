#include "model/work_pool.h"

#include <algorithm>

namespace gemmlab::app {

WorkPool::WorkPool(unsigned threads) {
  for (unsigned i = 0; i < std::max(1u, threads); ++i) workers_.emplace_back([this] { run(); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void WorkPool::enqueue(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void WorkPool::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();  // a packaged_task: what it throws goes to its future
  }
}

WorkPool& background_pool() {
  static WorkPool pool(std::clamp(std::thread::hardware_concurrency(), 2u, 5u) - 1);
  return pool;
}

}  // namespace gemmlab::app
