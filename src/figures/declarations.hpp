// The `figures:` and `tables:` a config declares (docs/report.md), validated like the rest of the
// config. Parsed from the YAML file at config time (errors carry line numbers) and again from the
// resolved config that results.json stores, so an export needs nothing but the results file.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config_error.hpp"
#include "figures/figure_types.hpp"
#include "query/derived_columns.hpp"

namespace YAML {
class Node;
}

namespace convlab {

// What to do when several points fall into one cell (one x of one series, one table cell).
enum class CellReduce { single, min, max, mean };

// A reference line drawn over a line figure, e.g. the hardware floor: the value of `y` of the
// points `where` selects, one per x (reduced as `reduce` says), in grey without markers.
struct OverlayDeclaration {
  std::string label;
  std::string y;
  std::string where;
  CellReduce reduce = CellReduce::min;
};

struct FigureDeclaration {
  std::string name;  // file name stem under outputs/<name>/figures/
  std::string title;
  const FigureTypeDescriptor* type = &line_figure_type();
  std::string x;
  std::vector<std::string> y;       // several only for stacked bars (the stack's parts)
  std::string value;                // heatmap colour
  std::vector<std::string> series;  // one line / bar per value combination
  std::vector<std::string> panel;   // one plot per value combination
  std::string where;                // point filter expression; empty: every ok point
  bool log_x = false;
  bool log_y = false;
  bool error_bars = false;  // q1..q3 of the timing samples
  std::string x_label;      // empty: from the field
  std::string y_label;
  CellReduce reduce = CellReduce::single;
  std::vector<OverlayDeclaration> overlays;
  // The report's front matter only: the experiments whose points the figure draws together.
  std::vector<std::string> from;
  // Default figures only: the variants of one implementation (threads, schedules, tiles) get
  // shades of its colour and point types of their own, not only dashes.
  bool shade_variants = false;
};

struct TableDeclaration {
  std::string name;
  std::string title;
  std::vector<std::string> rows;
  std::vector<std::string> columns;
  std::string value;
  std::string where;
  int digits = 3;  // significant digits
  CellReduce reduce = CellReduce::single;
  // A table of every implementation against this one (query/versus.hpp) instead of rows, columns
  // and value: one row per problem, or per value of `by`, one column per implementation.
  std::string vs;
  std::string by;
};

struct ReportDeclarations {
  std::vector<FigureDeclaration> figures;
  std::vector<TableDeclaration> tables;
  std::vector<DerivedColumn> derive;  // derive: (query/derived_columns.hpp), in file order
  bool has_figures_key = false;       // false: defaults are made at export time
  bool has_tables_key = false;
};

// Validates `derive:`, `figures:` and `tables:` under config_root (a figure or table naming
// derive.NAME needs NAME derived); other keys are left to the caller.
// Errors are ConfigError via where.fail (file:line:col: key.path: message).
ReportDeclarations parse_report_declarations(const YAML::Node& config_root,
                                             const YamlLocation& where);

// The figures of the report's front matter (report/outline.yaml, summary.figures): the same keys,
// plus `from`, the experiments whose results they draw together.
std::vector<FigureDeclaration> parse_summary_figures(const YAML::Node& figures,
                                                     const YamlLocation& where);

// The same from the resolved config in results.json; `where.key_path` names the object
// (e.g. "run.config.resolved") so errors read "results.json: run.config.resolved.figures[1].x:
// ...".
ReportDeclarations parse_report_declarations(const nlohmann::json& resolved_config,
                                             const YamlLocation& where);

// Declarations for a config that declares none: median time and speedup, one line per
// configuration, against the axis that varies most: kernel size (one panel per kernel type, and
// per image where images vary) when sizes vary at least as much as images, else the image (by
// name for photographs, by size for generated images; one panel per kernel). Beyond
// kMostDefaultSeries configurations, one line per implementation, its fastest variant at each x.
// And a median-time table per kernel, its columns the images as the figures name them.
constexpr std::size_t kMostDefaultSeries = 32;
std::vector<FigureDeclaration> default_figures(const std::vector<const Record*>& records);
std::vector<TableDeclaration> default_tables(const std::vector<const Record*>& records);

// A `where:` map {field: value | [values]} as a point filter expression.
std::string where_map_to_expression(
    const std::vector<std::pair<std::string, std::vector<std::string>>>& clauses);

}  // namespace convlab
