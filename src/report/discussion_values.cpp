#include "report/discussion_values.hpp"

#include <set>

#include "report/figure_data.hpp"
#include "results/record_fields.hpp"

namespace convlab {
namespace {

// Reads a {...} group starting at `position` (which must hold '{'); nested braces are kept.
bool read_group(const std::string& tex, size_t& position, std::string& content) {
  while (position < tex.size() && (tex[position] == ' ' || tex[position] == '\n')) ++position;
  if (position >= tex.size() || tex[position] != '{') return false;
  int depth = 0;
  const size_t start = position + 1;
  for (; position < tex.size(); ++position) {
    if (tex[position] == '{') ++depth;
    if (tex[position] == '}' && --depth == 0) {
      content = tex.substr(start, position - start);
      ++position;
      return true;
    }
  }
  return false;
}

std::string reference_text(const ValueReference& reference) {
  return "\\convlabvalue{" + reference.filter + "}{" + reference.field + "}";
}

}  // namespace

std::vector<ValueReference> find_value_references(const std::string& tex) {
  static const std::string command = "\\convlabvalue";
  std::vector<ValueReference> references;
  int line = 1;
  bool in_comment = false;
  for (size_t i = 0; i < tex.size(); ++i) {
    const char c = tex[i];
    if (c == '\n') {
      ++line;
      in_comment = false;
      continue;
    }
    if (in_comment) continue;
    if (c == '%' && (i == 0 || tex[i - 1] != '\\')) {
      in_comment = true;
      continue;
    }
    if (tex.compare(i, command.size(), command) != 0) continue;
    const size_t after = i + command.size();
    if (after < tex.size() && std::isalpha(static_cast<unsigned char>(tex[after]))) continue;
    size_t position = after;
    ValueReference reference;
    reference.line = line;
    if (read_group(tex, position, reference.filter) && read_group(tex, position, reference.field)) {
      references.push_back(reference);
      for (size_t j = i; j < position; ++j) line += tex[j] == '\n';
      i = position - 1;
    }
  }
  return references;
}

std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const std::vector<const Record*>& points,
                                          const std::string& file) {
  std::vector<ResolvedValue> resolved;
  std::set<std::pair<std::string, std::string>> done;
  for (const auto& reference : references) {
    if (!done.insert({reference.filter, reference.field}).second) continue;
    const std::string where =
        file + ":" + std::to_string(reference.line) + ": " + reference_text(reference);
    std::string suggestion;
    if (!is_known_field(reference.field, &suggestion))
      throw ExportError(where + ": unknown field '" + reference.field + "'" +
                        (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
    const auto matching = filter_points(points, reference.filter, where);
    if (matching.size() != 1) {
      std::string message =
          where + ": the filter matches " +
          (matching.empty() ? "no ok point"
                            : std::to_string(matching.size()) + " ok points, it must match one");
      for (size_t i = 0; i < matching.size() && i < 5; ++i)
        message += "\n  " + describe_point(*matching[i]);
      if (matching.size() > 5) message += "\n  ...";
      throw ExportError(message);
    }
    const auto value = field_value(*matching[0], reference.field);
    if (!value)
      throw ExportError(where + ": the point (" + describe_point(*matching[0]) + ") has no '" +
                        reference.field + "'");
    resolved.push_back({reference, value->numeric ? format_number(value->number, 3)
                                                  : field_value_words(reference.field, *value)});
  }
  return resolved;
}

}  // namespace convlab
