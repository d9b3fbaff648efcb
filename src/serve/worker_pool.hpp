// The threads that serve connections, one connection at a time each, as cpp-httplib's ThreadPool,
// and how many connections wait in line for one: while any waits, a kept-alive connection is
// closed after its current answer (notebook_server.cpp), so that busy clients take turns instead
// of holding every worker.
#pragma once

#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace convlab {

class WorkerPool : public httplib::TaskQueue {
 public:
  explicit WorkerPool(std::size_t threads);
  ~WorkerPool() override;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void enqueue(std::function<void()> job) override;
  // Runs every job already in line, then joins the threads.
  void shutdown() override;

  std::size_t waiting() const { return waiting_; }

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  std::atomic<std::size_t> waiting_{0};
  bool shutting_down_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace convlab
