// A `tables:` declaration with `vs: IMPLEMENTATION` as a table of the notebook and the report:
// one row per problem (or per value of `by`), the named implementation's median first, then one
// column per other implementation, each cell its ratio and verdict in the words `convlab show
// --vs` and `convlab export --vs` use (query/versus.hpp). Placed like any table, {{table: NAME}}.
#pragma once

#include <string>
#include <vector>

#include "figures/figure_data.hpp"

namespace convlab {

// Throws NoDataError (with `context`) when no point is of the named implementation: whether it
// has ok points is for the results to say.
TableData versus_table_data(const TableDeclaration& declaration,
                            const std::vector<const Record*>& points, const std::string& context);

}  // namespace convlab
