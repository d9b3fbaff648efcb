// Expressions (core/expression.hpp) over an experiment's records: the computed values of a
// discussion ({{ median_ms[params.threads=1] / (2 * median_ms[params.threads=2]) | .2f }}) and
// the derived columns a config declares (derive:, derived_columns.hpp). A query field[filter]
// reads a field (record_fields.hpp) of the points a point filter (core/point_filter.hpp) selects;
// a bare field name reads the record a derived column is computed for. Before anything is
// evaluated an expression is checked: every field and function known (with the closest name
// when not) and its units consistent, so that adding milliseconds to GB/s, or formatting a time
// as a percentage, is refused with the place of the mistake.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expression.hpp"
#include "store/record.hpp"

namespace convlab {

// A unit as a product of named units with integer powers: "ms", "GB/s", "ms^2", "1/ms". A field's
// unit is the one its axis label names in brackets ("Median time [ms]"); a field without one, and
// a ratio ("[x]"), is a plain number. A number written in an expression takes the unit of what it
// is added to or compared with (median_ms[...] - 0.5 is in ms) and scales what it multiplies.
class Unit {
 public:
  static Unit plain() { return Unit(); }
  static Unit literal();
  // "GB/s", "Mpixel/s", "ms"; "x" and "" are plain numbers.
  static Unit parse(std::string_view text);

  bool is_literal() const { return literal_; }
  bool has_dimension() const { return !powers_.empty(); }
  Unit times(const Unit& other) const;
  Unit over(const Unit& other) const;
  Unit power(int exponent) const;
  // The square root, when every power is even.
  std::optional<Unit> root() const;
  // "ms", "GB/s", "a plain number"; a literal reads "a number".
  std::string text() const;
  bool operator==(const Unit& other) const {
    return powers_ == other.powers_ && literal_ == other.literal_;
  }

 private:
  void drop_zero_powers();
  std::map<std::string, int> powers_;
  bool literal_ = false;
};

// The unit of a record field (a derived column's is its expression's, given by the caller).
Unit field_unit(std::string_view field);

// What an expression may name where it is checked.
struct ExpressionRules {
  // Bare field names read the record's own values (a derived column); otherwise every field
  // is read through a query, field[filter].
  bool record_names = false;
  // The derived columns that may be named (derive.NAME) and their units, in declaration order.
  std::vector<std::pair<std::string, Unit>> derived;
};

// Checks fields, filters, functions and units; returns the expression's unit. Throws
// ExpressionError (at the node's position): an unknown field or function, with the closest name;
// a filter that does not parse; units that do not agree ("adds GB/s to ms").
Unit check_record_expression(const Expression& expression, const ExpressionRules& rules);

// The records a query chooses among: the latest ok record of each point, and, for a filter that
// names `status`, the latest record of each point whatever its status (so that
// count(status[status=skipped]) counts skipped points).
struct QueryRecords {
  std::vector<const Record*> ok;
  std::vector<const Record*> latest;
};

// Evaluates over `records`; `self`, for a derived column, is the record bare names read, and a
// query where one value is needed prefers the points of its configuration (same implementation
// and params, but for those the filter names). Throws ExpressionError: no point matches
// (Kind::no_value), several where one is needed (Kind::several), division by zero
// (Kind::arithmetic), a text field where a number is needed (Kind::invalid).
double evaluate_over_records(const Expression& expression, const QueryRecords& records,
                             const Record* self = nullptr);

// The records of `records` a query's filter selects, as evaluate_over_records chooses them; for
// the messages that list the points of an ambiguous query.
std::vector<const Record*> query_points(const QueryRecords& records, const std::string& filter);

// The node of `expression` at `position` that is a query, or nullptr.
const ExpressionNode* query_at(const Expression& expression, std::size_t position);

}  // namespace convlab
