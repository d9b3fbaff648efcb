// Writing the comparison of configurations (query/param_comparison.hpp) for `convlab show
// --compare params.X` and `convlab export --compare params.X --format csv|md|tsv`. md is for
// people: parts equal in every row are said once above the table, numbers have four significant
// digits, flagged numbers carry a footnote mark, and a legend says what the ratio, the test and
// the marks mean. csv and tsv are one flat table with every column in full precision.
#pragma once

#include <ostream>

#include "query/param_comparison.hpp"
#include "tables/flat_table.hpp"

namespace convlab {

// One row per group and value: csv/tsv columns image, kernel, border, output, machine,
// implementation, configuration, <field>, median_ms, cv, reference, ratio, p_value, verdict,
// (params.threads: speedup, efficiency), flags, conditions.
FlatTable param_comparison_flat_table(const ParamComparison& comparison, FlatFormat format);
void write_param_comparison(const ParamComparison& comparison, FlatFormat format,
                            std::ostream& out);

}  // namespace convlab
