#include "run/problem_ahead.hpp"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace convlab {
namespace {

constexpr long kRowsPerBlock = 4;

void run_on(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
  // Best effort: a CPU that went away leaves the thread where it was.
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

ProblemAhead::Made make(ProblemAhead::Job job) {
  const auto start = std::chrono::steady_clock::now();
  run_on(job.cpus);
  ProblemAhead::Made made;
  made.image_index = job.image_index;
  made.id = job.id;
  made.image = job.image ? job.image : std::make_shared<const Image>(job.make_image());
  const Problem problem{*made.image, job.filter, job.border, job.output};
  made.reference = std::make_unique<Reference>(compute_reference_on(problem, job.cpus));
  made.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return made;
}

}  // namespace

Reference compute_reference_on(const Problem& problem, const std::vector<int>& cpus) {
  Reference reference = sized_reference(problem);
  const ReferenceRows rows(problem);
  const long height = problem.input.height;
  std::atomic<long> next{0};
  const auto work = [&] {
    run_on(cpus);
    for (long first = next.fetch_add(kRowsPerBlock); first < height;
         first = next.fetch_add(kRowsPerBlock))
      rows.compute(first, std::min(height, first + kRowsPerBlock), reference);
  };
  const std::size_t count =
      cpus.empty() ? std::max(1u, std::thread::hardware_concurrency()) : cpus.size();
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < count; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  return reference;
}

ProblemAhead::~ProblemAhead() {
  // A job still running is waited for: it reads the caller's image.
  if (result_.valid()) result_.wait();
}

void ProblemAhead::start(Job job) {
  if (result_.valid()) return;
  id_ = job.id;
  result_ = std::async(std::launch::async, make, std::move(job));
}

std::optional<ProblemAhead::Made> ProblemAhead::take() {
  if (!result_.valid()) return std::nullopt;
  try {
    return result_.get();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool prepare_ahead_enabled() {
  const char* value = std::getenv("CONVLAB_PREPARE_AHEAD");
  return value != nullptr && std::string(value) == "1";
}

}  // namespace convlab
