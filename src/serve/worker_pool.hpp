// The threads that answer requests, one request of one connection at a time each, as
// cpp-httplib's ThreadPool, and how many requests wait in line for one: while any waits, a
// kept-alive connection is closed after its current answer (notebook_server.cpp), so that busy
// clients take turns. A connection comes here only with a whole request head
// (serve/connection_room.hpp): no worker waits for a client to speak.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace convlab {

class WorkerPool {
 public:
  explicit WorkerPool(std::size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void enqueue(std::function<void()> job);
  // Runs every job already in line, then joins the threads.
  void shutdown();

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
