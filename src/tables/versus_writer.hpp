// Writing every implementation against a named one (query/versus.hpp) for `convlab show --vs IMPL`
// and `convlab export --vs IMPL --format csv|md|tsv`. md is for people: the parts equal in every
// row are said once above the table, then per row the named implementation's fastest point and
// each other implementation's with its ratio and verdict, and a legend. csv and tsv are one flat
// table with every column in full precision.
#pragma once

#include <ostream>

#include "query/versus.hpp"
#include "tables/flat_table.hpp"

namespace convlab {

// md: one row per row of the table and implementation, the named one first: the row's labels,
// implementation, configuration, median ms, ratio, difference. csv and tsv: every part of the
// row (image, kernel, border, output, machine, or the --by groups' parts and the field),
// implementation, configuration, median_ms, reference, reference_configuration,
// reference_median_ms, ratio, p_value, verdict, conditions; one row per implementation other than
// the named one.
FlatTable versus_flat_table(const VersusTable& table, FlatFormat format);
void write_versus(const VersusTable& table, FlatFormat format, std::ostream& out);

}  // namespace convlab
