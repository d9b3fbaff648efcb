// Live values in prose. A discussion (experiments/<name>.md) writes {{median_ms[implementation=npp,
// kernel.size=3]}} where a number of its results belongs: the field, then in brackets the point
// filter that must select exactly one ok point. Any expression over such queries may stand there
// (core/expression.hpp, query/record_expressions.hpp), with a format after a bar:
// {{ median_ms[params.threads=1] / (2 * median_ms[params.threads=2]) | .2f }}. The report's
// summary (report/summary.tex) names the experiment first: {{npp_peer:
// median_ms[implementation=npp,kernel.size=7]}}. A discussion also places the notebook's cells
// where its prose refers to them: {{figure: time-by-k}} on a line of its own. This is the one
// parser of that syntax, for Markdown and for LaTeX text; resolving a reference against the
// results stops the build with "file:line: {{query}}: why" when it matches no point or several.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "query/derived_columns.hpp"
#include "store/record.hpp"

namespace convlab {

struct ValueReference {
  std::string experiment;  // empty: the experiment the text belongs to
  // A lone query field[filter] without a format, read as it always was: the one point's field,
  // in words where it is text.
  std::string field;
  std::string filter;
  // Otherwise an expression (field and filter empty) and its format (value_format.hpp).
  std::string expression;
  std::string format;
  std::string query;  // the text between the braces, as written (for messages)
  int line = 0;       // 1-based line of the opening braces
  size_t begin = 0;   // byte offset of "{{"
  size_t end = 0;     // byte offset just after "}}"
};

// A cell of the notebook placed by a discussion: {{figure: NAME}}, {{table: NAME}}, {{config}},
// {{run}}, {{verification}}, {{gallery}}, {{sources}} or {{query: --compare params.X}}
// (notebook/query_cell.hpp), each on a line of its own.
struct CellPlacement {
  enum class Kind { figure, table, config, run, verification, gallery, sources, query };
  Kind kind = Kind::figure;
  std::string name;   // figure and table: the declaration's name; query: the query
  std::string query;  // the text between the braces, as written (for messages)
  int line = 0;
  size_t begin = 0;
  size_t end = 0;
};

// "figure", "table", "config", ...
const char* placement_word(CellPlacement::Kind kind);
// "{{figure: time-by-k}}" for messages.
std::string placement_text(const CellPlacement& placement);

// How the text around references is read: in Markdown, code spans and code blocks are literal and
// \{{ is a literal "{{"; in LaTeX, % starts a comment to the end of the line.
enum class ProseSyntax { markdown, latex };

// Math spans of Markdown prose: $...$ (inline) and $$...$$ (display), outside code. An opening $
// is followed by a non-space, a closing $ follows a non-space and is not followed by a digit, so
// "costs $5 and $6" is no math.
struct MathSpan {
  std::string tex;
  bool display = false;
  size_t begin = 0;
  size_t end = 0;
};

struct ProseSpans {
  std::vector<ValueReference> values;
  std::vector<MathSpan> math;             // Markdown only
  std::vector<CellPlacement> placements;  // Markdown only
};

// Every value reference (and, for Markdown, every math span and cell placement) in order. Throws
// ResultsError "file:line: {{query}}: why" for a reference that is not closed on its paragraph, is
// not an expression, has a format that is none, or places a cell in LaTeX.
ProseSpans find_prose_spans(const std::string& text, ProseSyntax syntax, const std::string& file);
std::vector<ValueReference> find_value_references(const std::string& text, ProseSyntax syntax,
                                                  const std::string& file);

struct ResolvedValue {
  ValueReference reference;
  std::string text;                // as set: 3 significant digits, or the field's words
  const Record* record = nullptr;  // the point a lone query was read from
  std::optional<double> number;    // an expression's value before its format
};

// What a discussion's values are resolved against: the latest ok points, the latest record of
// every point (for filters that name status; empty: the ok points), and the config's derived
// columns (derive.NAME may be queried).
struct ValueContext {
  std::vector<const Record*> points;
  std::vector<const Record*> latest;
  std::vector<DerivedColumn> derived;
};

// A lone query: the one ok point its filter selects, and its field. An expression: checked
// (fields, functions, units, format), evaluated, formatted. Throws ResultsError naming file:line
// and the reference: an unknown field or function (with the closest name), a filter that matches
// no point or several where one is needed, a division by zero, units that do not agree.
ResolvedValue resolve_value(const ValueReference& reference, const ValueContext& context,
                            const std::string& file);
ResolvedValue resolve_value(const ValueReference& reference,
                            const std::vector<const Record*>& points, const std::string& file);
std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const ValueContext& context, const std::string& file);
std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const std::vector<const Record*>& points,
                                          const std::string& file);

// "{{query}}" for tooltips.
std::string reference_text(const ValueReference& reference);
// The same for messages: a line's worth of it at most.
std::string reference_in_message(const ValueReference& reference);

}  // namespace convlab
