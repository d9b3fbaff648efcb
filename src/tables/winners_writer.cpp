#include "tables/winners_writer.hpp"

#include <algorithm>

#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "query/point_flags.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

// The problem fields of a winners row: column name and record field.
const std::vector<std::pair<std::string, std::string>> kProblemColumns = {{"image", "image.name"},
                                                                          {"kernel", "kernel.name"},
                                                                          {"border", "border"},
                                                                          {"output", "output"},
                                                                          {"machine", "machine"}};

std::string params_words(const Record& record) {
  std::string text;
  for (const auto& [key, value] : record.params.items())
    text += (text.empty() ? "" : " ") + key + "=" + field_text(value);
  return text;
}

// For people: the implementation and the params that tell its configurations apart.
std::string configuration(const Record& record, const SweptParams& swept) {
  std::string text = record.implementation;
  const auto found = swept.find(record.implementation);
  if (found == swept.end()) return text;
  for (const auto& key : found->second)
    if (record.params.contains(key)) text += " " + key + "=" + field_text(record.params[key]);
  return text;
}

std::string number(double value, FlatFormat format) {
  return format == FlatFormat::md ? format_number(value, 4) : format_exact(value);
}

std::string ratio(const std::optional<double>& value, FlatFormat format) {
  if (!value) return "";
  return format == FlatFormat::md ? format_number(*value, 3) + "x" : format_exact(*value);
}

std::string text_of(const Record& record, const std::string& field) {
  const auto value = field_value(record, field);
  return value ? value->text : "";
}

bool is_constant(const WinnersTable& table, const std::string& field) {
  return std::find(table.constant.begin(), table.constant.end(), field) != table.constant.end();
}

// md: "significant (p = 2e-05)"; csv and tsv keep p in a column of its own.
std::string difference(WinMargin margin, double p_value, FlatFormat format) {
  if (margin == WinMargin::alone) return format == FlatFormat::md ? "only point" : "alone";
  if (format != FlatFormat::md) return to_string(margin);
  return std::string(to_string(margin)) + " (p = " + format_number(p_value, 2) + ")";
}

std::string baseline_title(const std::string& baseline) {
  return baseline.empty() ? "vs baseline" : "vs " + baseline;
}

// The mark of a ratio that relates points of runs under different conditions.
const char* const kConditionsMark = "\u00a7";

// md: the median with the mark of a very noisy point.
std::string marked_median(const Record& record) {
  std::string text = number(record.median_ms(), FlatFormat::md);
  for (PointFlag flag : point_flags(record))
    if (flag == PointFlag::very_noisy) text += flag_mark(flag);
  return text;
}

bool very_noisy(const Record* record) {
  if (record == nullptr) return false;
  const auto flags = point_flags(*record);
  return std::find(flags.begin(), flags.end(), PointFlag::very_noisy) != flags.end();
}

// The footnotes of the marks a md table used, and the note on the runs it mixes.
void write_marks_legend(bool noisy, bool conditions, const MixedRuns& runs, std::ostream& out) {
  if (noisy)
    out << flag_mark(PointFlag::very_noisy) << " " << flag_legend(PointFlag::very_noisy) << "\n";
  if (conditions)
    out << kConditionsMark
        << " the ratio relates points of runs under different conditions, so it may be theirs, "
           "not the implementations'.\n";
  if (runs.mixed()) out << mixed_runs_note(runs) << "\n";
}

}  // namespace

FlatTable winners_flat_table(const WinnersTable& table, FlatFormat format) {
  const bool md = format == FlatFormat::md;
  std::vector<std::pair<std::string, std::string>> problem;
  for (const auto& column : kProblemColumns) {
    const bool machine = column.first == "machine";
    if (md ? !is_constant(table, column.second) && (!machine || table.several_machines) : true)
      problem.push_back(column);
  }
  FlatTable flat;
  for (const auto& column : problem) flat.columns.push_back(column.first);
  if (md)
    flat.columns.insert(flat.columns.end(),
                        {"fastest", "median ms", "runner-up (median ms)", "ratio", "difference",
                         baseline_title(table.baseline)});
  else
    flat.columns.insert(flat.columns.end(),
                        {"implementation", "configuration", "median_ms", "runner_up",
                         "runner_up_configuration", "runner_up_median_ms", "runner_up_ratio",
                         "p_value", "difference", "baseline", "baseline_ratio", "baseline_note"});
  for (const auto& row : table.rows) {
    const Record& winner = *row.winner;
    std::vector<std::string> cells;
    for (const auto& column : problem) cells.push_back(text_of(winner, column.second));
    const std::string median = number(winner.median_ms(), format);
    const std::string baseline =
        row.baseline_ratio ? ratio(row.baseline_ratio, format) : row.baseline_gap;
    if (md) {
      const std::string runner_up = row.runner_up ? configuration(*row.runner_up, table.swept) +
                                                        " (" + marked_median(*row.runner_up) + ")"
                                                  : "";
      const std::string mark = row.conditions_differ ? kConditionsMark : "";
      cells.insert(cells.end(),
                   {configuration(winner, table.swept), marked_median(winner), runner_up,
                    ratio(row.runner_up_ratio, format) + (row.runner_up_ratio ? mark : ""),
                    difference(row.margin, row.test.p_value, format),
                    baseline + (row.baseline_ratio ? mark : "")});
    } else {
      const Record* other = row.runner_up;
      cells.insert(
          cells.end(),
          {winner.implementation, params_words(winner), median, other ? other->implementation : "",
           other ? params_words(*other) : "", other ? number(other->median_ms(), format) : "",
           ratio(row.runner_up_ratio, format), other ? format_exact(row.test.p_value) : "",
           difference(row.margin, row.test.p_value, format), table.baseline,
           row.baseline_ratio ? format_exact(*row.baseline_ratio) : "",
           row.baseline_ratio ? "" : row.baseline_gap});
    }
    flat.rows.push_back(std::move(cells));
  }
  return flat;
}

void write_winners(const WinnersTable& table, FlatFormat format, std::ostream& out) {
  if (format != FlatFormat::md) {
    write_flat_table(winners_flat_table(table, format), format, out);
    return;
  }
  if (table.rows.empty()) {
    out << "No ok point to rank.\n";
    return;
  }
  std::string same;
  for (const auto& [column, field] : kProblemColumns)
    if (field != "machine" && is_constant(table, field))
      same +=
          (same.empty() ? "" : ", ") + column + " " + text_of(*table.rows.front().winner, field);
  if (!same.empty()) out << "Every problem: " << same << ".\n\n";
  write_flat_table(winners_flat_table(table, format), format, out);
  out << "\nfastest: the configuration with the lowest median time; runner-up: the fastest "
         "configuration of another implementation (of the same one where it ran alone); ratio: "
         "runner-up median / fastest median; difference: two-sided Mann-Whitney U test on the "
         "raw samples of the two, significant when p < "
      << format_exact(table.alpha) << "; " << baseline_title(table.baseline) << ": "
      << (table.baseline.empty() ? "the baseline" : table.baseline)
      << " median / fastest median.\n";
  bool noisy = false, conditions = false;
  for (const auto& row : table.rows) {
    noisy = noisy || very_noisy(row.winner) || very_noisy(row.runner_up);
    conditions = conditions || row.conditions_differ;
  }
  write_marks_legend(noisy, conditions, table.runs, out);
}

FlatTable pivot_flat_table(const WinnersPivot& pivot, FlatFormat format) {
  const bool md = format == FlatFormat::md;
  FlatTable flat;
  const auto& parts = pivot.groups.empty() ? std::vector<std::pair<std::string, std::string>>{}
                                           : pivot.groups.front().parts;
  if (!md)
    for (const auto& part : parts) flat.columns.push_back(part.first);
  flat.columns.push_back(pivot.field);
  for (const auto& implementation : pivot.implementations) {
    flat.columns.push_back(md ? implementation + " ms" : implementation + ".median_ms");
    if (!md) flat.columns.push_back(implementation + ".configuration");
  }
  if (md)
    flat.columns.insert(flat.columns.end(), {"fastest", "ratio", "difference"});
  else
    flat.columns.insert(flat.columns.end(), {"fastest", "fastest_configuration", "runner_up",
                                             "runner_up_ratio", "p_value", "difference"});
  for (const auto& group : pivot.groups)
    for (const auto& row : group.rows) {
      std::vector<std::string> cells;
      if (!md)
        for (const auto& part : group.parts) cells.push_back(part.second);
      cells.push_back(row.value);
      for (size_t i = 0; i < row.cells.size(); ++i) {
        const Record* best = row.cells[i].best;
        std::string median = !best ? (md ? "-" : "")
                             : md  ? marked_median(*best)
                                   : number(best->median_ms(), format);
        if (md && best && row.winner == i) median = "**" + median + "**";
        cells.push_back(median);
        if (!md) cells.push_back(best ? params_words(*best) : "");
      }
      const Record* fastest = row.winner ? row.cells[*row.winner].best : nullptr;
      const Record* second = row.runner_up ? row.cells[*row.runner_up].best : nullptr;
      if (md) {
        cells.insert(cells.end(), {fastest ? configuration(*fastest, pivot.swept) : "",
                                   ratio(row.runner_up_ratio, format) +
                                       (row.conditions_differ ? kConditionsMark : ""),
                                   difference(row.margin, row.p_value, format)});
      } else {
        cells.insert(
            cells.end(),
            {fastest ? fastest->implementation : "", fastest ? params_words(*fastest) : "",
             second ? second->implementation : "", ratio(row.runner_up_ratio, format),
             second ? format_exact(row.p_value) : "", difference(row.margin, row.p_value, format)});
      }
      flat.rows.push_back(std::move(cells));
    }
  return flat;
}

void write_pivot(const WinnersPivot& pivot, FlatFormat format, std::ostream& out) {
  if (format != FlatFormat::md) {
    write_flat_table(pivot_flat_table(pivot, format), format, out);
    return;
  }
  for (size_t g = 0; g < pivot.groups.size(); ++g) {
    WinnersPivot one = pivot;
    one.groups = {pivot.groups[g]};
    if (!pivot.groups[g].labels.empty()) {
      std::string heading;
      for (const auto& [field, value] : pivot.groups[g].labels)
        heading += (heading.empty() ? "" : ", ") + field + " " + value;
      out << (g ? "\n" : "") << "## " << heading << "\n\n";
    }
    write_flat_table(pivot_flat_table(one, format), format, out);
  }
  out << "\nCells: the median time of each implementation's fastest configuration, in ms; the "
         "fastest in bold. ratio: runner-up median / fastest median; difference: two-sided "
         "Mann-Whitney U test on the raw samples of the two, significant when p < "
      << format_exact(pivot.alpha) << "; -: no ok point.\n";
  bool noisy = false, conditions = false;
  for (const auto& group : pivot.groups)
    for (const auto& row : group.rows) {
      conditions = conditions || row.conditions_differ;
      for (const auto& cell : row.cells) noisy = noisy || very_noisy(cell.best);
    }
  write_marks_legend(noisy, conditions, pivot.runs, out);
}

}  // namespace convlab
