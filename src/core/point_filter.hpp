// A small language for choosing points, shared by `convlab run --filter`, figure `where` clauses
// and the live values of discussions ({{field[filter]}}). Clauses joined by ',' must all hold:
//   field=value         equal (numbers compare numerically, text exactly)
//   field!=value        not equal
//   field=v1|v2|v3      any of
//   field<v  field<=v  field>v  field>=v   numeric comparisons
//   field~text          the value contains text
// Fields are dotted paths into a record: implementation, family, border, output, status,
// image.name, image.width, image.height, image.channels, kernel.name, kernel.type, kernel.size,
// params.threads, params.block (a pair is written 16x16), ...
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace convlab {

struct FilterClause {
  std::string field;
  std::string op;  // = != < <= > >= ~
  std::vector<std::string> values;
};

struct PointFilter {
  std::vector<FilterClause> clauses;
  std::string text;
};

// The longest filter text accepted.
constexpr std::size_t kMaxPointFilterBytes = 4096;
std::optional<PointFilter> parse_point_filter(std::string_view expression, std::string* error);

// A field's value as a clause compares it: numbers numerically, anything else by its text
// (field_text's form: pairs as AxB, booleans as true and false).
struct FilterValue {
  bool numeric = false;
  double number = 0.0;
  std::string text;
};
// The value of a field of the point being tested; nullopt when the point has no such field.
using FilterLookup = std::function<std::optional<FilterValue>(std::string_view field)>;

bool matches(const PointFilter& filter, const FilterLookup& lookup);
// A point described as JSON (PointDescription::to_json): fields are dotted paths into it.
bool matches(const PointFilter& filter, const nlohmann::json& point);

// The first clause field that none of `points` has, as a message with the closest field that
// exists ("unknown field 'kernel.sise' (did you mean 'kernel.size'?)"); nullopt when all exist.
std::optional<std::string> unknown_field(const PointFilter& filter,
                                         const std::vector<nlohmann::json>& points);
// The same with the fields the points have, as dotted paths (add_field_paths_of).
std::optional<std::string> unknown_field(const PointFilter& filter,
                                         const std::vector<std::string>& paths);

// The dotted path of every value in `node` below `prefix` (objects descend; lists such as a block
// pair are values), appended to `paths` where new.
void add_field_paths_of(const nlohmann::json& node, const std::string& prefix,
                        std::vector<std::string>& paths);
// `path` appended to `paths` unless it is there.
void add_field_path(const std::string& path, std::vector<std::string>& paths);

// The value at a dotted path (nullptr when absent); "x"/"y" and "0"/"1" index pairs such as
// params.block = [x, y], and "[i]" suffixes index lists.
const nlohmann::json* find_field(const nlohmann::json& record, std::string_view path);
// A field value as filter text: numbers without trailing zeros, pairs as AxB.
std::string field_text(const nlohmann::json& value);

}  // namespace convlab
