// Which implementation wins each problem, and by how much: the question a sweep is run to answer.
// A problem is one image, kernel, border and output measured on one machine; its contenders are
// the latest ok points of every implementation and configuration (record_queries.hpp). The
// tables here are typed; `convlab show --best`, `convlab export --best` and the notebook write
// them (report/winners_writer.hpp), none of them computes anything.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/mann_whitney.hpp"
#include "query/mixed_runs.hpp"
#include "query/results_document.hpp"
#include "store/record.hpp"

namespace convlab {

struct WinnersOptions {
  double alpha = 0.05;  // significance level of the Mann-Whitney U test
};

// The problem a record measures on its machine (image, kernel, border, output, machine): what
// the points of a winners row compete on.
std::string problem_of(const Record& record);

// Whether the winner's samples differ from the runner-up's (two-sided Mann-Whitney U, as
// `convlab compare`): significant when p < alpha; within noise when not; too few samples when
// samples of these sizes cannot reach p < alpha at all; alone when nothing else was measured.
enum class WinMargin { significant, within_noise, too_few_samples, alone };
const char* to_string(WinMargin margin);

// The winner of one problem. Record pointers point into the ResultsDocument the table was made
// from and live as long as it does.
struct ProblemWinner {
  const Record* winner = nullptr;  // the fastest point (lowest median time)
  // The fastest point of another implementation, or, when only one implementation measured the
  // problem, its second-fastest configuration; null when the winner is the only point.
  const Record* runner_up = nullptr;
  size_t contenders = 0;                  // points measured on the problem
  std::optional<double> runner_up_ratio;  // runner-up median / winner median (>= 1)
  MannWhitney test;                       // winner against runner-up, on the raw samples
  WinMargin margin = WinMargin::alone;
  // Baseline median / winner median (the winner's derived speedup), or why there is none.
  std::optional<double> baseline_ratio;
  std::string baseline_gap;
  // The winner, its runner-up and its baseline point come from runs under different conditions
  // (mixed_runs.hpp): the ratios may be the conditions', not the implementations'.
  bool conditions_differ = false;
};

// Per implementation, the params whose values differ among its points: what tells its
// configurations apart (threads), as opposed to settings every point shares (tile=0).
using SweptParams = std::map<std::string, std::vector<std::string>>;
SweptParams swept_params(const std::vector<const Record*>& points);

struct WinnersTable {
  std::string baseline;  // the baseline in words: "sequential", "openmp threads=1"
  double alpha = 0.05;
  SweptParams swept;
  bool several_machines = false;      // rows then name their machine
  std::vector<ProblemWinner> rows;    // problems in the order the points were measured
  std::vector<std::string> constant;  // problem fields equal in every row (image.name, border...)
  MixedRuns runs;                     // the runs of the points the rows show
};

// The winners of the problems `points` measure; `results` gives the baseline and, for problems
// whose baseline point is missing, every record to say why.
WinnersTable find_winners(const ResultsDocument& results, const std::vector<const Record*>& points,
                          const WinnersOptions& options = {});

// --- Pivot: `--by FIELD` -----------------------------------------------------------------------

// One cell: the fastest configuration of one implementation among the points of a row.
struct PivotCell {
  const Record* best = nullptr;  // null: the implementation has no point in this row
};

struct PivotRow {
  std::string value;             // the row's value of the field, as text (record_fields.hpp)
  std::vector<PivotCell> cells;  // one per WinnersPivot::implementations
  std::optional<size_t> winner;  // index of the fastest cell
  std::optional<size_t> runner_up;
  std::optional<double> runner_up_ratio;
  WinMargin margin = WinMargin::alone;
  double p_value = 1;
  bool conditions_differ = false;  // the fastest and the runner-up: runs of other conditions
};

// Rows that share everything but the pivot field: one image, kernel family, border, output and
// machine when the field is kernel.size, for example.
struct PivotGroup {
  std::vector<std::pair<std::string, std::string>> labels;  // field -> value, those that vary
  std::vector<std::pair<std::string, std::string>> parts;   // field -> value, all of them
  std::vector<PivotRow> rows;                               // in the field's order
};

struct WinnersPivot {
  std::string field;  // the field the rows are
  SweptParams swept;
  std::vector<std::string> implementations;  // the columns, in order of first appearance
  std::vector<PivotGroup> groups;
  double alpha = 0.05;
  MixedRuns runs;  // the runs of the points the cells show
};

// Throws ResultsError when `field` is not a record field (with a suggestion), is the
// implementation itself, or no point has it. `runs`: the file's run blocks, for the conditions of
// the points (none: conditions are not compared).
WinnersPivot pivot_winners(const std::vector<const Record*>& points, const std::string& field,
                           const WinnersOptions& options = {},
                           const std::vector<RunBlock>& runs = {});

}  // namespace convlab
