// The derived columns a config declares (derive:, docs/notebook.md): named quantities computed per
// record from an expression over records (record_expressions.hpp), which figures and tables plot
// as the field derive.NAME, and which `convlab show` and `convlab export --format` print.
//
//   derive:
//     eff_2t: "median_ms[params.threads=1] / (2 * median_ms)"
//
// For each record, a bare field name (median_ms) is the record's own value, and a query
// field[filter] selects among the latest ok points of the record's problem (the same image,
// kernel, border and output, measured on the same machine). Where one value is needed, the
// points of the record's own configuration are preferred: median_ms[params.threads=1] is the same
// implementation with the same other params at one thread; naming implementation leaves the
// configuration free. Aggregates range over every point the filter selects in the problem
// (median_ms / min(median_ms[]) is the time relative to the problem's fastest point). A record
// has no value where a query matches no point, a field is missing or a division is by zero;
// a query that matches several points where one is needed stops the reader, naming the record.
#pragma once

#include <string>
#include <vector>

#include "core/expression.hpp"
#include "query/record_expressions.hpp"
#include "query/results_document.hpp"

namespace convlab {

struct DerivedColumn {
  std::string name;  // the field is derive.NAME
  std::string text;  // the expression as written
  Expression expression;
  Unit unit;
};

// The rules an expression of derived column `index` of `columns` is checked with: bare names, and
// the columns declared before it.
ExpressionRules derived_column_rules(const std::vector<DerivedColumn>& columns, size_t index);

// The rules of a discussion's computed values: queries only, every declared column.
ExpressionRules value_rules(const std::vector<DerivedColumn>& columns);

// Sets Record::computed of every record of `results`, column by column in order (a column may
// read the ones before it). Throws ResultsError "derive.NAME: for the point ...: why" when a query
// matches several points where one is needed, or reads a text field as a number.
void compute_derived_columns(ResultsDocument& results, const std::vector<DerivedColumn>& columns);

}  // namespace convlab
