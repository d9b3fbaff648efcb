#include "core/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "core/message_text.hpp"
#include "core/number_text.hpp"

namespace convlab {

namespace {

using Node = std::shared_ptr<const ExpressionNode>;

Node make(ExpressionNode::Kind kind, std::string text, std::size_t position,
          std::vector<Node> children = {}) {
  auto node = std::make_shared<ExpressionNode>();
  node->kind = kind;
  node->text = std::move(text);
  node->position = position;
  node->children = std::move(children);
  return node;
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Node parse() {
    if (text_.size() > 4096) throw ExpressionError("longer than 4096 characters", 0);
    Node root = binary(0);
    skip_space();
    if (at_ < text_.size())
      throw ExpressionError("unexpected '" + std::string(1, text_[at_]) + "'", at_);
    return root;
  }

 private:
  // Binary operators by level, loosest first.
  static const std::vector<std::vector<std::string>>& levels() {
    static const std::vector<std::vector<std::string>> table{
        {"||"}, {"&&"}, {"==", "!=", "<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}};
    return table;
  }

  Node binary(std::size_t level) {
    if (level == levels().size()) return unary();
    Node left = binary(level + 1);
    const bool comparison = level == 2;
    for (;;) {
      skip_space();
      const std::size_t position = at_;
      const auto op = take_operator(levels()[level]);
      if (!op) return left;
      Node right = binary(level + 1);
      left = make(ExpressionNode::Kind::binary, *op, position, {left, right});
      if (comparison) return left;  // a < b < c is not a chain: say so at the next token
    }
  }

  Node unary() {
    skip_space();
    const std::size_t position = at_;
    if (at_ < text_.size() && (text_[at_] == '-' || text_[at_] == '!')) {
      const std::string op(1, text_[at_++]);
      return make(ExpressionNode::Kind::unary, op, position, {unary()});
    }
    Node base = primary();
    skip_space();
    if (at_ < text_.size() && text_[at_] == '^') {
      const std::size_t at = at_++;
      return make(ExpressionNode::Kind::binary, "^", at, {base, unary()});
    }
    return base;
  }

  Node primary() {
    skip_space();
    const std::size_t position = at_;
    if (at_ >= text_.size()) throw ExpressionError("the expression ends too early", at_);
    const char c = text_[at_];
    if (c == '(') {
      ++at_;
      Node inner = binary(0);
      expect(')');
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return named(position);
    throw ExpressionError("unexpected '" + std::string(1, c) + "'", at_);
  }

  Node number() {
    const std::size_t position = at_;
    std::size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(text_.substr(at_), &used);
    } catch (const std::exception&) {
      throw ExpressionError("not a number", position);
    }
    at_ += used;
    auto node = std::make_shared<ExpressionNode>();
    node->kind = ExpressionNode::Kind::number;
    node->number = value;
    node->position = position;
    return node;
  }

  Node named(std::size_t position) {
    std::string name;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) ||
                                  text_[at_] == '_' || text_[at_] == '.'))
      name += text_[at_++];
    if (at_ < text_.size() && text_[at_] == '[') return query(name, position);
    skip_space();
    if (at_ < text_.size() && text_[at_] == '(') return call(name, position);
    return make(ExpressionNode::Kind::name, name, position);
  }

  Node query(const std::string& field, std::size_t position) {
    const std::size_t open = at_++;
    const std::size_t close = text_.find(']', at_);
    if (close == std::string::npos) throw ExpressionError("'[' is not closed by ']'", open);
    auto node = std::make_shared<ExpressionNode>();
    node->kind = ExpressionNode::Kind::query;
    node->text = field;
    node->filter = text_.substr(at_, close - at_);
    node->position = position;
    at_ = close + 1;
    return node;
  }

  Node call(const std::string& function, std::size_t position) {
    ++at_;  // (
    std::vector<Node> arguments;
    skip_space();
    if (at_ < text_.size() && text_[at_] == ')') {
      ++at_;
    } else {
      for (;;) {
        arguments.push_back(binary(0));
        skip_space();
        if (at_ < text_.size() && text_[at_] == ',') {
          ++at_;
          continue;
        }
        expect(')');
        break;
      }
    }
    return make(ExpressionNode::Kind::call, function, position, std::move(arguments));
  }

  std::optional<std::string> take_operator(const std::vector<std::string>& ops) {
    for (const auto& op : ops)
      if (text_.compare(at_, op.size(), op) == 0) {
        // '<' must not take the first character of '<=' (ordered longest first above), and a
        // lone '=' or '&' is a mistake worth naming.
        at_ += op.size();
        return op;
      }
    if (at_ < text_.size() && text_[at_] == '=' &&
        (at_ + 1 >= text_.size() || text_[at_ + 1] != '='))
      throw ExpressionError("'=' compares as '=='", at_);
    return std::nullopt;
  }

  void expect(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c)
      throw ExpressionError(std::string("expected '") + c + "'", at_);
    ++at_;
  }

  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  const std::string& text_;
  std::size_t at_ = 0;
};

void collect(const Node& node, ExpressionNode::Kind kind, std::vector<std::string>& out) {
  if (node->kind == kind && std::find(out.begin(), out.end(), node->text) == out.end())
    out.push_back(node->text);
  for (const auto& child : node->children) collect(child, kind, out);
}

class Evaluator {
 public:
  explicit Evaluator(const ExpressionScope& scope) : scope_(scope) {}

  // Every value an expression computes is a finite number, whatever node gives it: log(0),
  // sqrt(-1) and 1e308 * 10 are refused as a division by zero is.
  double value(const Node& node) {
    const double result = computed(node);
    if (!std::isfinite(result))
      throw ExpressionError(what_gives(node) + " gives " +
                                (std::isnan(result) ? std::string("no number (NaN)")
                                 : result > 0       ? std::string("infinity")
                                                    : std::string("-infinity")) +
                                ", not a finite value",
                            node->position, ExpressionError::Kind::arithmetic);
    return result;
  }

 private:
  // "median_ms[FILTER]" for a message, a long filter shortened.
  static std::string query_words(const Node& node) {
    return node->text + "[" + shortened(node->filter) + "]";
  }

  static std::string what_gives(const Node& node) {
    switch (node->kind) {
      case ExpressionNode::Kind::number:
        return "the number";
      case ExpressionNode::Kind::call:
        return node->text + "()";
      case ExpressionNode::Kind::unary:
      case ExpressionNode::Kind::binary:
        return "'" + node->text + "'";
      default:
        return "'" + shortened(node->text) + "'";
    }
  }

  double computed(const Node& node) {
    switch (node->kind) {
      case ExpressionNode::Kind::number:
        return node->number;
      case ExpressionNode::Kind::name:
        return name(node);
      case ExpressionNode::Kind::query:
        return single(node, values(node, true));
      case ExpressionNode::Kind::call:
        return call(node);
      case ExpressionNode::Kind::unary:
        return node->text == "-" ? -value(node->children[0]) : !truth(value(node->children[0]));
      case ExpressionNode::Kind::binary:
        return binary(node);
    }
    return 0.0;
  }

  static bool truth(double v) { return v != 0.0; }

  double name(const Node& node) {
    const auto found = scope_.name ? scope_.name(node->text) : std::nullopt;
    if (!found)
      throw ExpressionError(
          "unknown name '" + shortened(node->text) + "'", node->position,
          scope_.name ? ExpressionError::Kind::no_value : ExpressionError::Kind::invalid);
    return *found;
  }

  std::vector<double> values(const Node& node, bool one = false) {
    if (!scope_.query)
      throw ExpressionError("a query (" + node->text + "[...]) is not allowed here",
                            node->position);
    std::vector<double> found = one && scope_.one ? scope_.one(node->text, node->filter)
                                                  : scope_.query(node->text, node->filter);
    if (found.empty())
      throw ExpressionError(query_words(node) + ": no point matches", node->position,
                            ExpressionError::Kind::no_value);
    return found;
  }

  double single(const Node& node, const std::vector<double>& found) {
    if (found.size() > 1)
      throw ExpressionError(query_words(node) + ": " + std::to_string(found.size()) +
                                " points match where one is needed; narrow the filter or use "
                                "min, max, mean, geomean or count",
                            node->position, ExpressionError::Kind::several);
    return found.front();
  }

  // The values of a function's arguments: every value of a query, one of anything else.
  std::vector<double> arguments(const Node& node) {
    std::vector<double> all;
    for (const auto& child : node->children) {
      if (child->kind == ExpressionNode::Kind::query) {
        const auto found = values(child);
        all.insert(all.end(), found.begin(), found.end());
      } else {
        all.push_back(value(child));
      }
    }
    return all;
  }

  // count() of queries asks the scope how many points each selects, so that a filter selecting
  // none counts 0 and a point's text field counts too.
  double count(const Node& node) {
    double total = 0;
    for (const auto& child : node->children) {
      if (child->kind == ExpressionNode::Kind::query && scope_.count)
        total += static_cast<double>(scope_.count(child->text, child->filter));
      else if (child->kind == ExpressionNode::Kind::query)
        total += static_cast<double>(values(child).size());
      else
        total += 1;
    }
    return total;
  }

  // The timed samples of the one point a query of pvalue() selects.
  std::vector<double> point_samples(const Node& node) {
    const auto found = scope_.samples(node->text, node->filter);
    if (found.empty())
      throw ExpressionError(query_words(node) + ": no point matches", node->position,
                            ExpressionError::Kind::no_value);
    if (found.size() > 1)
      throw ExpressionError(query_words(node) + ": " + std::to_string(found.size()) +
                                " points match where one is needed; narrow the filter",
                            node->position, ExpressionError::Kind::several);
    if (found.front().empty())
      throw ExpressionError(query_words(node) + ": the point has no timed samples", node->position,
                            ExpressionError::Kind::no_value);
    return found.front();
  }

  double p_value(const Node& node) {
    if (!scope_.samples || !scope_.p_value)
      throw ExpressionError("pvalue() is not allowed here", node->position);
    if (node->children.size() != 2 || node->children[0]->kind != ExpressionNode::Kind::query ||
        node->children[1]->kind != ExpressionNode::Kind::query)
      throw ExpressionError("pvalue() takes two queries, field[filter] each", node->position);
    return scope_.p_value(point_samples(node->children[0]), point_samples(node->children[1]));
  }

  double call(const Node& node) {
    const std::string& f = node->text;
    if (f == "count") return count(node);
    if (f == "pvalue") return p_value(node);
    const std::vector<double> v = arguments(node);
    const auto need = [&](std::size_t count) {
      if (v.size() != count)
        throw ExpressionError(
            f + "() takes " + std::to_string(count) + " value(s), got " + std::to_string(v.size()),
            node->position);
    };
    const auto nonempty = [&] {
      if (v.empty()) throw ExpressionError(f + "() of nothing", node->position);
    };
    if (f == "min") return nonempty(), *std::min_element(v.begin(), v.end());
    if (f == "max") return nonempty(), *std::max_element(v.begin(), v.end());
    if (f == "sum") return std::accumulate(v.begin(), v.end(), 0.0);
    if (f == "mean") return nonempty(), std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    if (f == "median") {
      nonempty();
      std::vector<double> s = v;
      std::sort(s.begin(), s.end());
      return s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
    }
    if (f == "geomean") {
      nonempty();
      double logs = 0.0;
      for (double x : v) {
        if (!(x > 0))
          throw ExpressionError("geomean() of a value that is not positive", node->position,
                                ExpressionError::Kind::arithmetic);
        logs += std::log(x);
      }
      return std::exp(logs / v.size());
    }
    static const std::vector<std::pair<std::string, double (*)(double)>> one{
        {"abs", [](double x) { return std::fabs(x); }},
        {"sqrt", [](double x) { return std::sqrt(x); }},
        {"log", [](double x) { return std::log(x); }},
        {"exp", [](double x) { return std::exp(x); }},
        {"round", [](double x) { return std::round(x); }},
        {"floor", [](double x) { return std::floor(x); }},
        {"ceil", [](double x) { return std::ceil(x); }}};
    for (const auto& [name, apply] : one)
      if (f == name) {
        need(1);
        return apply(v[0]);
      }
    throw ExpressionError("unknown function '" + shortened(f) +
                              "'; there are min, max, mean, median, sum, geomean, count, abs, "
                              "sqrt, log, exp, round, floor, ceil, pvalue",
                          node->position);
  }

  double binary(const Node& node) {
    const std::string& op = node->text;
    if (op == "&&") return truth(value(node->children[0])) && truth(value(node->children[1]));
    if (op == "||") return truth(value(node->children[0])) || truth(value(node->children[1]));
    const double a = value(node->children[0]);
    const double b = value(node->children[1]);
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (op == "^") return std::pow(a, b);
    if (op == "/" || op == "%") {
      if (b == 0.0)
        throw ExpressionError("division by zero", node->position,
                              ExpressionError::Kind::arithmetic);
      if (op == "/") return a / b;
      const bool integers = std::floor(a) == a && std::floor(b) == b;
      return integers ? static_cast<double>(static_cast<long long>(a) % static_cast<long long>(b))
                      : std::fmod(a, b);
    }
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    return a >= b;
  }

  const ExpressionScope& scope_;
};

}  // namespace

Expression Expression::parse(const std::string& text) {
  Expression expression;
  expression.text_ = text;
  expression.root_ = Parser(expression.text_).parse();
  return expression;
}

std::vector<std::string> Expression::names() const {
  std::vector<std::string> out;
  collect(root_, ExpressionNode::Kind::name, out);
  return out;
}

std::vector<std::string> Expression::queries() const {
  std::vector<std::string> out;
  collect(root_, ExpressionNode::Kind::query, out);
  return out;
}

std::vector<std::string> Expression::functions() const {
  std::vector<std::string> out;
  collect(root_, ExpressionNode::Kind::call, out);
  return out;
}

double evaluate(const Expression& expression, const ExpressionScope& scope) {
  return Evaluator(scope).value(expression.root());
}

std::string expression_error_text(const ExpressionError& error, const std::string& text) {
  // An error at the end (or of the whole) needs no place; otherwise the text from there, at most
  // a line's worth, and in a long text the offset too.
  const std::size_t at = error.position();
  if (at == 0 || at >= text.size()) return error.what();
  return std::string(error.what()) + " (at " +
         (text.size() > kQuotedValueBytes
              ? "byte " + std::to_string(at + 1) + " of " + std::to_string(text.size()) + ", "
              : std::string()) +
         "'" + clipped(std::string_view(text).substr(at), 20) + "')";
}

}  // namespace convlab
