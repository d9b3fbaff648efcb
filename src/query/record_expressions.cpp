#include "query/record_expressions.hpp"

#include <algorithm>
#include <cmath>

#include "core/closest_name.hpp"
#include "core/message_text.hpp"
#include "core/point_filter.hpp"
#include "measure/mann_whitney.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"

namespace convlab {
namespace {

using Node = ExpressionNode;

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names{"min",     "max",   "mean",  "median", "sum",
                                              "geomean", "count", "abs",   "sqrt",   "log",
                                              "exp",     "round", "floor", "ceil",   "pvalue"};
  return names;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string trimmed(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  const size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

// Named units of one side of a unit's text: "GB", "Mpixel*s".
void add_powers(std::string_view side, int sign, std::map<std::string, int>& powers) {
  size_t start = 0;
  while (start <= side.size()) {
    const size_t end = std::min(side.find('*', start), side.size());
    const std::string name = trimmed(side.substr(start, end - start));
    if (!name.empty() && name != "1" && name != "x") powers[name] += sign;
    start = end + 1;
  }
}

// Statistics of a phase's samples, which are times.
bool timing_path_in_ms(std::string_view field) {
  if (!starts_with(field, "timing.")) return false;
  for (const char* stat : {".median", ".min", ".max", ".q1", ".q3", ".mean", ".stddev"}) {
    const std::string_view suffix(stat);
    if (field.size() > suffix.size() && field.substr(field.size() - suffix.size()) == suffix)
      return true;
  }
  return false;
}

std::string closest_suggestion(const std::string& name, const std::vector<std::string>& known) {
  const std::string close = closest_name(name, known);
  return close.empty() ? "" : "; did you mean '" + close + "'?";
}

class Checker {
 public:
  explicit Checker(const ExpressionRules& rules) : rules_(rules) {}

  Unit unit(const Node& node) {
    switch (node.kind) {
      case Node::Kind::number:
        return Unit::literal();
      case Node::Kind::name:
        if (!rules_.record_names)
          throw ExpressionError(
              "'" + node.text + "' alone names no point: write a query, " + node.text + "[filter]",
              node.position);
        return field(node.text, node.position);
      case Node::Kind::query:
        check_filter(node);
        return field(node.text, node.position);
      case Node::Kind::call:
        return call(node);
      case Node::Kind::unary:
        return node.text == "-" ? unit(*node.children[0]) : (unit(*node.children[0]), Unit());
      case Node::Kind::binary:
        return binary(node);
    }
    return Unit();
  }

 private:
  std::vector<std::string> derived_fields() const {
    std::vector<std::string> names;
    for (const auto& [name, unit] : rules_.derived) names.push_back("derive." + name);
    return names;
  }

  std::optional<std::string> unknown_field(const std::string& name) const {
    if (starts_with(name, "derive.")) {
      for (const auto& [declared, unit] : rules_.derived)
        if (name == "derive." + declared) return std::nullopt;
      if (rules_.derived.empty())
        return "unknown field '" + name + "': the config derives no column (derive:)";
      return "unknown field '" + name + "'" + closest_suggestion(name, derived_fields());
    }
    std::string suggestion;
    if (is_known_field(name, &suggestion)) return std::nullopt;
    return "unknown field '" + name + "'" +
           (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?");
  }

  Unit field(const std::string& name, std::size_t position) const {
    if (const auto unknown = unknown_field(name)) throw ExpressionError(*unknown, position);
    for (const auto& [declared, unit] : rules_.derived)
      if (name == "derive." + declared) return unit;
    return field_unit(name);
  }

  void check_filter(const Node& node) const {
    if (trimmed(node.filter).empty()) return;
    std::string error;
    const auto filter = parse_point_filter(node.filter, &error);
    if (!filter)
      throw ExpressionError("invalid point filter '" + clipped(node.filter) + "': " +
                                clipped(error, 2 * kQuotedValueBytes),
                            node.position);
    for (const auto& clause : filter->clauses)
      if (const auto unknown = unknown_field(clause.field))
        throw ExpressionError(node.text + "[" + node.filter + "]: " + *unknown, node.position);
  }

  [[noreturn]] static void mismatch(const std::string& words, std::size_t position) {
    throw ExpressionError(words, position);
  }

  // The unit two operands share; a number written in the expression takes the other's.
  static Unit agree(const Unit& a, const Unit& b, const std::string& words, std::size_t position) {
    if (a.is_literal()) return b;
    if (b.is_literal() || a == b) return a;
    mismatch(words, position);
  }

  Unit call(const Node& node) {
    const std::string& f = node.text;
    const auto& known = function_names();
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      const std::string close = closest_name(f, known);
      throw ExpressionError("unknown function '" + f + "'" +
                                (close.empty() ? "; there are min, max, mean, median, sum, "
                                                 "geomean, count, abs, sqrt, log, exp, round, "
                                                 "floor, ceil, pvalue"
                                               : "; did you mean '" + close + "'?"),
                            node.position);
    }
    std::vector<Unit> units;
    for (const auto& child : node.children) units.push_back(unit(*child));
    if (f == "pvalue") {
      // The test is of two points' timed samples, which median_ms stands for.
      const auto timed = [](const auto& child) {
        return child->kind == Node::Kind::query && child->text == "median_ms";
      };
      if (node.children.size() != 2 || !timed(node.children[0]) || !timed(node.children[1]))
        throw ExpressionError(
            "pvalue() takes two queries of median_ms, median_ms[filter] each: the two-sided "
            "Mann-Whitney test of the two points' timed samples",
            node.position);
      return Unit();
    }
    if (f == "count") return Unit();
    if (units.empty()) return Unit::literal();
    if (f == "sqrt" || f == "log" || f == "exp") return of_one_value(node, units.front());
    Unit shared = units.front();
    for (size_t i = 1; i < units.size(); ++i)
      shared = agree(shared, units[i],
                     f + "() of values in " + shared.text() + " and in " + units[i].text(),
                     node.position);
    return shared;
  }

  static Unit of_one_value(const Node& node, const Unit& argument) {
    if (node.text == "sqrt") {
      if (const auto root = argument.root()) return *root;
      mismatch("sqrt() of a value in " + argument.text() + ", which is not a square",
               node.position);
    }
    if (argument.has_dimension())
      mismatch(node.text + "() of a value in " + argument.text() + ": divide it by a value in " +
                   argument.text() + " first",
               node.position);
    return argument;
  }

  Unit binary(const Node& node) {
    const std::string& op = node.text;
    const Unit a = unit(*node.children[0]);
    const Unit b = unit(*node.children[1]);
    if (op == "*") return a.times(b);
    if (op == "/") return a.over(b);
    if (op == "^") return power(node, a, b);
    if (op == "+") return agree(a, b, "adds " + b.text() + " to " + a.text(), node.position);
    if (op == "-") return agree(a, b, "subtracts " + b.text() + " from " + a.text(), node.position);
    if (op == "%")
      return agree(a, b, "the remainder of " + a.text() + " by " + b.text(), node.position);
    if (op == "&&" || op == "||") return Unit();
    agree(a, b, "compares " + a.text() + " with " + b.text(), node.position);
    return Unit();
  }

  static Unit power(const Node& node, const Unit& base, const Unit& exponent) {
    const Node& right = *node.children[1];
    const bool whole = right.kind == Node::Kind::number && std::floor(right.number) == right.number;
    if (whole && base.has_dimension()) return base.power(static_cast<int>(right.number));
    if (exponent.has_dimension())
      mismatch("an exponent in " + exponent.text() + ": it must be a plain number", node.position);
    if (base.has_dimension())
      mismatch("a power of a value in " + base.text() + " needs a whole number as exponent",
               node.position);
    return base.is_literal() && exponent.is_literal() ? Unit::literal() : Unit();
  }

  const ExpressionRules& rules_;
};

// Whether a filter names a field (its clauses, as the point filter reads them).
bool filter_names(const std::string& filter, std::string_view field) {
  std::string error;
  const auto parsed = parse_point_filter(filter, &error);
  if (!parsed) return false;
  return std::any_of(
      parsed->clauses.begin(), parsed->clauses.end(), [&](const FilterClause& clause) {
        return clause.field == field || starts_with(clause.field, std::string(field) + ".");
      });
}

// Of `points`, those of `self`'s configuration: its implementation unless the filter names
// another, and its value of every param the filter does not name (a point without that param
// passes). None when the filter names no implementation and `self`'s has no such point (the
// sequential loops have no one-thread point of their own); else all of them when none is.
std::vector<const Record*> own_configuration(const std::vector<const Record*>& points,
                                             const Record& self, const std::string& filter) {
  const bool other_implementation = filter_names(filter, "implementation") ||
                                    filter_names(filter, "family") ||
                                    filter_names(filter, "configuration");
  std::vector<const Record*> kept;
  for (const Record* point : points) {
    bool same = other_implementation || point->implementation == self.implementation;
    if (self.params.is_object() && point->params.is_object())
      for (const auto& [key, value] : self.params.items())
        if (same && !filter_names(filter, "params." + key) && point->params.contains(key))
          same = point->params[key] == value;
    if (same) kept.push_back(point);
  }
  if (kept.empty() && !other_implementation) return kept;
  return kept.empty() ? points : kept;
}

std::vector<double> numbers_of(const std::vector<const Record*>& points, const std::string& field) {
  std::vector<double> numbers;
  for (const Record* point : points) {
    const auto value = field_value(*point, field);
    if (!value) continue;
    if (!value->numeric)
      throw ExpressionError("'" + field + "' is text (" + value->text +
                                "): count() counts it, no other function takes it",
                            0);
    numbers.push_back(value->number);
  }
  return numbers;
}

std::vector<const Record*> selected(const QueryRecords& records, const std::string& filter) {
  try {
    return query_points(records, filter);
  } catch (const ResultsError& error) {
    throw ExpressionError(error.what(), 0);
  }
}

void collect_queries(const std::shared_ptr<const Node>& node, std::size_t position,
                     const Node*& found) {
  if (node->kind == Node::Kind::query && node->position == position) found = node.get();
  for (const auto& child : node->children) collect_queries(child, position, found);
}

}  // namespace

Unit Unit::literal() {
  Unit unit;
  unit.literal_ = true;
  return unit;
}

Unit Unit::parse(std::string_view text) {
  Unit unit;
  int sign = 1;  // the numerator, then each part after a slash divides
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find('/', start), text.size());
    add_powers(text.substr(start, end - start), sign, unit.powers_);
    sign = -1;
    start = end + 1;
  }
  unit.drop_zero_powers();
  return unit;
}

void Unit::drop_zero_powers() {
  for (auto it = powers_.begin(); it != powers_.end();)
    it = it->second == 0 ? powers_.erase(it) : std::next(it);
}

Unit Unit::times(const Unit& other) const {
  Unit product;
  product.powers_ = powers_;
  for (const auto& [name, power] : other.powers_) product.powers_[name] += power;
  product.drop_zero_powers();
  product.literal_ = literal_ && other.literal_;
  return product;
}

Unit Unit::over(const Unit& other) const {
  return times(other.power(-1));
}

Unit Unit::power(int exponent) const {
  Unit result = *this;
  for (auto& [name, power] : result.powers_) power *= exponent;
  result.drop_zero_powers();
  return result;
}

std::optional<Unit> Unit::root() const {
  Unit result = *this;
  for (auto& [name, power] : result.powers_) {
    if (power % 2 != 0) return std::nullopt;
    power /= 2;
  }
  return result;
}

std::string Unit::text() const {
  if (powers_.empty()) return literal_ ? "a number" : "a plain number";
  std::string above, below;
  const auto term = [](const std::string& name, int power) {
    return power == 1 ? name : name + "^" + std::to_string(power);
  };
  for (const auto& [name, power] : powers_) {
    std::string& side = power > 0 ? above : below;
    side += (side.empty() ? "" : "*") + term(name, std::abs(power));
  }
  return (above.empty() ? "1" : above) + (below.empty() ? "" : "/" + below);
}

Unit field_unit(std::string_view field) {
  if (timing_path_in_ms(field)) return Unit::parse("ms");
  if (starts_with(field, "derived.")) return field_unit(field.substr(8));
  const std::string label = field_axis_label(field);
  const size_t open = label.rfind('[');
  if (label.empty() || label.back() != ']' || open == std::string::npos) return Unit();
  return Unit::parse(std::string_view(label).substr(open + 1, label.size() - open - 2));
}

Unit check_record_expression(const Expression& expression, const ExpressionRules& rules) {
  return Checker(rules).unit(*expression.root());
}

std::vector<const Record*> query_points(const QueryRecords& records, const std::string& filter) {
  const std::string text = trimmed(filter);
  return filter_points(filter_names(text, "status") ? records.latest : records.ok, text,
                       "the query");
}

double evaluate_over_records(const Expression& expression, const QueryRecords& records,
                             const Record* self) {
  ExpressionScope scope;
  scope.query = [&](const std::string& field, const std::string& filter) {
    return numbers_of(selected(records, filter), field);
  };
  scope.count = [&](const std::string& field, const std::string& filter) {
    const auto points = selected(records, filter);
    return static_cast<std::size_t>(std::count_if(
        points.begin(), points.end(), [&](auto* p) { return field_value(*p, field).has_value(); }));
  };
  if (self) {
    scope.name = [self](const std::string& name) -> std::optional<double> {
      const auto value = field_value(*self, name);
      if (!value) return std::nullopt;
      if (!value->numeric)
        throw ExpressionError("'" + name + "' is text (" + value->text + "), not a number", 0);
      return value->number;
    };
    scope.one = [&, self](const std::string& field, const std::string& filter) {
      return numbers_of(own_configuration(selected(records, filter), *self, filter), field);
    };
  }
  scope.samples = [&, self](const std::string&, const std::string& filter) {
    std::vector<const Record*> points = selected(records, filter);
    if (self) points = own_configuration(points, *self, filter);
    std::vector<std::vector<double>> samples;
    for (const Record* point : points)
      samples.push_back(point->timing ? point->timing->compute.samples_ms : std::vector<double>{});
    return samples;
  };
  scope.p_value = [](const std::vector<double>& a, const std::vector<double>& b) {
    return mann_whitney_u(a, b).p_value;
  };
  return evaluate(expression, scope);
}

const ExpressionNode* query_at(const Expression& expression, std::size_t position) {
  const Node* found = nullptr;
  collect_queries(expression.root(), position, found);
  return found;
}

}  // namespace convlab
