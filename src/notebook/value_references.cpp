#include "notebook/value_references.hpp"

#include <cctype>
#include <cstring>
#include <set>

#include "core/expression.hpp"
#include "core/message_text.hpp"
#include "core/number_text.hpp"
#include "notebook/math_commands.hpp"
#include "notebook/value_format.hpp"
#include "query/record_expressions.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"

namespace convlab {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string trimmed(const std::string& text) {
  size_t begin = 0, end = text.size();
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

// Runs of white space, line breaks included, as one space: a filter may be wrapped over lines.
std::string collapsed(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (is_space(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool is_name(const std::string& text, const char* extra) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr(extra, c)) return false;
  return true;
}

// Where the paragraph holding `position` ends: at the next blank line, or the end of the text.
size_t paragraph_end(const std::string& text, size_t position) {
  for (size_t at = text.find('\n', position); at != std::string::npos;
       at = text.find('\n', at + 1)) {
    size_t next = at + 1;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r'))
      ++next;
    if (next >= text.size() || text[next] == '\n') return at;
  }
  return text.size();
}

class ProseScanner {
 public:
  ProseScanner(const std::string& text, ProseSyntax syntax, const std::string& file)
      : text_(text), syntax_(syntax), file_(file) {}

  ProseSpans scan() {
    while (at_ < text_.size()) {
      if (at_line_start_ && syntax_ == ProseSyntax::markdown && skip_fenced_code()) continue;
      const char c = text_[at_];
      if (c == '\n') {
        ++line_;
        ++at_;
        at_line_start_ = true;
        continue;
      }
      at_line_start_ = false;
      if (syntax_ == ProseSyntax::latex && c == '%' && !escaped()) {
        skip_to_line_end();
      } else if (syntax_ == ProseSyntax::markdown && c == '`') {
        skip_code_span();
      } else if (c == '{' && text_.compare(at_, 2, "{{") == 0 && !escaped()) {
        read_value();
      } else if (syntax_ == ProseSyntax::markdown && c == '$' && !escaped()) {
        read_math();
      } else {
        ++at_;
      }
    }
    return std::move(spans_);
  }

 private:
  // Whether the character at at_ is escaped by an odd number of backslashes.
  bool escaped() const {
    size_t count = 0;
    for (size_t i = at_; i > 0 && text_[i - 1] == '\\'; --i) ++count;
    return count % 2 == 1;
  }

  void advance_to(size_t position) {
    for (; at_ < position && at_ < text_.size(); ++at_)
      if (text_[at_] == '\n') ++line_;
  }

  void skip_to_line_end() {
    const size_t end = text_.find('\n', at_);
    at_ = end == std::string::npos ? text_.size() : end;
  }

  // A fenced code block: up to three spaces, then three or more ` or ~; it ends at a fence of the
  // same character at least as long, or at the end of the text. Its lines are literal.
  bool skip_fenced_code() {
    size_t p = at_;
    while (p < text_.size() && p - at_ < 3 && text_[p] == ' ') ++p;
    if (p >= text_.size() || (text_[p] != '`' && text_[p] != '~')) return false;
    const char fence = text_[p];
    size_t length = 0;
    while (p + length < text_.size() && text_[p + length] == fence) ++length;
    if (length < 3) return false;
    skip_to_line_end();
    while (at_ < text_.size()) {
      advance_to(at_ + 1);  // past the newline
      size_t q = at_;
      while (q < text_.size() && q - at_ < 3 && text_[q] == ' ') ++q;
      size_t closing = 0;
      while (q + closing < text_.size() && text_[q + closing] == fence) ++closing;
      skip_to_line_end();
      if (closing >= length) break;
    }
    return true;
  }

  // A code span: a run of n backticks up to the next run of exactly n in the same paragraph; a
  // run without its closing run is literal.
  void skip_code_span() {
    size_t run = 0;
    while (at_ + run < text_.size() && text_[at_ + run] == '`') ++run;
    const size_t limit = paragraph_end(text_, at_);
    for (size_t p = at_ + run; p < limit;) {
      if (text_[p] != '`') {
        ++p;
        continue;
      }
      size_t closing = 0;
      while (p + closing < limit && text_[p + closing] == '`') ++closing;
      if (closing == run) {
        advance_to(p + closing);
        return;
      }
      p += closing;
    }
    at_ += run;
  }

  [[noreturn]] void fail(int line, const std::string& query, const std::string& why) const {
    throw ResultsError(file_ + ":" + std::to_string(line) + ": " + query + ": " + why);
  }

  void read_value() {
    ValueReference reference;
    reference.line = line_;
    reference.begin = at_;
    const size_t limit = paragraph_end(text_, at_);
    const size_t close = text_.find("}}", at_ + 2);
    if (close == std::string::npos || close > limit) {
      const size_t shown = std::min<size_t>(limit, at_ + 40);
      fail(line_, collapsed(text_.substr(at_, shown - at_)) + (shown < limit ? "..." : ""),
           "no closing }} in its paragraph (write \\{{ for literal braces)");
    }
    reference.end = close + 2;
    reference.query = collapsed(text_.substr(at_ + 2, close - at_ - 2));
    const std::string content = collapsed(trimmed(text_.substr(at_ + 2, close - at_ - 2)));
    if (const auto placement = placement_of(content, reference)) {
      if (syntax_ != ProseSyntax::markdown)
        fail(line_, reference_in_message(reference),
             "cells are placed in an experiment's discussion, not here");
      spans_.placements.push_back(*placement);
    } else {
      read_expression(content, reference);
      spans_.values.push_back(reference);
    }
    advance_to(reference.end);
  }

  // "query: --best ..." -> "--best ...": a comparison placed as a table (a query cell's).
  static std::optional<std::string> query_placement(const std::string& content) {
    const std::string word = placement_word(CellPlacement::Kind::query);
    if (content.compare(0, word.size(), word) != 0) return std::nullopt;
    const std::string rest = trimmed(content.substr(word.size()));
    if (rest.empty() || rest[0] != ':') return std::nullopt;
    const std::string query = trimmed(rest.substr(1));
    if (query.compare(0, 2, "--") != 0) return std::nullopt;
    return query;
  }

  // {{figure: NAME}}, {{table: NAME}}, {{query: --OPTION ...}} or one of the cells' own words.
  std::optional<CellPlacement> placement_of(const std::string& content,
                                            const ValueReference& reference) const {
    using Kind = CellPlacement::Kind;
    CellPlacement placement{Kind::figure,    "",           reference.query, reference.line,
                            reference.begin, reference.end};
    for (const Kind kind :
         {Kind::config, Kind::run, Kind::verification, Kind::gallery, Kind::sources})
      if (content == placement_word(kind)) {
        placement.kind = kind;
        return placement;
      }
    if (auto query = query_placement(content)) {
      placement.kind = Kind::query;
      placement.name = *query;
      return placement;
    }
    for (const Kind kind : {Kind::figure, Kind::table}) {
      const std::string word = placement_word(kind);
      if (content.compare(0, word.size(), word) != 0) continue;
      const std::string rest = trimmed(content.substr(word.size()));
      if (rest.empty() || rest[0] != ':') continue;
      const std::string name = trimmed(rest.substr(1));
      if (!is_name(name, "_.-")) continue;  // an experiment called figure, quoted: a value
      placement.kind = kind;
      placement.name = name;
      return placement;
    }
    return std::nullopt;
  }

  // The bar that starts a format: the last one outside brackets and parentheses that is not half
  // of ||.
  static size_t format_bar(const std::string& content) {
    size_t bar = std::string::npos;
    int depth = 0;
    for (size_t i = 0; i < content.size(); ++i) {
      const char c = content[i];
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') --depth;
      const bool double_bar =
          (i > 0 && content[i - 1] == '|') || (i + 1 < content.size() && content[i + 1] == '|');
      if (c == '|' && depth == 0 && !double_bar) bar = i;
    }
    return bar;
  }

  // The experiment a reference names first (the report's summary): a name and a colon before any
  // bracket.
  void take_experiment(std::string& text, ValueReference& reference) const {
    const size_t colon = text.find(':');
    if (colon == std::string::npos || colon > text.find_first_of("[(")) return;
    reference.experiment = trimmed(text.substr(0, colon));
    text = trimmed(text.substr(colon + 1));
    if (!is_name(reference.experiment, "_-"))
      fail(line_, reference_in_message(reference),
           "'" + clipped(reference.experiment, 64) + "' is not an experiment name");
  }

  void read_expression(const std::string& content, ValueReference& reference) const {
    const std::string shown = reference_in_message(reference);
    std::string text = content;
    if (const size_t bar = format_bar(content); bar != std::string::npos) {
      reference.format = trimmed(content.substr(bar + 1));
      text = trimmed(content.substr(0, bar));
      std::string error;
      if (!parse_value_format(reference.format, &error)) fail(line_, shown, error);
    }
    take_experiment(text, reference);
    if (text.empty()) fail(line_, shown, "no expression: write a query, e.g. median_ms[filter]");
    const size_t open = text.find('[');
    const bool lone_query = reference.format.empty() && open != std::string::npos &&
                            text.back() == ']' && text.find(']') + 1 == text.size() &&
                            is_name(trimmed(text.substr(0, open)), "_.");
    if (lone_query) {
      reference.field = trimmed(text.substr(0, open));
      reference.filter = collapsed(text.substr(open + 1, text.size() - open - 2));
      return;
    }
    try {
      const Expression expression = Expression::parse(text);
      if (const auto names = expression.names(); !names.empty())
        fail(line_, shown,
             "'" + clipped(names.front(), 64) + "' alone names no point: write a query, " +
                 clipped(names.front(), 64) + "[filter]");
    } catch (const ExpressionError& error) {
      fail(line_, shown, expression_error_text(error, text));
    }
    reference.expression = text;
  }

  void read_math() {
    const bool display = text_.compare(at_, 2, "$$") == 0;
    const size_t open = display ? 2 : 1;
    const size_t start = at_ + open;
    const size_t limit = paragraph_end(text_, at_);
    if (start >= limit || (!display && is_space(text_[start]))) {
      at_ += open;
      return;
    }
    for (size_t p = start; p < limit; ++p) {
      if (text_[p] == '\\') {
        ++p;
        continue;
      }
      if (text_[p] != '$') continue;
      if (display) {
        if (text_.compare(p, 2, "$$") != 0) continue;
        add_math({trimmed(text_.substr(start, p - start)), true, at_, p + 2});
        return;
      }
      const bool after_space = is_space(text_[p - 1]);
      const bool before_digit =
          p + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p + 1]));
      if (after_space || before_digit || p == start) continue;
      add_math({text_.substr(start, p - start), false, at_, p + 1});
      return;
    }
    at_ += open;  // a lone dollar is text
  }

  // A formula goes to KaTeX and to pdflatex: only the commands both set as math
  // (math_commands.hpp).
  void add_math(const MathSpan& math) {
    if (const std::string why = math_refusal(math.tex); !why.empty()) {
      const char* dollars = math.display ? "$$" : "$";
      fail(line_, dollars + clipped(math.tex, 60) + dollars, why);
    }
    spans_.math.push_back(math);
    advance_to(math.end);
  }

  const std::string& text_;
  ProseSyntax syntax_;
  const std::string& file_;
  size_t at_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  ProseSpans spans_;
};

}  // namespace

std::string reference_text(const ValueReference& reference) {
  return "{{" + reference.query + "}}";
}

std::string reference_in_message(const ValueReference& reference) {
  return "{{" + clipped(reference.query) + "}}";
}

const char* placement_word(CellPlacement::Kind kind) {
  switch (kind) {
    case CellPlacement::Kind::figure:
      return "figure";
    case CellPlacement::Kind::table:
      return "table";
    case CellPlacement::Kind::config:
      return "config";
    case CellPlacement::Kind::run:
      return "run";
    case CellPlacement::Kind::verification:
      return "verification";
    case CellPlacement::Kind::gallery:
      return "gallery";
    case CellPlacement::Kind::sources:
      return "sources";
    case CellPlacement::Kind::query:
      return "query";
  }
  return "";
}

std::string placement_text(const CellPlacement& placement) {
  return "{{" + placement.query + "}}";
}

ProseSpans find_prose_spans(const std::string& text, ProseSyntax syntax, const std::string& file) {
  return ProseScanner(text, syntax, file).scan();
}

std::vector<ValueReference> find_value_references(const std::string& text, ProseSyntax syntax,
                                                  const std::string& file) {
  return find_prose_spans(text, syntax, file).values;
}

namespace {

[[noreturn]] void several_points(const std::string& where,
                                 const std::vector<const Record*>& matching) {
  std::string message =
      where + ": the filter matches " +
      (matching.empty() ? "no ok point"
                        : std::to_string(matching.size()) + " ok points, it must match one");
  for (size_t i = 0; i < matching.size() && i < 5; ++i)
    message += "\n  " + point_in_words(*matching[i]);
  if (matching.size() > 5) message += "\n  ...";
  throw ResultsError(message);
}

// A lone query field[filter]: the field of the one point, as it always read.
ResolvedValue resolve_query(const ValueReference& reference, const ValueContext& context,
                            const std::string& where) {
  std::string suggestion;
  if (!is_known_field(reference.field, &suggestion))
    throw ResultsError(where + ": unknown field '" + reference.field + "'" +
                       (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
  const auto matching = filter_points(context.points, reference.filter, where);
  if (matching.size() != 1) several_points(where, matching);
  const auto value = field_value(*matching[0], reference.field);
  if (!value)
    throw ResultsError(where + ": the point (" + point_in_words(*matching[0]) + ") has no '" +
                       reference.field + "'");
  ResolvedValue resolved{reference, "", matching[0], std::nullopt};
  resolved.text =
      value->numeric ? format_number(value->number, 3) : field_value_words(reference.field, *value);
  return resolved;
}

// The points of the query an evaluation stopped at, for the message.
std::string query_listing(const Expression& expression, const ExpressionError& error,
                          const QueryRecords& records) {
  const ExpressionNode* query = query_at(expression, error.position());
  if (!query || error.kind() != ExpressionError::Kind::several) return "";
  std::string text;
  try {
    const auto points = query_points(records, query->filter);
    for (size_t i = 0; i < points.size() && i < 5; ++i) text += "\n  " + point_in_words(*points[i]);
    if (points.size() > 5) text += "\n  ...";
  } catch (const ResultsError&) {
  }
  return text;
}

// An expression: checked, evaluated over the points, written in its format.
ResolvedValue resolve_expression(const ValueReference& reference, const ValueContext& context,
                                 const std::string& where) {
  const Expression expression = Expression::parse(reference.expression);
  std::string error_text;
  const auto format = parse_value_format(reference.format, &error_text);
  if (!format) throw ResultsError(where + ": " + error_text);
  const QueryRecords records{context.points,
                             context.latest.empty() ? context.points : context.latest};
  try {
    const Unit unit = check_record_expression(expression, value_rules(context.derived));
    if (format->wants_plain() && unit.has_dimension())
      throw ExpressionError("'| " + reference.format +
                                "' writes a ratio or a share, and the value is in " + unit.text() +
                                "; divide it by another value in " + unit.text(),
                            0);
    const double value = evaluate_over_records(expression, records);
    return {reference, format_value(value, *format), nullptr, value};
  } catch (const ExpressionError& error) {
    throw ResultsError(where + ": " + error.what() + query_listing(expression, error, records));
  }
}

}  // namespace

ResolvedValue resolve_value(const ValueReference& reference, const ValueContext& context,
                            const std::string& file) {
  const std::string where =
      file + ":" + std::to_string(reference.line) + ": " + reference_in_message(reference);
  if (!reference.expression.empty()) return resolve_expression(reference, context, where);
  return resolve_query(reference, context, where);
}

ResolvedValue resolve_value(const ValueReference& reference,
                            const std::vector<const Record*>& points, const std::string& file) {
  return resolve_value(reference, ValueContext{points, {}, {}}, file);
}

std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const ValueContext& context, const std::string& file) {
  std::vector<ResolvedValue> resolved;
  resolved.reserve(references.size());
  for (const auto& reference : references)
    resolved.push_back(resolve_value(reference, context, file));
  return resolved;
}

std::vector<ResolvedValue> resolve_values(const std::vector<ValueReference>& references,
                                          const std::vector<const Record*>& points,
                                          const std::string& file) {
  return resolve_values(references, ValueContext{points, {}, {}}, file);
}

}  // namespace convlab
