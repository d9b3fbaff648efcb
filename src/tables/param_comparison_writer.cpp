#include "tables/param_comparison_writer.hpp"

#include <algorithm>
#include <set>

#include "core/number_text.hpp"

namespace convlab {
namespace {

// The group parts as columns: column name and part name.
const std::vector<std::pair<std::string, std::string>> kPartColumns = {
    {"image", "image.name"},
    {"kernel", "kernel.name"},
    {"border", "border"},
    {"output", "output"},
    {"machine", "machine"},
    {"implementation", "implementation"},
    {"configuration", "configuration"}};

// The mark of rows whose numbers relate records of runs under different conditions.
const char* const kConditionsMark = "\u00a7";

std::string part_of(const ParamGroup& group, const std::string& part) {
  for (const auto& [name, value] : group.parts)
    if (name == part) return value;
  return "";
}

bool part_is_constant(const ParamComparison& comparison, const std::string& part) {
  const std::string first = part_of(comparison.groups.front(), part);
  return std::all_of(comparison.groups.begin(), comparison.groups.end(),
                     [&](const ParamGroup& group) { return part_of(group, part) == first; });
}

// md shows the parts that vary (the implementation always), and the configuration only where an
// implementation has other params that vary; csv and tsv every part.
std::vector<std::pair<std::string, std::string>> shown_parts(const ParamComparison& comparison,
                                                             FlatFormat format) {
  if (format != FlatFormat::md) return kPartColumns;
  std::vector<std::pair<std::string, std::string>> shown;
  for (const auto& column : kPartColumns) {
    const bool keep = column.second == "implementation" ||
                      (column.second == "configuration"
                           ? !part_is_constant(comparison, column.second) ||
                                 !part_of(comparison.groups.front(), column.second).empty()
                           : !part_is_constant(comparison, column.second));
    if (keep) shown.push_back(column);
  }
  return shown;
}

bool has_flag(const ParamRow& row, PointFlag flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

std::string md_number(double value) {
  return format_number(value, 4);
}

std::string md_ratio(const std::optional<double>& value) {
  return value ? format_number(*value, 3) + "x" : "-";
}

// What stands in the ratio and difference cells of a row without a verdict.
std::string no_ratio_words(const ParamComparison& comparison, const ParamGroup& group,
                           const ParamRow& row) {
  if (row.reference) return "reference";
  if (!group.reference_value)
    return "no " + comparison.field + " = " + comparison.against.value_or("") + " point";
  return "";
}

std::vector<std::string> md_cells(const ParamComparison& comparison, const ParamGroup& group,
                                  const ParamRow& row) {
  const Record& point = *row.point;
  std::string median = md_number(point.median_ms());
  if (has_flag(row, PointFlag::very_noisy)) median += flag_mark(PointFlag::very_noisy);
  std::vector<std::string> cells{row.value, median,
                                 format_number(point.timing->compute.stats.cv * 100, 2)};
  if (row.ratio) {
    cells.push_back(md_ratio(row.ratio) + (row.conditions_differ ? kConditionsMark : ""));
    cells.push_back(verdict_words(*row.verdict, row.test.p_value));
  } else {
    cells.push_back(no_ratio_words(comparison, group, row));
    cells.push_back("");
  }
  if (comparison.threads) {
    cells.push_back(md_ratio(row.speedup));
    std::string efficiency =
        row.efficiency ? format_number(*row.efficiency, kEfficiencyDigits) : "-";
    if (has_flag(row, PointFlag::efficiency_above_one))
      efficiency += flag_mark(PointFlag::efficiency_above_one);
    if (!row.ratio && row.conditions_differ && row.efficiency) efficiency += kConditionsMark;
    cells.push_back(efficiency);
  }
  return cells;
}

std::string flags_text(const ParamRow& row) {
  std::string text;
  for (PointFlag flag : row.flags)
    text += (text.empty() ? "" : "; ") + std::string(flag == PointFlag::efficiency_above_one
                                                         ? "efficiency above 1"
                                                         : "CV above 50 %");
  return text;
}

std::string exact(const std::optional<double>& value) {
  return value ? format_exact(*value) : "";
}

std::vector<std::string> flat_cells(const ParamComparison& comparison, const ParamGroup& group,
                                    const ParamRow& row) {
  const Record& point = *row.point;
  std::vector<std::string> cells{row.value,
                                 format_exact(point.median_ms()),
                                 format_exact(point.timing->compute.stats.cv),
                                 group.reference_value.value_or(""),
                                 exact(row.ratio),
                                 row.ratio ? format_exact(row.test.p_value) : "",
                                 row.verdict ? to_string(*row.verdict) : ""};
  if (comparison.threads) cells.insert(cells.end(), {exact(row.speedup), exact(row.efficiency)});
  cells.insert(cells.end(), {flags_text(row), row.conditions_differ ? "different" : ""});
  return cells;
}

// What the ratio is taken against, for the legend.
std::string reference_words(const ParamComparison& comparison) {
  if (comparison.against) return comparison.field + " = " + *comparison.against;
  return "the first value of " + comparison.field + " in each group (marked reference)";
}

void write_legend(const ParamComparison& comparison, std::ostream& out) {
  out << "\nratio: median / the median at " << reference_words(comparison)
      << ", below 1 is faster; difference: as convlab compare, the two-sided Mann-Whitney U test "
         "on the raw samples of the two, faster or slower when the ratio is beyond "
      << format_exact(comparison.threshold * 100) << " % and p < " << format_exact(comparison.alpha)
      << ".";
  if (comparison.threads)
    out << " speedup T(1) / T(P) and efficiency T(1) / (P T(P)): against the one-thread point "
           "of the same configuration.";
  out << "\n";
  std::set<PointFlag> flags;
  bool conditions = false;
  for (const auto& group : comparison.groups)
    for (const auto& row : group.rows) {
      flags.insert(row.flags.begin(), row.flags.end());
      conditions = conditions || row.conditions_differ;
    }
  for (PointFlag flag : flags) out << flag_mark(flag) << " " << flag_legend(flag) << "\n";
  if (conditions)
    out << kConditionsMark
        << " the point and its reference (or one-thread point) come from runs under different "
           "conditions, so the ratio may be theirs, not the configurations'.\n";
  for (const auto& [implementation, values] : comparison.single_valued)
    out << "Not compared: " << implementation << " has one value of " << comparison.field << " ("
        << values << ").\n";
  if (comparison.runs.mixed()) out << mixed_runs_note(comparison.runs) << "\n";
}

}  // namespace

FlatTable param_comparison_flat_table(const ParamComparison& comparison, FlatFormat format) {
  const bool md = format == FlatFormat::md;
  FlatTable flat;
  if (comparison.groups.empty()) return flat;
  const auto parts = shown_parts(comparison, format);
  for (const auto& column : parts) flat.columns.push_back(column.first);
  flat.columns.push_back(comparison.field);
  if (md)
    flat.columns.insert(flat.columns.end(), {"median ms", "CV %", "ratio", "difference"});
  else
    flat.columns.insert(flat.columns.end(),
                        {"median_ms", "cv", "reference", "ratio", "p_value", "verdict"});
  if (comparison.threads) flat.columns.insert(flat.columns.end(), {"speedup", "efficiency"});
  if (!md) flat.columns.insert(flat.columns.end(), {"flags", "conditions"});
  for (const auto& group : comparison.groups)
    for (const auto& row : group.rows) {
      std::vector<std::string> cells;
      for (const auto& column : parts) cells.push_back(part_of(group, column.second));
      const auto rest = md ? md_cells(comparison, group, row) : flat_cells(comparison, group, row);
      cells.insert(cells.end(), rest.begin(), rest.end());
      flat.rows.push_back(std::move(cells));
    }
  return flat;
}

void write_param_comparison(const ParamComparison& comparison, FlatFormat format,
                            std::ostream& out) {
  if (format != FlatFormat::md) {
    write_flat_table(param_comparison_flat_table(comparison, format), format, out);
    return;
  }
  std::string same;
  for (const auto& [column, part] : kPartColumns)
    if (part != "implementation" && part != "configuration" && part_is_constant(comparison, part))
      same += (same.empty() ? "" : ", ") + column + " " + part_of(comparison.groups.front(), part);
  if (!same.empty()) out << "Every row: " << same << ".\n\n";
  write_flat_table(param_comparison_flat_table(comparison, format), format, out);
  write_legend(comparison, out);
}

}  // namespace convlab
