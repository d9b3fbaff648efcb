// Configurations of one implementation against each other: for `convlab show --compare params.X`
// (and `--best --by params.X`), per problem (image, kernel, border, output, machine), per
// implementation and per value of its other params, each value of X against a reference value,
// with the Mann-Whitney verdict `convlab compare` gives (measure/mann_whitney.hpp). For
// params.threads, the speedup and parallel efficiency against the one-thread point too (derived
// metrics, derive.hpp). Typed; param_comparison_writer.hpp writes it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/mann_whitney.hpp"
#include "query/mixed_runs.hpp"
#include "query/point_flags.hpp"
#include "query/winners.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

struct ParamComparisonOptions {
  std::optional<std::string> against;  // the reference value as text; default: each group's first
  double threshold = 0.05;             // the change that counts, as `convlab compare --threshold`
  double alpha = 0.05;                 // significance level of the Mann-Whitney U test
};

// One value of the field in a group: the point measured with it. Record pointers point into the
// document the comparison was made from.
struct ParamRow {
  std::string value;  // the field's value as text (record_fields.hpp)
  const Record* point = nullptr;
  bool reference = false;
  std::optional<double> ratio;           // median / the reference's median; below 1 is faster
  MannWhitney test;                      // the reference's samples against this point's
  std::optional<ChangeVerdict> verdict;  // none for the reference, or without one
  // params.threads only, from the derived metrics: T(1) / T(P) and T(1) / (P T(P)) against the
  // point with one thread and the other params equal; none without such a point.
  std::optional<double> speedup, efficiency;
  std::vector<PointFlag> flags;
  // This point and the points it is related to (its reference, its one-thread point) come from
  // runs under different conditions (mixed_runs.hpp).
  bool conditions_differ = false;
};

// The points of one problem and one configuration of an implementation apart from the field.
struct ParamGroup {
  // field -> value: image.name, kernel.name, border, output, machine, implementation, and the
  // implementation's other params in words ("schedule=static"), under "configuration".
  std::vector<std::pair<std::string, std::string>> parts;
  std::optional<std::string> reference_value;  // none: no point has the --against value
  std::vector<ParamRow> rows;                  // in the field's order
};

struct ParamComparison {
  std::string field;  // params.X
  std::optional<std::string> against;
  bool threads = false;  // the field is params.threads: speedup and efficiency are given
  double threshold = 0.05, alpha = 0.05;
  SweptParams swept;
  std::vector<ParamGroup> groups;  // groups with at least two values, in the points' order
  // Implementations that have the field with one value only: nothing to compare.
  std::vector<std::pair<std::string, std::string>> single_valued;  // implementation -> value
  MixedRuns runs;                                                  // the runs of every point shown
};

// Throws ResultsError when `field` is not a params field, no ok point has it, no implementation
// has two values of it on one problem, or no point has the `against` value (naming the values).
ParamComparison compare_param_values(const std::vector<const Record*>& points,
                                     const std::vector<RunBlock>& runs, const std::string& field,
                                     const ParamComparisonOptions& options = {});

}  // namespace convlab
