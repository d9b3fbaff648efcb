// Which table of a results file `show` prints and `export --format` writes, as their options
// choose it: every record (those --filter keeps), the winners of each problem (--best, pivoted
// --by FIELD), the values of one param against each other (--compare params.X, --against VALUE)
// or every implementation against one (--vs IMPLEMENTATION, --by FIELD). Each command declares
// these options with help of its own and checks the rules between them itself.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/point_filter.hpp"
#include "query/param_comparison.hpp"
#include "query/results_document.hpp"
#include "query/versus.hpp"

namespace convlab {

struct TableChoice {
  std::optional<PointFilter> filter;
  bool best = false;
  std::optional<std::string> by;
  std::optional<std::string> compare;  // params.X
  std::optional<std::string> against;
  std::optional<std::string> vs;  // an implementation every other one is compared with
  bool all_versions = false;

  // What the table of records lists: every record of the document, those --filter keeps; `file`
  // names the results file in the message of a filter that keeps none.
  std::vector<const Record*> chosen_records(const ResultsDocument& document,
                                            const std::string& file) const;
  // What --best, --compare and --vs compute with: the latest ok record of each point and machine
  // (query/record_queries.hpp), those --filter keeps.
  std::vector<const Record*> chosen_points(const ResultsDocument& document) const;
  ParamComparisonOptions comparison_options() const;  // --against
  VersusOptions versus_options() const;               // --vs and --by
};

}  // namespace convlab
