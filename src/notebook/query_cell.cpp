#include "notebook/query_cell.hpp"

#include <sstream>
#include <vector>

#include "core/closest_name.hpp"
#include "core/message_text.hpp"
#include "core/point_filter.hpp"
#include "query/param_comparison.hpp"
#include "query/record_queries.hpp"
#include "query/versus.hpp"
#include "query/winners.hpp"
#include "tables/param_comparison_writer.hpp"
#include "tables/versus_writer.hpp"
#include "tables/winners_writer.hpp"

namespace convlab {
namespace {

std::string stripped(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// What a comparison asks for, from its words as `convlab show` takes them.
struct Comparison {
  bool best = false;
  std::optional<std::string> compare, against, vs, by, filter;
};

const char* const kQueryKinds =
    "a query is an expression, --compare params.X, --best [--by FIELD] or --vs IMPL [--by FIELD]";

std::vector<std::string> words_of(const std::string& query) {
  std::istringstream in(query);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

Comparison comparison_of(const std::string& query, const std::string& where) {
  const std::vector<std::string> words = words_of(query);
  const std::vector<std::string> options{"--compare", "--against", "--best",
                                         "--vs",      "--by",      "--filter"};
  Comparison asked;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "--best") {
      asked.best = true;
      continue;
    }
    std::optional<std::string>* value = word == "--compare"   ? &asked.compare
                                        : word == "--against" ? &asked.against
                                        : word == "--vs"      ? &asked.vs
                                        : word == "--by"      ? &asked.by
                                        : word == "--filter"  ? &asked.filter
                                                              : nullptr;
    if (!value) {
      const std::string close = closest_name(word, options);
      throw ResultsError(where + "unknown option '" + clipped(word, 40) + "'" +
                         (close.empty() ? "" : " (did you mean '" + close + "'?)") + "; " +
                         kQueryKinds);
    }
    if (i + 1 >= words.size()) throw ResultsError(where + word + " needs a value");
    *value = words[++i];
  }
  if (int{asked.best} + int{asked.compare.has_value()} + int{asked.vs.has_value()} != 1)
    throw ResultsError(where +
                       "a comparison is one of --compare params.X, --best [--by FIELD] and "
                       "--vs IMPL [--by FIELD]");
  if (asked.by && !asked.best && !asked.vs)
    throw ResultsError(where + "--by pivots --best or makes the rows of --vs; give one with it");
  if (asked.against && !asked.compare)
    throw ResultsError(where + "--against names the reference value of --compare params.X");
  if (asked.compare && asked.compare->rfind("params.", 0) != 0)
    throw ResultsError(where + "--compare takes a params field, such as params.threads");
  return asked;
}

// The table as show's Markdown has it, and the lines show writes around it (the parts equal in
// every row, the legend of its marks) as the cell's notes.
template <typename Table, typename Flatten, typename Write>
void fill_table(QueryCell& cell, const Table& table, Flatten flatten, Write write) {
  cell.table = flatten(table, FlatFormat::md);
  std::ostringstream markdown;
  write(table, FlatFormat::md, markdown);
  std::istringstream lines(markdown.str());
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line.front() != '|') cell.notes.push_back(line);
}

// Markdown's bold, **text**, out of the cells' text and into `strong`, so that each rendering
// sets it in its own way.
void take_strong_cells(QueryCell& cell) {
  cell.strong.clear();
  for (auto& row : cell.table.rows) {
    std::vector<bool> strong(row.size(), false);
    for (size_t i = 0; i < row.size(); ++i) {
      std::string& text = row[i];
      if (text.size() > 4 && text.compare(0, 2, "**") == 0 &&
          text.compare(text.size() - 2, 2, "**") == 0) {
        text = text.substr(2, text.size() - 4);
        strong[i] = true;
      }
    }
    cell.strong.push_back(std::move(strong));
  }
}

QueryCell comparison_cell(const std::string& query, const ResultsDocument& results,
                          const std::string& where) {
  const Comparison asked = comparison_of(query, where);
  std::vector<const Record*> points = latest_ok_points(results);
  if (asked.filter) {
    std::string error;
    const auto filter = parse_point_filter(*asked.filter, &error);
    if (!filter) throw ResultsError(where + "--filter " + clipped(*asked.filter) + ": " + error);
    try {
      points = select_records(points, *filter, results.path);
    } catch (const ResultsError& refused) {
      throw ResultsError(where + refused.what());
    }
  }
  if (points.empty()) throw ResultsError(where + "no ok point to compare yet");
  QueryCell cell;
  cell.query = query;
  try {
    if (asked.compare) {
      ParamComparisonOptions options;
      options.against = asked.against;
      fill_table(cell, compare_param_values(points, results.file.runs, *asked.compare, options),
                 param_comparison_flat_table, write_param_comparison);
      cell.title = "the values of " + *asked.compare + " of each implementation";
    } else if (asked.vs) {
      VersusOptions options;
      options.against = *asked.vs;
      options.by = asked.by;
      fill_table(cell, compare_with_implementation(points, results.file.runs, options),
                 versus_flat_table, write_versus);
      cell.title = "every implementation against " + *asked.vs +
                   (asked.by ? " by " + *asked.by : std::string());
    } else if (asked.by) {
      fill_table(cell, pivot_winners(points, *asked.by, {}, results.file.runs), pivot_flat_table,
                 write_pivot);
      cell.title = "the fastest implementation by " + *asked.by;
    } else {
      fill_table(cell, find_winners(results, points), winners_flat_table, write_winners);
      cell.title = "the fastest implementation of each problem";
    }
  } catch (const ResultsError& refused) {
    throw ResultsError(where + refused.what());
  }
  if (cell.table.columns.empty()) throw ResultsError(where + "the comparison has no rows");
  take_strong_cells(cell);
  return cell;
}

QueryCell value_cell(const std::string& query, const ValueContext& context, const std::string& file,
                     int line) {
  const std::string where = file + ":" + std::to_string(line) + ": ";
  ProseSpans spans;
  try {
    spans = find_prose_spans("{{ " + query + " }}", ProseSyntax::markdown, file);
  } catch (const ResultsError& refused) {
    throw ResultsError(where + refused.what());
  }
  if (!spans.placements.empty() || spans.values.size() != 1)
    throw ResultsError(where + "{{ " + clipped(query) + " }}: " + kQueryKinds);
  ValueReference reference = spans.values.front();
  reference.line = line;
  const ResolvedValue resolved = resolve_value(reference, context, file);
  QueryCell cell;
  cell.query = query;
  cell.title = query;
  cell.value = resolved.text;
  cell.number = resolved.number;
  return cell;
}

QueryCell answered_query(const std::string& written, const ResultsDocument& results,
                         const ValueContext& context, const std::string& file, int line) {
  const std::string query = stripped(written);
  const std::string where =
      file + ":" + std::to_string(line) + ": {{query: " + clipped(query) + "}}: ";
  if (query.empty()) throw ResultsError(where + "the query is empty");
  if (query.size() > kMaxQueryBytes)
    throw ResultsError(file + ":" + std::to_string(line) + ": a query has at most " +
                       std::to_string(kMaxQueryBytes) + " bytes");
  if (query.find("}}") != std::string::npos || query.find("{{") != std::string::npos)
    throw ResultsError(where + "a query holds no {{ or }}");
  if (query.rfind("--", 0) == 0) return comparison_cell(query, results, where);
  return value_cell(query, context, file, line);
}

}  // namespace

// A mistake is said in a few lines however long the query: the parts of it that a message quotes
// (a filter, a field) are cut in their middle, the reason at the end kept.
QueryCell query_cell(const std::string& written, const ResultsDocument& results,
                     const ValueContext& context, const std::string& file, int line) {
  try {
    return answered_query(written, results, context, file, line);
  } catch (const ResultsError& refused) {
    throw ResultsError(bounded_message(refused.what()));
  }
}

std::string discussion_text_of(const QueryCell& cell) {
  if (cell.is_table()) return "{{query: " + cell.query + "}}";
  return "{{ " + cell.query + " }}";
}

}  // namespace convlab
