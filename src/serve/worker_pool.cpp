#include "serve/worker_pool.hpp"

namespace convlab {

WorkerPool::WorkerPool(std::size_t threads) {
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  shutdown();
}

void WorkerPool::enqueue(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
    waiting_ = jobs_.size();
  }
  changed_.notify_one();
}

void WorkerPool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutting_down_ = true;
  }
  changed_.notify_all();
  for (std::thread& thread : threads_)
    if (thread.joinable()) thread.join();
}

void WorkerPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return shutting_down_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // shutting down, nothing left in line
      job = std::move(jobs_.front());
      jobs_.pop_front();
      waiting_ = jobs_.size();
    }
    job();
  }
}

}  // namespace convlab
