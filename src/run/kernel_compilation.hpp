// Compiling the variants of users' kernels a plan needs. validate, and a run that starts device
// workers or SLURM jobs, compile every one before anything is measured, so that a compile error
// is reported before the first point runs and no point pays for a compiler. A run in this process
// (and its --dry-run) compiles the first variant of each kernel first, so that a source that does
// not compile stops it before anything runs with every variant's errors, and the rest ahead of
// their measurements on every core (run/plan_compiles.hpp); a search's variants are compiled as
// it proposes them, a few ahead of its measurements and in parallel (CompilesAhead).
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

#include "plan/plan.hpp"
#include "user_kernels/kernel_compiler.hpp"

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

// Compiles the first variant of each user's kernel in `plan`; when one does not compile, compiles
// every variant and throws KernelsDoNotCompile with all their errors ("nothing was run").
CompileSummary compile_first_variants(const Config& config, const std::vector<Point>& plan,
                                      int cuda_device);

// "convlab: your kernels: 12 variants compiled in 3.2 s, 4 from the kernel cache" and the variants
// no toolchain here compiles; `waited` ends the first line. Nothing when `log` is null.
void say_compiled(const CompileSummary& summary, std::ostream* log, const std::string& waited = "");

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
