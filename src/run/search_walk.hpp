// One search of one problem in a run (config/search_spec.hpp, plan/search_strategy.hpp): the
// strategy proposes variants, each compiled ahead (a user's kernel, a few at a time in parallel,
// run/kernel_compilation.hpp), then measured, or found in the results when an earlier run
// measured it (so a search interrupted and run again continues where it stopped: the same seed
// and the same objectives propose the same variants), until the budget of variants or of seconds
// is spent. A variant that failed or could not run counts against the budget and is never the
// best. The search's time is its compiles waited for and its measurements; both are recorded.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "plan/search_space.hpp"
#include "plan/search_strategy.hpp"
#include "run/kernel_compilation.hpp"
#include "run/schedule.hpp"
#include "store/record.hpp"

namespace convlab {

class SearchWalk {
 public:
  SearchWalk(const Config& config, const std::vector<Point>& plan, const SearchGroup& group,
             int cuda_device);
  ~SearchWalk();

  // One step as the search has it before measuring: its number (from 1), the best objective
  // before it, its variant's compile seconds and the search's seconds so far.
  struct Step {
    int number = 0;
    double best_before = 0.0;
    double compile_seconds = 0.0;
    double seconds_before = 0.0;
  };
  // What measuring a variant gave: its record (measured, or found in the results) and the
  // seconds measuring took (0 for a record found).
  struct Measured {
    Record record;
    double seconds = 0.0;
  };
  // `variant(point, step)` measures the variant or finds its record; nullopt ends the search
  // (--max-points reached). `point` is the search's point with the variant's params.
  using VariantRun = std::function<std::optional<Measured>(const Point&, const Step&)>;
  void run(const VariantRun& variant);

  // The search's objective of a record: its median (or end-to-end median), nullopt when it is
  // not ok.
  std::optional<double> objective_of(const Record& record) const;
  // Variants compiled for it, and their seconds.
  std::size_t compiled() const { return compiled_; }

 private:
  Point variant_point(const Coordinate& variant) const;
  std::string compile_key(const Coordinate& variant) const;

  const Config& config_;
  const Point& point_;
  const SearchGroup& group_;
  const SearchSpec& spec_;
  int cuda_device_;
  SearchSpace space_;
  std::unique_ptr<CompilesAhead> compiles_;
  std::size_t compiled_ = 0;
};

// Stamps a search's record measured at `step`, whose measurement took `measure_seconds`: its
// step, its best objective up to and including it, its compile and measuring seconds and the
// search's seconds so far.
void stamp_search_step(Record& record, const SearchWalk::Step& step,
                       std::optional<double> objective, double measure_seconds);

}  // namespace convlab
