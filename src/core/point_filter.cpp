#include "core/point_filter.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "core/closest_name.hpp"

namespace convlab {
namespace {

std::string trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(trim(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

std::optional<double> as_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

bool equal(const FilterValue& value, const std::string& wanted) {
  if (value.numeric) {
    const auto number = as_number(wanted);
    return number && value.number == *number;
  }
  return value.text == wanted;
}

bool clause_holds(const FilterClause& clause, const FilterLookup& lookup) {
  const std::optional<FilterValue> value = lookup(clause.field);
  if (clause.op == "!=") {
    if (!value) return true;
    for (const auto& v : clause.values)
      if (equal(*value, v)) return false;
    return true;
  }
  if (!value) return false;
  if (clause.op == "=") {
    for (const auto& v : clause.values)
      if (equal(*value, v)) return true;
    return false;
  }
  if (clause.op == "~") return value->text.find(clause.values.front()) != std::string::npos;
  if (!value->numeric) return false;
  const double left = value->number;
  const double right = *as_number(clause.values.front());
  if (clause.op == "<") return left < right;
  if (clause.op == "<=") return left <= right;
  if (clause.op == ">") return left > right;
  return left >= right;
}

}  // namespace

void add_field_path(const std::string& path, std::vector<std::string>& paths) {
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
}

void add_field_paths_of(const nlohmann::json& node, const std::string& prefix,
                        std::vector<std::string>& paths) {
  if (!node.is_object()) return add_field_path(prefix, paths);
  for (const auto& [key, value] : node.items())
    add_field_paths_of(value, prefix.empty() ? key : prefix + "." + key, paths);
}

std::optional<std::string> unknown_field(const PointFilter& filter,
                                         const std::vector<nlohmann::json>& points) {
  std::vector<std::string> fields;
  for (const auto& point : points) add_field_paths_of(point, "", fields);
  return unknown_field(filter, fields);
}

std::optional<std::string> unknown_field(const PointFilter& filter,
                                         const std::vector<std::string>& fields) {
  for (const auto& clause : filter.clauses) {
    if (std::find(fields.begin(), fields.end(), clause.field) != fields.end()) continue;
    const std::string guess = closest_name(clause.field, fields);
    std::string known;
    for (const auto& field : fields) known += (known.empty() ? "" : ", ") + field;
    return "unknown field '" + clause.field + "'" +
           (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
           "; the points of this config have " + known;
  }
  return std::nullopt;
}

const nlohmann::json* find_field(const nlohmann::json& record, std::string_view path) {
  const nlohmann::json* node = &record;
  for (std::string part : split(path, '.')) {
    std::optional<size_t> index;
    const size_t bracket = part.find('[');
    if (bracket != std::string::npos && part.back() == ']') {
      index = std::strtoul(part.c_str() + bracket + 1, nullptr, 10);
      part = part.substr(0, bracket);
    }
    if (!part.empty()) {
      if (node->is_array() && (part == "x" || part == "y"))
        index = part == "x" ? 0 : 1;
      else if (node->is_array() && std::all_of(part.begin(), part.end(), ::isdigit))
        index = std::stoul(part);
      else if (node->is_object() && node->contains(part))
        node = &(*node)[part];
      else
        return nullptr;
    }
    if (index) {
      if (!node->is_array() || *index >= node->size()) return nullptr;
      node = &(*node)[*index];
    }
  }
  return node;
}

std::string field_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string text;
    for (const auto& item : value) text += (text.empty() ? "" : "x") + field_text(item);
    return text;
  }
  if (value.is_number_float()) {
    std::ostringstream out;
    out << value.get<double>();
    return out.str();
  }
  return value.dump();
}

std::optional<PointFilter> parse_point_filter(std::string_view expression, std::string* error) {
  PointFilter filter;
  // A filter is recorded with the run and quoted in messages: it is a line, not a document.
  if (expression.size() > kMaxPointFilterBytes) {
    if (error)
      *error = "a filter of " + std::to_string(expression.size()) + " bytes, longer than the " +
               std::to_string(kMaxPointFilterBytes) + " a filter may be";
    return std::nullopt;
  }
  filter.text = std::string(expression);
  if (trim(expression).empty()) return filter;
  for (const auto& clause_text : split(expression, ',')) {
    // Longest operators first so "<=" is not read as "<".
    static const char* kOperators[] = {"!=", "<=", ">=", "=", "<", ">", "~"};
    size_t at = std::string::npos;
    std::string op;
    for (const char* candidate : kOperators) {
      const size_t found = clause_text.find(candidate);
      if (found != std::string::npos &&
          (found < at || (found == at && std::string(candidate).size() > op.size()))) {
        at = found;
        op = candidate;
      }
    }
    FilterClause clause;
    clause.field = at == std::string::npos ? "" : trim(clause_text.substr(0, at));
    if (clause.field.empty()) {
      if (error) *error = "'" + clause_text + "' is not field=value (or !=, <, <=, >, >=, ~)";
      return std::nullopt;
    }
    clause.op = op;
    const std::string value = trim(clause_text.substr(at + op.size()));
    clause.values = op == "=" || op == "!=" ? split(value, '|') : std::vector<std::string>{value};
    for (const auto& v : clause.values)
      if (v.empty()) {
        if (error) *error = "'" + clause_text + "' has an empty value";
        return std::nullopt;
      }
    if (op == "<" || op == "<=" || op == ">" || op == ">=")
      if (!as_number(clause.values.front())) {
        if (error) *error = "'" + clause_text + "' compares with a non-number";
        return std::nullopt;
      }
    filter.clauses.push_back(clause);
  }
  return filter;
}

bool matches(const PointFilter& filter, const FilterLookup& lookup) {
  for (const auto& clause : filter.clauses)
    if (!clause_holds(clause, lookup)) return false;
  return true;
}

bool matches(const PointFilter& filter, const nlohmann::json& point) {
  return matches(filter, [&point](std::string_view field) -> std::optional<FilterValue> {
    const nlohmann::json* value = find_field(point, field);
    if (value == nullptr) return std::nullopt;
    if (value->is_number()) return FilterValue{true, value->get<double>(), field_text(*value)};
    return FilterValue{false, 0.0, field_text(*value)};
  });
}

}  // namespace convlab
