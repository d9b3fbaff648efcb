// Every implementation against one named implementation: "is my kernel faster than openmp, and
// than filter2D?" answered for each problem (image, kernel, border, output and host: a CUDA point
// and a CPU point of one host answer the same question), or for each value of a field (--by
// kernel.size), in one table. In each row every implementation takes its
// fastest configuration, as the winners' pivot does; its median over the named implementation's
// gives the ratio (below 1 is faster), and the two-sided Mann-Whitney U test on their raw samples
// the verdict, in the words of `convlab compare` and `show --compare`. `convlab show --vs`,
// `convlab export --vs` and a `tables:` declaration with `vs:` (placed in the notebook with
// {{table: NAME}}) are made from it. Typed; tables/versus_writer.hpp writes it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "measure/mann_whitney.hpp"
#include "query/mixed_runs.hpp"
#include "query/winners.hpp"
#include "store/record.hpp"
#include "store/run_block.hpp"

namespace convlab {

struct VersusOptions {
  std::string against;            // the implementation every other one is compared with
  std::optional<std::string> by;  // one row per value of this field instead of per problem
  double threshold = 0.05;        // the change that counts, as `convlab compare --threshold`
  double alpha = 0.05;            // significance level of the Mann-Whitney U test
};

// One implementation in one row. Record pointers point into the document the table was made from.
struct VersusCell {
  const Record* point = nullptr;         // its fastest configuration here; null: none measured
  std::optional<double> ratio;           // its median / the named one's; below 1 is faster
  MannWhitney test;                      // the named one's samples against this point's
  std::optional<ChangeVerdict> verdict;  // none without a point of either
  bool conditions_differ = false;        // the two come from runs under different conditions
};

struct VersusRow {
  // What the row is: the problem's parts that vary between rows (image, kernel, ...), or with
  // --by the group's labels and the field's value, as field -> value.
  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<std::pair<std::string, std::string>> parts;  // every part, the constant ones too
  const Record* reference = nullptr;  // the named implementation's fastest point; null: none here
  std::vector<VersusCell> cells;      // one per VersusTable::implementations
};

struct VersusTable {
  std::string against;
  std::optional<std::string> by;
  double threshold = 0.05, alpha = 0.05;
  SweptParams swept;
  std::vector<std::string> implementations;  // every other one, in order of first appearance
  std::vector<VersusRow> rows;
  // Problem parts equal in every row (field -> value), said once above the table.
  std::vector<std::pair<std::string, std::string>> constant;
  MixedRuns runs;  // the runs of every point shown
};

// Throws ResultsError when no ok point is of `options.against` (naming the implementations there
// are, with the closest one), when it is the only implementation, or when --by names a field that
// is not one (as `show --best --by`).
VersusTable compare_with_implementation(const std::vector<const Record*>& points,
                                        const std::vector<RunBlock>& runs,
                                        const VersusOptions& options);

// A row's labels as one line: "gaussian7, 1024x1024" (values only, in order).
std::string versus_row_words(const VersusRow& row);
// A cell in words, the same wherever the table is written: "0.42x, faster (p = 0.002)";
// "no point" where the implementation or the named one has none in the row.
std::string versus_cell_words(const VersusCell& cell);
// "its fastest configuration's median / openmp's fastest, below 1 is faster; ..." for a legend.
std::string versus_legend(const VersusTable& table);

}  // namespace convlab
