// The variants of users' kernels a run in this process measures, compiled ahead of their
// measurements: a unit's variants are started in the order they are measured, on every core but
// the one that measures, and each point waits only for its own. A run stopped at a time limit
// keeps what it measured instead of having compiled the space. The first variant of each kernel
// was compiled before the run (run/kernel_compilation.hpp compile_first_variants); a later one
// that does not compile fails its point with the compiler's lines.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "run/kernel_compilation.hpp"

namespace convlab {

class PlanCompiles {
 public:
  // `first`: what compiling the first variants did, counted in what say() reports.
  PlanCompiles(const Config& config, const std::vector<Point>& plan, int cuda_device,
               CompileSummary first);

  // Whether the plan has points of users' kernels at all.
  bool any() const { return any_; }
  // Starts compiling the variants of these plan points, in this order; ones started before, the
  // first variants and ones no toolchain here compiles are not started again.
  void start(const std::vector<std::size_t>& points);
  // Waits for the compile of plan point `index`'s variant, if one was started; its seconds.
  double wait(std::size_t index);
  // What the run compiled, found in the cache and waited for, and the variants that did not
  // compile (their points failed).
  void say(std::ostream* log) const;

 private:
  std::string key_of(std::size_t index) const;

  const Config& config_;
  const std::vector<Point>& plan_;
  int cuda_device_;
  bool any_ = false;
  CompileSummary summary_;
  std::set<std::string> done_;  // identities compiled, found or failed: never started again
  std::map<std::size_t, std::string> key_;  // plan index -> identity, of started variants
  std::size_t failed_ = 0;
  std::string first_failure_;
  double waited_ = 0.0;
  std::chrono::steady_clock::time_point begun_{}, ended_{};
  bool started_any_ = false;
  std::unique_ptr<CompilesAhead> compiles_;
};

}  // namespace convlab
