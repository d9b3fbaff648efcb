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
  ExpressionError(const std::string& message, std::size_t position)
      : std::runtime_error(message), position_(position) {}
  std::size_t position() const { return position_; }

 private:
  std::size_t position_;
};

struct ExpressionNode;

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
// the points a filter selects (several for aggregates; a lone value where one is needed).
struct ExpressionScope {
  std::function<std::optional<double>(const std::string& name)> name;
  std::function<std::vector<double>(const std::string& field, const std::string& filter)> query;
};

// Throws ExpressionError: an unknown name, a query no point answers, several values where one is
// needed, division by zero, an unknown function. Functions: min, max, mean, sum, geomean, count,
// median (over the values of their arguments, queries included), abs, sqrt, log, exp, round,
// floor, ceil (of one value).
double evaluate(const Expression& expression, const ExpressionScope& scope);

}  // namespace convlab
