// Before a run measures anything: every variant of the users' kernels its plan needs is
// compiled, or found in the kernel cache, so that a compile error is reported before the first
// point runs (by run, --dry-run and validate alike) and no point pays for a compiler. A search's
// variants are compiled as it proposes them instead, a few ahead of its measurements and in
// parallel (CompilesAhead).
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "impl/user/kernel_compiler.hpp"
#include "plan/plan.hpp"

namespace convlab {

// Variants that do not compile; what() holds each one's heading and the compiler's lines.
class KernelsDoNotCompile : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Compiles what `plan` needs for `cuda_device`'s architecture and says on `log` what it did
// ("your kernels: 12 variants compiled in 3.2 s, 4 from the kernel cache"; nothing for a plan
// without users' kernels); throws KernelsDoNotCompile.
void compile_users_kernels(const Config& config, const std::vector<Point>& plan, int cuda_device,
                           std::ostream* log);

// How one variant's compile went.
struct CompileOutcome {
  double seconds = 0.0;  // compiling (0 when found in the kernel cache or not compiled here)
  bool compiled = false;
  // Why it did not compile (the compiler's lines); its point then fails when it is measured.
  std::optional<std::string> error;
};

// Compiles variants on worker threads, at most `parallel` at a time, in the order they are
// started; `wait` gives one's outcome. The destructor waits for the compiles still running.
class CompilesAhead {
 public:
  explicit CompilesAhead(unsigned parallel);
  ~CompilesAhead();
  CompilesAhead(const CompilesAhead&) = delete;
  CompilesAhead& operator=(const CompilesAhead&) = delete;

  // `key` names the variant for `wait`; a variant no toolchain here compiles is not compiled
  // (its point is skipped with the reason when it is measured).
  void start(const std::string& key, VariantRequest request);
  // The outcome of `key`'s compile, started before; waits for it.
  CompileOutcome wait(const std::string& key);
  std::size_t started() const { return started_; }

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::string, VariantRequest>> queue_;
  std::map<std::string, std::optional<CompileOutcome>> outcomes_;
  std::vector<std::thread> workers_;
  std::size_t started_ = 0;
  bool closing_ = false;
};

}  // namespace convlab
