// One search of one problem in a run (config/search_spec.hpp, plan/search_strategy.hpp): the
// strategy proposes variants, each is measured, or found in the results when an earlier run
// measured it (so a search interrupted and run again continues where it stopped: the same seed
// and the same objectives propose the same variants), until the budget of variants or of
// measuring time is spent. A variant that failed or could not run counts against the budget and
// is never the best.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "plan/search_space.hpp"
#include "plan/search_strategy.hpp"
#include "run/schedule.hpp"
#include "store/record.hpp"

namespace convlab {

class SearchWalk {
 public:
  SearchWalk(const Config& config, const std::vector<Point>& plan, const SearchGroup& group,
             bool force);

  // `variant(plan index, step, best objective before this step)` measures the variant or finds
  // its record; nullopt ends the search (--max-points reached).
  using VariantRun = std::function<std::optional<Record>(std::size_t, int, double)>;
  void run(const VariantRun& variant);

  // The search's objective of a record: its median (or end-to-end median), nullopt when it is
  // not ok.
  std::optional<double> objective_of(const Record& record) const;

 private:
  const std::vector<Point>& plan_;
  const SearchGroup& group_;
  const SearchSpec& spec_;
  SearchTag tag_;
  SearchSpace space_;
};

// The search's step and its best objective up to and including this record.
void stamp_search_step(Record& record, int step, double best_before,
                       std::optional<double> objective);

}  // namespace convlab
