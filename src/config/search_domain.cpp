#include "config/search_domain.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/closest_name.hpp"
#include "core/expression.hpp"
#include "core/number_text.hpp"

namespace convlab {

std::uint64_t SearchRandom::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t SearchRandom::below(std::uint64_t n) {
  // Rejection keeps every value equally likely.
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t limit = top - top % n;
  std::uint64_t value = 0;
  do {
    value = next();
  } while (value >= limit);
  return value % n;
}

double SearchRandom::unit() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

// One compiled node: a number, a column (the numbers one name gives per value of its axis), or an
// operator over the nodes before it.
struct SearchRestrictions::Node {
  enum class Kind { number, column, negate, logical_not, binary } kind = Kind::number;
  double number = 0.0;
  std::size_t axis = 0;
  std::vector<double> column;  // per value of `axis`; NaN where the value has no number
  std::string op;
  char code = 0;  // the operator, one character: + - * / % ^ & | = ! < l (<=) > g (>=)
  int left = -1, right = -1;
};

struct SearchRestrictions::Program {
  std::vector<Node> nodes;  // the root last
  std::vector<std::size_t> axes;

  // NaN when a division by zero makes the value undefined.
  double value(int index, const Coordinate& at) const {
    const Node& node = nodes[static_cast<std::size_t>(index)];
    switch (node.kind) {
      case Node::Kind::number:
        return node.number;
      case Node::Kind::column:
        return node.column[static_cast<std::size_t>(at[node.axis])];
      case Node::Kind::negate:
        return -value(node.left, at);
      case Node::Kind::logical_not:
        return value(node.left, at) == 0.0 ? 1.0 : 0.0;
      case Node::Kind::binary:
        return binary(node, at);
    }
    return 0.0;
  }

  double binary(const Node& node, const Coordinate& at) const {
    if (node.code == '&') return value(node.left, at) != 0.0 && value(node.right, at) != 0.0;
    if (node.code == '|') return value(node.left, at) != 0.0 || value(node.right, at) != 0.0;
    const double a = value(node.left, at), b = value(node.right, at);
    switch (node.code) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '^':
        return std::pow(a, b);
      case '/':
        return b == 0.0 ? std::numeric_limits<double>::quiet_NaN() : a / b;
      case '%':
        if (b == 0.0) return std::numeric_limits<double>::quiet_NaN();
        if (std::floor(a) == a && std::floor(b) == b && std::fabs(a) < 9e18 && std::fabs(b) < 9e18)
          return static_cast<double>(static_cast<long long>(a) % static_cast<long long>(b));
        return std::fmod(a, b);
      case '=':
        return a == b;
      case '!':
        return a != b;
      case '<':
        return a < b;
      case 'l':
        return a <= b;
      case '>':
        return a > b;
      default:
        return a >= b;
    }
  }
};

namespace {

using RestrictionNode = SearchRestrictions::Node;

// The numeric names of an axis: NAME (numbers, booleans) or NAME_X and NAME_Y (pairs, lower case
// for a lower-case name), each a column of numbers per value.
std::vector<std::pair<std::string, std::vector<double>>> numeric_names(const SearchAxis& axis) {
  const double none = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> plain, x, y;
  bool any_plain = false, any_pair = false;
  for (const auto& value : axis.values) {
    const bool number = value.is_number(), boolean = value.is_boolean();
    plain.push_back(number    ? value.get<double>()
                    : boolean ? (value.get<bool>() ? 1.0 : 0.0)
                              : none);
    any_plain |= number || boolean;
    const bool pair =
        value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number();
    x.push_back(pair ? value[0].get<double>() : none);
    y.push_back(pair ? value[1].get<double>() : none);
    any_pair |= pair;
  }
  std::vector<std::pair<std::string, std::vector<double>>> names;
  if (any_plain) names.emplace_back(axis.name, plain);
  if (any_pair) {
    const bool upper = !axis.name.empty() && std::isupper(static_cast<unsigned char>(axis.name[0]));
    names.emplace_back(axis.name + (upper ? "_X" : "_x"), x);
    names.emplace_back(axis.name + (upper ? "_Y" : "_y"), y);
  }
  return names;
}

char operator_code(const std::string& op) {
  if (op == "&&") return '&';
  if (op == "||") return '|';
  if (op == "==") return '=';
  if (op == "!=") return '!';
  if (op == "<=") return 'l';
  if (op == ">=") return 'g';
  return op.empty() ? '?' : op[0];
}

struct Compiler {
  const std::vector<SearchAxis>& axes;
  SearchRestrictions::Program& program;

  int add(const ExpressionNode& node) {
    RestrictionNode compiled;
    switch (node.kind) {
      case ExpressionNode::Kind::number:
        compiled.number = node.number;
        break;
      case ExpressionNode::Kind::name:
        compiled.kind = RestrictionNode::Kind::column;
        for (std::size_t a = 0; a < axes.size(); ++a)
          for (auto& [name, column] : numeric_names(axes[a]))
            if (name == node.text) {
              compiled.axis = a;
              compiled.column = column;
              if (std::find(program.axes.begin(), program.axes.end(), a) == program.axes.end())
                program.axes.push_back(a);
            }
        break;
      case ExpressionNode::Kind::unary:
        compiled.kind =
            node.text == "-" ? RestrictionNode::Kind::negate : RestrictionNode::Kind::logical_not;
        compiled.left = add(*node.children[0]);
        break;
      case ExpressionNode::Kind::binary:
        compiled.kind = RestrictionNode::Kind::binary;
        compiled.code = operator_code(node.text);
        compiled.left = add(*node.children[0]);
        compiled.right = add(*node.children[1]);
        break;
      default:
        break;  // queries and calls are refused before compiling
    }
    program.nodes.push_back(std::move(compiled));
    return static_cast<int>(program.nodes.size() - 1);
  }
};

std::vector<std::string> known_names(const std::vector<SearchAxis>& axes) {
  std::vector<std::string> known;
  for (const auto& axis : axes)
    for (const auto& [name, column] : numeric_names(axis)) known.push_back(name);
  return known;
}

std::string names_words(const std::vector<std::string>& names) {
  std::string all;
  for (const auto& name : names) all += (all.empty() ? "" : ", ") + name;
  return all.empty() ? std::string("none") : all;
}

}  // namespace

SearchRestrictions::SearchRestrictions(const std::vector<SearchAxis>& axes,
                                       const std::vector<std::string>& texts,
                                       const YAML::Node& restrict_node,
                                       const YamlLocation& restrict_at) {
  const std::vector<std::string> known = known_names(axes);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const Expression expression = Expression::parse(texts[i]);
    const auto fail = [&](const std::string& message) {
      restrict_at.index(i).fail(restrict_node[i], message);
    };
    if (!expression.queries().empty() || !expression.functions().empty())
      fail("a restriction reads params only: no queries or functions");
    for (const auto& name : expression.names())
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        const std::string guess = closest_name(name, known);
        fail("unknown parameter '" + name + "'" +
             (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
             "; the numeric params here are " + names_words(known));
      }
    auto program = std::make_shared<Program>();
    Compiler{axes, *program}.add(*expression.root());
    std::sort(program->axes.begin(), program->axes.end());
    programs_.push_back(std::move(program));
  }
}

bool SearchRestrictions::holds(std::size_t restriction, const Coordinate& coordinate) const {
  const Program& program = *programs_[restriction];
  const double value = program.value(static_cast<int>(program.nodes.size() - 1), coordinate);
  return value != 0.0 && !std::isnan(value);
}

bool SearchRestrictions::hold(const Coordinate& coordinate) const {
  for (std::size_t i = 0; i < programs_.size(); ++i)
    if (!holds(i, coordinate)) return false;
  return true;
}

const std::vector<std::size_t>& SearchRestrictions::axes_of(std::size_t restriction) const {
  return programs_[restriction]->axes;
}

namespace {

// Checks a space may spend on counting exactly (every combination of each group of restricted
// params), and the random variants an estimate draws per group.
constexpr double kExactChecks = 1 << 20;
constexpr std::size_t kSamples = 100000;

// Params linked by restrictions (a restriction over A and B, another over B and C: one group A,
// B, C), each group with the restrictions over it; params no restriction reads are left out.
struct RestrictedGroup {
  std::vector<std::size_t> axes;
  std::vector<std::size_t> restrictions;
  double combinations = 1.0;
};

std::vector<RestrictedGroup> restricted_groups(const std::vector<SearchAxis>& axes,
                                               const SearchRestrictions& restrictions) {
  std::vector<std::size_t> parent(axes.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](std::size_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (std::size_t r = 0; r < restrictions.size(); ++r) {
    const auto& read = restrictions.axes_of(r);
    for (std::size_t i = 1; i < read.size(); ++i) parent[root(read[i])] = root(read[0]);
  }
  std::vector<RestrictedGroup> groups;
  std::vector<int> group_of(axes.size(), -1);
  for (std::size_t r = 0; r < restrictions.size(); ++r) {
    const auto& read = restrictions.axes_of(r);
    if (read.empty()) {  // a constant restriction: a group of no params
      groups.push_back({{}, {r}, 1.0});
      continue;
    }
    const std::size_t top = root(read[0]);
    if (group_of[top] < 0) {
      group_of[top] = static_cast<int>(groups.size());
      groups.emplace_back();
      for (std::size_t a = 0; a < axes.size(); ++a)
        if (root(a) == top) {
          groups.back().axes.push_back(a);
          groups.back().combinations *= double(axes[a].values.size());
        }
    }
    groups[static_cast<std::size_t>(group_of[top])].restrictions.push_back(r);
  }
  return groups;
}

bool group_holds(const RestrictedGroup& group, const SearchRestrictions& restrictions,
                 const Coordinate& at) {
  for (std::size_t r : group.restrictions)
    if (!restrictions.holds(r, at)) return false;
  return true;
}

// Every combination of the group's params (the others at 0) that its restrictions allow.
double count_group(const RestrictedGroup& group, const std::vector<SearchAxis>& axes,
                   const SearchRestrictions& restrictions) {
  Coordinate at(axes.size(), 0);
  double allowed = 0.0;
  while (true) {
    allowed += group_holds(group, restrictions, at) ? 1.0 : 0.0;
    std::size_t k = group.axes.size();
    while (k > 0) {
      const std::size_t a = group.axes[k - 1];
      if (++at[a] < static_cast<int>(axes[a].values.size())) break;
      at[a] = 0;
      --k;
    }
    if (k == 0) return allowed;
  }
}

// The share of random combinations of the group's params that its restrictions allow.
double sample_group(const RestrictedGroup& group, const std::vector<SearchAxis>& axes,
                    const SearchRestrictions& restrictions, std::size_t samples) {
  SearchRandom random(0x5EA4C4ULL + group.axes.size());
  Coordinate at(axes.size(), 0);
  std::size_t allowed = 0;
  for (std::size_t s = 0; s < samples; ++s) {
    for (std::size_t a : group.axes) at[a] = static_cast<int>(random.below(axes[a].values.size()));
    allowed += group_holds(group, restrictions, at);
  }
  return double(allowed) / double(samples);
}

std::string count_text(double n) {
  return n < 1e15 ? format_fixed(std::round(n), 0) : format_number(n, 3);
}

SpaceSize count_space(const std::vector<SearchAxis>& axes, const SearchRestrictions& restrictions,
                      const YAML::Node& restrict_node, const YamlLocation& restrict_at) {
  SpaceSize size;
  size.combinations = 1.0;
  for (const auto& axis : axes) size.combinations *= double(axis.values.size());
  size.variants = size.combinations;
  if (restrictions.size() == 0) {
    size.method = "no restrictions";
    return size;
  }
  std::vector<RestrictedGroup> groups = restricted_groups(axes, restrictions);
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.combinations < b.combinations; });
  double checks = 0.0, relative_margin_squared = 0.0;
  std::vector<std::string> sampled;
  for (const RestrictedGroup& group : groups) {
    size.variants /= group.combinations;
    if (checks + group.combinations <= kExactChecks) {
      checks += group.combinations;
      const double allowed = count_group(group, axes, restrictions);
      if (allowed == 0.0)
        restrict_at.fail(restrict_node, "the restrictions leave no variant of the " +
                                            count_text(size.combinations) + " to search");
      size.variants *= allowed;
      continue;
    }
    const double share = sample_group(group, axes, restrictions, kSamples);
    if (share == 0.0)
      restrict_at.fail(restrict_node,
                       "the restrictions hold for none of " + std::to_string(kSamples) +
                           " random variants of the " + count_text(size.combinations) +
                           "; a search, which draws variants at random too, could not find one");
    size.exact = false;
    size.variants *= share * group.combinations;
    const double margin = 1.96 * std::sqrt(share * (1.0 - share) / double(kSamples));
    relative_margin_squared += (margin / share) * (margin / share);
    std::string params;
    for (std::size_t a : group.axes) params += (params.empty() ? "" : ", ") + axes[a].name;
    sampled.push_back(format_fixed(100.0 * share, 2) + " % of " + std::to_string(kSamples) +
                      " random combinations of " + params);
  }
  if (size.exact) {
    size.method = "counted exactly";
    return size;
  }
  size.margin = size.variants * std::sqrt(relative_margin_squared);
  std::string shares;
  for (const auto& words : sampled) shares += (shares.empty() ? "" : "; ") + words;
  size.method = "estimated: the restrictions hold for " + shares + "; 95 % interval ±" +
                format_number(100.0 * std::sqrt(relative_margin_squared), 2) + " %";
  return size;
}

// The first combination in the grid's order (the last axis fastest) that the restrictions allow,
// within kExactChecks checks.
Coordinate first_allowed(const std::vector<SearchAxis>& axes,
                         const SearchRestrictions& restrictions) {
  Coordinate at(axes.size(), 0);
  for (double checks = 0; checks < kExactChecks; ++checks) {
    if (restrictions.hold(at)) return at;
    std::size_t k = axes.size();
    while (k > 0 && ++at[k - 1] == static_cast<int>(axes[k - 1].values.size())) at[--k] = 0;
    if (k == 0) break;
  }
  return Coordinate(axes.size(), 0);
}

}  // namespace

double SearchDomain::combinations() const {
  return size.combinations;
}

Params SearchDomain::params_of(const Coordinate& coordinate) const {
  Params params = Params::object();
  for (std::size_t a = 0; a < axes.size(); ++a)
    params[axes[a].name] = axes[a].values[static_cast<std::size_t>(coordinate[a])];
  return params;
}

SearchDomain make_search_domain(std::vector<SearchAxis> axes, const SearchSpec& spec,
                                const YAML::Node& restrict_node, const YamlLocation& restrict_at) {
  SearchDomain domain;
  domain.restrictions = SearchRestrictions(axes, spec.restrict, restrict_node, restrict_at);
  domain.size = count_space(axes, domain.restrictions, restrict_node, restrict_at);
  domain.first = first_allowed(axes, domain.restrictions);
  domain.axes = std::move(axes);
  return domain;
}

std::string space_size_words(const SpaceSize& size) {
  if (size.exact) return count_text(size.variants) + " variants";
  return "about " + format_number(size.variants, 3) + " variants";
}

}  // namespace convlab
