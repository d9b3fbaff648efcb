#include "tables/versus_writer.hpp"

#include "core/number_text.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

// The mark of rows whose ratio relates records of runs under different conditions.
const char* const kConditionsMark = "\u00a7";

std::string configuration_of(const Record* point) {
  if (!point) return "";
  const auto value = field_value(*point, "configuration");
  return value ? value->text : point->implementation;
}

std::string md_median(const Record* point) {
  return point ? format_number(point->median_ms(), 4) : "-";
}

std::string exact_median(const Record* point) {
  return point ? format_exact(point->median_ms()) : "";
}

// Column names of the row's labels: "image", "kernel", ... for the problem's parts, the field
// itself for the --by value.
std::string label_column(const std::string& field) {
  if (field == "image.name") return "image";
  if (field == "kernel.name") return "kernel";
  return field;
}

void add_md_rows(const VersusTable& table, const VersusRow& row, FlatTable& flat) {
  std::vector<std::string> labels;
  for (const auto& label : row.labels) labels.push_back(label.second);
  const auto line = [&](const std::string& implementation, const Record* point,
                        std::vector<std::string> tail) {
    std::vector<std::string> cells = labels;
    cells.insert(cells.end(), {implementation, configuration_of(point), md_median(point)});
    cells.insert(cells.end(), tail.begin(), tail.end());
    flat.rows.push_back(std::move(cells));
  };
  line(table.against, row.reference, {row.reference ? "reference" : "no point", ""});
  for (size_t i = 0; i < table.implementations.size(); ++i) {
    const VersusCell& cell = row.cells[i];
    if (!cell.point) continue;
    if (!cell.ratio) {
      line(table.implementations[i], cell.point, {"-", "no " + table.against + " point"});
      continue;
    }
    line(table.implementations[i], cell.point,
         {format_number(*cell.ratio, 3) + "x" + (cell.conditions_differ ? kConditionsMark : ""),
          verdict_words(*cell.verdict, cell.test.p_value)});
  }
}

void add_flat_rows(const VersusTable& table, const VersusRow& row, FlatTable& flat) {
  for (size_t i = 0; i < table.implementations.size(); ++i) {
    const VersusCell& cell = row.cells[i];
    if (!cell.point) continue;
    std::vector<std::string> cells;
    for (const auto& part : row.parts) cells.push_back(part.second);
    cells.insert(
        cells.end(),
        {table.implementations[i], configuration_of(cell.point), exact_median(cell.point),
         table.against, configuration_of(row.reference), exact_median(row.reference),
         cell.ratio ? format_exact(*cell.ratio) : "",
         cell.ratio ? format_exact(cell.test.p_value) : "",
         cell.verdict ? to_string(*cell.verdict) : "", cell.conditions_differ ? "different" : ""});
    flat.rows.push_back(std::move(cells));
  }
}

}  // namespace

FlatTable versus_flat_table(const VersusTable& table, FlatFormat format) {
  FlatTable flat;
  if (table.rows.empty()) return flat;
  if (format == FlatFormat::md) {
    for (const auto& label : table.rows.front().labels)
      flat.columns.push_back(label_column(label.first));
    flat.columns.insert(flat.columns.end(),
                        {"implementation", "configuration", "median ms", "ratio", "difference"});
    for (const VersusRow& row : table.rows) add_md_rows(table, row, flat);
    return flat;
  }
  for (const auto& part : table.rows.front().parts)
    flat.columns.push_back(label_column(part.first));
  flat.columns.insert(
      flat.columns.end(),
      {"implementation", "configuration", "median_ms", "reference", "reference_configuration",
       "reference_median_ms", "ratio", "p_value", "verdict", "conditions"});
  for (const VersusRow& row : table.rows) add_flat_rows(table, row, flat);
  return flat;
}

void write_versus(const VersusTable& table, FlatFormat format, std::ostream& out) {
  if (format != FlatFormat::md) {
    write_flat_table(versus_flat_table(table, format), format, out);
    return;
  }
  std::string same;
  for (const auto& [field, value] : table.constant)
    same += (same.empty() ? "" : ", ") + label_column(field) + " " + value;
  if (!same.empty()) out << "Every row: " << same << ".\n\n";
  write_flat_table(versus_flat_table(table, format), format, out);
  out << "\nratio: " << versus_legend(table) << ".\n";
  bool conditions = false;
  for (const VersusRow& row : table.rows)
    for (const VersusCell& cell : row.cells) conditions = conditions || cell.conditions_differ;
  if (conditions)
    out << kConditionsMark << " the point and its " << table.against
        << " point come from runs under different conditions, so the ratio may be theirs, not "
           "the implementations'.\n";
  if (table.runs.mixed()) out << mixed_runs_note(table.runs) << "\n";
}

}  // namespace convlab
