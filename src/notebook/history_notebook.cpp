#include "notebook/history_notebook.hpp"

#include <algorithm>
#include <filesystem>

#include "core/count_words.hpp"
#include "core/number_text.hpp"
#include "figures/history_figure.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

MarkdownInline code_inline(std::string text) {
  MarkdownInline piece = text_inline(std::move(text));
  piece.kind = MarkdownInline::Kind::code;
  return piece;
}

MarkdownInline strong_inline(std::string text) {
  MarkdownInline piece;
  piece.kind = MarkdownInline::Kind::strong;
  piece.children.push_back(text_inline(std::move(text)));
  return piece;
}

MarkdownBlock paragraph(RichText inlines) {
  MarkdownBlock block;
  block.inlines = std::move(inlines);
  return block;
}

MarkdownBlock heading(const std::string& text) {
  MarkdownBlock block;
  block.kind = MarkdownBlock::Kind::heading;
  block.level = 3;
  block.inlines = {text_inline(text)};
  return block;
}

MarkdownBlock bullet_list(const std::vector<RichText>& items) {
  MarkdownBlock list;
  list.kind = MarkdownBlock::Kind::bullet_list;
  for (const RichText& item : items) {
    MarkdownBlock entry;
    entry.kind = MarkdownBlock::Kind::item;
    entry.children.push_back(paragraph(item));
    list.children.push_back(std::move(entry));
  }
  return list;
}

// Text the notebook writes itself, typed: nothing of it is read as Markdown.
MarkdownCell text_cell(std::vector<MarkdownBlock> blocks, std::size_t part) {
  MarkdownCell cell;
  cell.role = part == 0 ? MarkdownCell::Role::description : MarkdownCell::Role::discussion;
  cell.part = part;
  cell.document.blocks = std::move(blocks);
  return cell;
}

std::string percent(double fraction) {
  return format_number(fraction * 100, 3) + " %";
}

MarkdownCell introduction(const History& history, const StepSettings& settings) {
  std::size_t machines = 0;
  std::vector<std::string> seen;
  for (const HistoryPanel& panel : history.panels)
    if (std::find(seen.begin(), seen.end(), panel.machine_folder) == seen.end()) {
      seen.push_back(panel.machine_folder);
      ++machines;
    }
  const std::string what =
      "The experiment " + history.index.experiment + " (" + history.index.config_path +
      ") measured by the convlab of each of " +
      count_words(history.index.commits.size(), "commit") + ", oldest first, on " +
      count_words(machines, "machine") +
      ": each commit built in a worktree of its own and run on the same config (convlab history "
      "run), its results kept apart. Machines are kept apart by host and CPU calibration, a "
      "panel each.";
  const std::string how =
      "A step is a change point of a point's medians over the commits, found by PELT on their "
      "logarithms, and confirmed by the two-sided Mann-Whitney U test on the raw samples of the "
      "commits on either side (alpha " +
      format_exact(settings.alpha) + "); steps beyond " + percent(settings.threshold) +
      " are listed and marked in the figures by dashed lines.";
  // One paragraph: the report's section shows the description's first.
  return text_cell({paragraph({text_inline(what + " " + how)})}, 0);
}

RichText step_item(const History& history, const HistoryStep& step) {
  const PointHistory& point = history.points[step.point];
  const HistoryCommit& commit = history.index.commits[step.at];
  const double factor = step.ratio >= 1 ? step.ratio : 1 / step.ratio;
  RichText item{strong_inline(step.regression() ? "Regression" : "Improvement"),
                text_inline(" " + format_number(factor, 3) + "\xC3\x97 " +
                            (step.ratio >= 1 ? "slower" : "faster") + " at "),
                code_inline(commit.id.substr(0, 12)),
                text_inline(" (" + commit.subject + "): " + point.point + ", " +
                            format_number(step.before_value, 4) + " \xE2\x86\x92 " +
                            format_number(step.after_value, 4) + " " + history.metric +
                            ", p = " + format_number(step.test.p_value, 2))};
  if (history.panels.size() > 1)
    item.push_back(text_inline("; " + history.panels[point.panel].label));
  if (step.calibration_gap && step.calibration_gap->apart())
    item.push_back(text_inline("; the CPU calibration moved at the same commit (" +
                               gap_words(*step.calibration_gap) + ")"));
  return item;
}

MarkdownCell steps_cell(const History& history, const std::vector<HistoryStep>& steps,
                        const StepSettings& settings) {
  std::vector<const HistoryStep*> confirmed;
  for (const HistoryStep& step : steps)
    if (step.regression() || step.improvement()) confirmed.push_back(&step);
  std::stable_sort(
      confirmed.begin(), confirmed.end(),
      [](const HistoryStep* a, const HistoryStep* b) { return a->regression() > b->regression(); });
  std::vector<MarkdownBlock> blocks{heading("Steps")};
  if (confirmed.empty()) {
    blocks.push_back(
        paragraph({text_inline("No confirmed step beyond " + percent(settings.threshold) + ".")}));
  } else {
    std::vector<RichText> items;
    for (const HistoryStep* step : confirmed) items.push_back(step_item(history, *step));
    blocks.push_back(bullet_list(items));
  }
  return text_cell(std::move(blocks), 1);
}

RichText commit_item(const History& history, const CommitRun& run) {
  const HistoryCommit& commit = history.index.commits[*history.index.commit_index(run.commit)];
  std::string how = std::string(": ") + to_string(run.outcome);
  if (run.outcome != CommitOutcome::build_failed)
    how += run.build_cached ? " (build cached"
                            : " (built in " + format_number(run.build_seconds, 3) + " s";
  if (run.outcome != CommitOutcome::build_failed)
    how += ", ran in " + format_number(run.run_seconds, 3) + " s)";
  how += " on " + run.machine.label;
  if (run.calibration) how += ", " + calibration_words(*run.calibration);
  RichText item{code_inline(commit.id.substr(0, 12)), text_inline(" " + commit.subject + how)};
  if (!run.reason.empty()) item.push_back(text_inline(": " + run.reason.substr(0, 300)));
  return item;
}

MarkdownCell commits_cell(const History& history, std::size_t part) {
  std::vector<RichText> items;
  for (std::size_t i = 0; i < history.index.commits.size(); ++i) {
    bool any = false;
    for (const CommitRun& run : history.index.runs)
      if (run.commit == history.index.commits[i].id) {
        items.push_back(commit_item(history, run));
        any = true;
      }
    if (!any)
      items.push_back({code_inline(history.index.commits[i].id.substr(0, 12)),
                       text_inline(" " + history.index.commits[i].subject + ": not run yet")});
  }
  return text_cell({heading("Commits"), bullet_list(items)}, part);
}

TableCell points_table(const History& history, const std::vector<HistoryStep>& steps) {
  TableCell cell;
  TableData& table = cell.data;
  table.declaration.name = "history-points";
  table.declaration.title = "Every point across the commits";
  table.declaration.digits = 4;
  table.row_header = "Point";
  table.value_label = field_axis_label(history.metric);
  table.column_header =
      "the median across the commits, its spread, the commits measured and the "
      "confirmed steps";
  for (const char* column : {"Median across commits", "Spread [%]", "Commits", "Steps"}) {
    Category category;
    category.key = {column};
    category.label = column;
    table.grid.columns.push_back(std::move(category));
  }
  table.grid.columns.front().label += " [" + history.metric + "]";
  table.count_columns = {false, false, true, true};
  table.column_units = {std::nullopt, "%", "", ""};
  for (std::size_t p = 0; p < history.points.size(); ++p) {
    const PointHistory& point = history.points[p];
    Category row;
    row.key = {point.point, std::to_string(point.panel)};
    row.label = history.panels.size() > 1
                    ? point.point + " (" + history.panels[point.panel].label + ")"
                    : point.point;
    row.implementation = point.implementation;
    table.grid.rows.push_back(std::move(row));
    const double counted =
        static_cast<double>(std::count_if(steps.begin(), steps.end(), [&](const HistoryStep& s) {
          return s.point == p && (s.regression() || s.improvement());
        }));
    table.grid.cells.push_back({Cell{point.median, {}, {}, point.commits.back().record},
                                Cell{point.spread * 100, {}, {}, nullptr},
                                Cell{double(point.commits.size()), {}, {}, nullptr},
                                Cell{counted, {}, {}, nullptr}});
  }
  cell.caption =
      "Every point's median across the commits, its spread (the median absolute "
      "deviation from it, relative) and its confirmed steps.";
  return cell;
}

}  // namespace

ExperimentNotebook build_history_notebook(const History& history, const StepSettings& settings) {
  ExperimentNotebook notebook;
  notebook.name = "history_" + history.index.experiment;
  notebook.title = history.index.experiment + " across commits";
  notebook.results_path =
      (std::filesystem::path(history.directory) / kHistoryIndexFile).generic_string();
  const std::vector<HistoryStep> steps = find_steps(history, settings);
  notebook.cells.emplace_back(introduction(history, settings));
  notebook.cells.emplace_back(steps_cell(history, steps, settings));
  for (FigureData& figure : history_figures(history, steps)) {
    FigureCell cell;
    cell.caption = figure.declaration.title + ".";
    cell.data = std::move(figure);
    notebook.cells.emplace_back(std::move(cell));
  }
  if (!history.points.empty()) notebook.cells.emplace_back(points_table(history, steps));
  notebook.cells.emplace_back(commits_cell(history, 2));
  notebook.notes = history.notes;
  return notebook;
}

}  // namespace convlab
