// type: history — a point's median against the commits of a history, as line draws a series
// against categories, with each confirmed step marked at its commit by a dashed vertical line.
// Built by history_figures from a history folder, never declared in a config.
#include <algorithm>
#include <cmath>
#include <map>

#include "figures/declarations.hpp"
#include "figures/figure_types.hpp"
#include "figures/history_figure.hpp"
#include "figures/plot_style.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

// The grid row of the confirmed steps: a series of its own, so that the steps show in the legend
// and under the hover like the lines they mark.
const char* const kStepRow =
    "\x1f"
    "confirmed step";
constexpr const char* kStepColour = "#D62728";

bool is_step_row(const Category& row) {
  return row.key.size() == 1 && row.key.front() == kStepRow;
}

// A dashed line at every commit where the panel has a confirmed step, behind the series.
void write_step_lines(PanelPlot& plot) {
  const Grid& grid = plot.figure.panels[plot.panel].grid;
  for (std::size_t r = 0; r < grid.rows.size(); ++r) {
    if (!is_step_row(grid.rows[r])) continue;
    for (std::size_t c = 0; c < grid.columns.size(); ++c)
      if (grid.cells[r][c])
        plot.out << "set arrow from " << c << ", graph 0 to " << c
                 << ", graph 1 nohead back dt 2 lw 1.5 lc rgb '" << kStepColour << "'\n";
  }
}

void plot_history_panel(PanelPlot& plot) {
  plot.out << "unset arrow\n";
  write_step_lines(plot);
  line_figure_type().plot_panel(plot);
}

FigureTypeRules history_rules() {
  FigureTypeRules rules = line_figure_type().rules;
  rules.overlays = false;
  rules.log_x = false;
  rules.numeric_x = false;
  rules.declarable = false;
  return rules;
}

// A config cannot declare the type (declarations.cpp refuses it); a grid asked for all the same
// is the line's over the declaration's fields.
Grid history_grid(const FigureDeclaration& declaration, const std::vector<const Record*>& records,
                  const std::string& context) {
  return line_figure_type().panel_grid(declaration, records, context);
}

FigureInteraction history_interaction() {
  FigureInteraction interaction = line_figure_type().interaction;
  interaction.hint =
      "Hover a point for its commit, subject and record; click a key entry to hide its series. "
      "Dashed lines mark confirmed steps.";
  interaction.hover_names_label = true;
  return interaction;
}

// ---- Building a history's figures

// "1a2b3c4d5e6f: Subject", a long subject cut at a word near 100 characters.
std::string commit_label(const History& history, std::size_t commit) {
  const HistoryCommit& c = history.index.commits[commit];
  constexpr std::size_t kLongest = 100;
  std::string subject = c.subject;
  if (subject.size() > kLongest) {
    const std::size_t space = subject.rfind(' ', kLongest);
    subject = subject.substr(0, space == std::string::npos ? kLongest : space) + " ...";
  }
  return c.id.substr(0, 12) + ": " + subject;
}

std::vector<Category> commit_columns(const History& history) {
  std::vector<Category> columns;
  for (std::size_t i = 0; i < history.index.commits.size(); ++i) {
    Category column;
    column.key = {history.index.commits[i].id};
    column.label = commit_label(history, i);
    column.tic = history.index.commits[i].id.substr(0, 7);
    columns.push_back(std::move(column));
  }
  return columns;
}

// The configurations measured on a problem, in order, as rows.
std::vector<Category> configuration_rows(const History& history, const std::string& problem) {
  std::map<std::string, std::string> configurations;  // words -> implementation
  for (const PointHistory& point : history.points)
    if (point.problem == problem) configurations.emplace(point.configuration, point.implementation);
  std::vector<Category> rows;
  for (const auto& [words, implementation] : configurations) {
    Category row;
    row.key = {words};
    row.label = words;
    row.implementation = implementation;
    rows.push_back(std::move(row));
  }
  return rows;
}

Cell cell_of(const CommitPoint& commit) {
  return {commit.value, commit.q1, commit.q3, commit.record};
}

// The confirmed step at a commit, as a point of the steps' series (the first step there).
void mark_step(Grid& grid, std::size_t row, const PointHistory& point, const HistoryStep& step) {
  auto& cell = grid.cells[row][step.at];
  for (const CommitPoint& commit : point.commits)
    if (commit.commit == step.at && !cell)
      cell = Cell{commit.value, commit.value, commit.value, commit.record};
}

// Without a step in any panel the steps' series is left out, legend and all.
void drop_empty_steps_row(FigureData& figure) {
  for (const FigurePanel& panel : figure.panels)
    if (panel.grid.row_has_values(panel.grid.rows.size() - 1)) return;
  for (FigurePanel& panel : figure.panels) {
    panel.grid.rows.pop_back();
    panel.grid.cells.pop_back();
  }
}

FigurePanel problem_panel(const History& history, const std::vector<HistoryStep>& steps,
                          const std::string& problem, std::size_t panel_index,
                          const std::vector<Category>& rows) {
  FigurePanel panel;
  panel.title = history.panels.size() > 1 ? history.panels[panel_index].label : "";
  panel.grid.rows = rows;
  panel.grid.columns = commit_columns(history);
  panel.grid.cells.assign(rows.size(), std::vector<std::optional<Cell>>(panel.grid.columns.size()));
  for (std::size_t p = 0; p < history.points.size(); ++p) {
    const PointHistory& point = history.points[p];
    if (point.problem != problem || point.panel != panel_index) continue;
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const Category& r) {
      return r.key.front() == point.configuration;
    });
    for (const CommitPoint& commit : point.commits)
      panel.grid.cells[row - rows.begin()][commit.commit] = cell_of(commit);
    for (const HistoryStep& step : steps)
      if (step.point == p && (step.regression() || step.improvement()))
        mark_step(panel.grid, rows.size() - 1, point, step);
  }
  return panel;
}

FigureDeclaration history_declaration(const History& history, const std::string& problem,
                                      std::size_t number) {
  FigureDeclaration declaration;
  declaration.name = "history-" + std::to_string(number);
  declaration.type = &history_figure_type();
  declaration.title = field_title(history.metric) + " by commit: " + problem;
  declaration.x = "commit";
  declaration.y = {history.metric};
  declaration.series = {"configuration"};
  declaration.log_y = true;
  declaration.error_bars = true;
  declaration.x_label = "Commit (oldest first)";
  declaration.shade_variants = true;
  return declaration;
}

}  // namespace

const FigureTypeDescriptor& history_figure_type() {
  static const FigureTypeDescriptor line = line_figure_type();
  static const FigureTypeDescriptor type{"history",         {},
                                         history_rules(),   history_grid,
                                         line.panel_tsv,    plot_history_panel,
                                         line.legend_entry, history_interaction()};
  return type;
}

std::vector<FigureData> history_figures(const History& history,
                                        const std::vector<HistoryStep>& steps) {
  std::vector<std::string> problems;
  for (const PointHistory& point : history.points)
    if (std::find(problems.begin(), problems.end(), point.problem) == problems.end())
      problems.push_back(point.problem);
  std::sort(problems.begin(), problems.end());
  std::vector<FigureData> figures;
  for (const std::string& problem : problems) {
    FigureData figure;
    figure.declaration = history_declaration(history, problem, figures.size() + 1);
    figure.log_y = true;
    figure.x_label = figure.declaration.x_label;
    figure.y_label = field_axis_label(history.metric);
    std::vector<Category> rows = configuration_rows(history, problem);
    Category steps_row;
    steps_row.key = {kStepRow};
    steps_row.label = "confirmed step";
    rows.push_back(std::move(steps_row));
    for (std::size_t panel = 0; panel < history.panels.size(); ++panel) {
      FigurePanel drawn = problem_panel(history, steps, problem, panel, rows);
      bool any = false;
      for (std::size_t r = 0; r + 1 < drawn.grid.rows.size(); ++r)
        any = any || drawn.grid.row_has_values(r);
      if (any) figure.panels.push_back(std::move(drawn));
    }
    if (figure.panels.empty()) continue;
    drop_empty_steps_row(figure);
    figures.push_back(std::move(figure));
  }
  return figures;
}

}  // namespace convlab
