// Live values in prose. A discussion (experiments/<name>.md) writes {{median_ms[implementation=npp,
// kernel.size=3]}} where a number of its results belongs: the field, then in brackets the point
// filter that must select exactly one ok point. The report's summary (report/summary.tex) names
// the experiment first: {{npp_peer: median_ms[implementation=npp,kernel.size=7]}}. This is the one
// parser of that syntax, for Markdown and for LaTeX text; resolving a reference against the
// results stops the build with "file:line: {{query}}: why" when it matches no point or several.
#pragma once

#include <string>
#include <vector>

#include "results/record.hpp"

namespace convlab {

struct ValueReference {
  std::string experiment;  // empty: the experiment the text belongs to
  std::string field;
  std::string filter;
  std::string query;  // the text between the braces, as written (for messages)
  int line = 0;       // 1-based line of the opening braces
  size_t begin = 0;   // byte offset of "{{"
  size_t end = 0;     // byte offset just after "}}"
};

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
  std::vector<MathSpan> math;  // Markdown only
};

// Every value reference (and, for Markdown, every math span) in order. Throws ExportError
// "file:line: {{query}}: why" for a reference that is not closed on its paragraph or does not
// read field[filter].
ProseSpans find_prose_spans(const std::string& text, ProseSyntax syntax, const std::string& file);
std::vector<ValueReference> find_value_references(const std::string& text, ProseSyntax syntax,
                                                  const std::string& file);

struct ResolvedValue {
  ValueReference reference;
  std::string text;                // as set: 3 significant digits, or the field's words
  const Record* record = nullptr;  // the point it was read from
};

// The one ok point each reference's filter selects, and its field. Throws ExportError naming
// file:line and the reference when the field is unknown, the filter matches no point or several,
// or the point lacks the field.
ResolvedValue resolve_value(const ValueReference& reference,
                            const std::vector<const Record*>& points, const std::string& file);
std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const std::vector<const Record*>& points,
                                          const std::string& file);

// "{{query}}" for messages and tooltips.
std::string reference_text(const ValueReference& reference);

}  // namespace convlab
