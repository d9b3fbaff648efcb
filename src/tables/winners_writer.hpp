// Writing the winners tables (query/winners.hpp) for `convlab show --best` and `convlab export
// --best --format csv|md|tsv`. md is for people: problem columns equal in every row are said once
// above the table, pivot groups get a heading each, numbers have four significant digits, and a
// legend says what the ratios and the test are. csv and tsv are one flat table with every column
// in full precision, for scripts.
#pragma once

#include <ostream>

#include "query/winners.hpp"
#include "tables/flat_table.hpp"

namespace convlab {

// One row per problem: csv/tsv columns image, kernel, border, output, machine, implementation,
// configuration, median_ms, runner_up, runner_up_configuration, runner_up_median_ms,
// runner_up_ratio, p_value, difference, baseline, baseline_ratio, baseline_note.
FlatTable winners_flat_table(const WinnersTable& table, FlatFormat format);
void write_winners(const WinnersTable& table, FlatFormat format, std::ostream& out);

// One row per group and value of the pivot field: the group's labels, the field, each
// implementation's fastest median (csv/tsv add its configuration), the fastest implementation,
// its ratio to the runner-up, p and the difference.
FlatTable pivot_flat_table(const WinnersPivot& pivot, FlatFormat format);
void write_pivot(const WinnersPivot& pivot, FlatFormat format, std::ostream& out);

}  // namespace convlab
