// A small expression language over numbers, shared by the places a config computes something:
// a search's restrictions over params ("BLOCK_X * BLOCK_Y <= 1024", "TILE % BLOCK_X == 0") and the
// analysis of results (derived columns and computed values in discussions, which add queries
// "median_ms[params.threads=1]" and functions "geomean(median_ms[...])"). Grammar (docs/search.md):
//
//   expression := or
//   or         := and ('||' and)*
//   and        := compare ('&&' compare)*
//   compare    := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
//   sum        := product (('+' | '-') product)*
//   product    := unary (('*' | '/' | '%') unary)*
//   unary      := ('-' | '!') unary | power
//   power      := primary ('^' unary)?
//   primary    := number | name | name '[' filter ']' | name '(' arguments ')' | '(' expression ')'
//   name       := letter or '_', then letters, digits, '_' and '.' (params.threads)
//
// Comparisons and logic give 1 or 0; '%' is the remainder of integers (fmod otherwise); '^' is a
// power, right-associative. What names, queries and functions mean is the caller's: an
// ExpressionScope answers them, so the parser knows no field of any stage.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace convlab {

// A text that is not an expression, or one that cannot be evaluated: `what()` says why, and
// `position` is the offset into the text (for a caret under it).
class ExpressionError : public std::runtime_error {
 public:
  // What went wrong, for callers that treat a missing value apart from a mistake: a derived
  // column has no value for a record whose query matches no point (no_value) or that divides by
  // zero (arithmetic), but stops at a query that matches several points where one is needed.
  enum class Kind { invalid, no_value, several, arithmetic };
  ExpressionError(const std::string& message, std::size_t position, Kind kind = Kind::invalid)
      : std::runtime_error(message), position_(position), kind_(kind) {}
  std::size_t position() const { return position_; }
  Kind kind() const { return kind_; }

 private:
  std::size_t position_;
  Kind kind_;
};

// A node of a parsed expression: what callers that check an expression before evaluating it
// (units, known fields) walk.
struct ExpressionNode {
  enum class Kind { number, name, query, call, unary, binary };
  Kind kind = Kind::number;
  double number = 0.0;
  std::string text;    // name, query field, function or operator
  std::string filter;  // query: the text between the brackets
  std::vector<std::shared_ptr<const ExpressionNode>> children;
  std::size_t position = 0;
};

class Expression {
 public:
  // Throws ExpressionError.
  static Expression parse(const std::string& text);

  // The names the expression reads (outside queries and function calls), each once, in order.
  std::vector<std::string> names() const;
  // The names of its queries (median_ms in median_ms[...]) and functions, each once.
  std::vector<std::string> queries() const;
  std::vector<std::string> functions() const;

  const std::string& text() const { return text_; }
  std::shared_ptr<const ExpressionNode> root() const { return root_; }

 private:
  std::string text_;
  std::shared_ptr<const ExpressionNode> root_;
};

// What names mean where an expression is evaluated. A query yields the values of a field over
// the points a filter selects (several for aggregates; a lone value where one is needed). `count`,
// when given, answers count(field[filter]): the points the filter selects that have the field,
// 0 when none does (without it count() counts the query's values, and a query without any is an
// error).
struct ExpressionScope {
  std::function<std::optional<double>(const std::string& name)> name;
  std::function<std::vector<double>(const std::string& field, const std::string& filter)> query;
  std::function<std::size_t(const std::string& field, const std::string& filter)> count;
  // `one`, when given, answers a query where one value is needed (outside an aggregate), so that
  // the scope may narrow what the filter selects (a derived column prefers its own record's
  // configuration); without it the query's values must be exactly one.
  std::function<std::vector<double>(const std::string& field, const std::string& filter)> one;
  // pvalue(field[a], field[b]), when both are given: `samples` answers the timed samples of each
  // point a query selects (narrowed as `one` narrows), `p_value` the two-sided p of two points'
  // samples. Without them pvalue() is refused.
  std::function<std::vector<std::vector<double>>(const std::string& field,
                                                 const std::string& filter)>
      samples;
  std::function<double(const std::vector<double>& a, const std::vector<double>& b)> p_value;
};

// Throws ExpressionError: an unknown name, a query no point answers, several values where one is
// needed, division by zero, an unknown function. Functions: min, max, mean, sum, geomean, count,
// median (over the values of their arguments, queries included), abs, sqrt, log, exp, round,
// floor, ceil (of one value), pvalue (of two queries of one point each, through the scope).
double evaluate(const Expression& expression, const ExpressionScope& scope);

// An error with where in `text` it happened: "unexpected ')' (at ') * 2')".
std::string expression_error_text(const ExpressionError& error, const std::string& text);

}  // namespace convlab
