#include "tables/flat_table.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "query/record_fields.hpp"
#include "store/source_versions.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// A column and the record field (record_fields.hpp) it shows.
struct Column {
  std::string name;
  std::string path;
};

const std::vector<Column>& leading_columns() {
  static const std::vector<Column> columns = {{"implementation", "implementation"},
                                              {"family", "family"}};
  return columns;
}

const std::vector<Column>& image_kernel_columns() {
  static const std::vector<Column> columns = {
      {"image.name", "image.name"},     {"image.width", "image.width"},
      {"image.height", "image.height"}, {"image.channels", "image.channels"},
      {"kernel.name", "kernel.name"},   {"kernel.type", "kernel.type"},
      {"kernel.size", "kernel.size"},   {"kernel.separable", "kernel.separable"}};
  return columns;
}

const std::vector<Column>& outcome_columns() {
  static const std::vector<Column> columns = {{"border", "border"},
                                              {"output", "output"},
                                              {"status", "status"},
                                              {"reason", "reason"},
                                              {"repetitions", "timing.repetitions"}};
  return columns;
}

const std::vector<Column>& timing_columns() {
  static const std::vector<Column> columns = {
      {"min_ms", "timing.stats.min"},       {"q1_ms", "timing.stats.q1"},
      {"median_ms", "timing.stats.median"}, {"mean_ms", "timing.stats.mean"},
      {"q3_ms", "timing.stats.q3"},         {"max_ms", "timing.stats.max"},
      {"stddev_ms", "timing.stats.stddev"}, {"cv", "timing.stats.cv"}};
  return columns;
}

const std::vector<Column>& device_columns() {
  static const std::vector<Column> columns = {
      {"h2d_median_ms", "timing.h2d.stats.median"},
      {"d2h_median_ms", "timing.d2h.stats.median"},
      {"end_to_end_median_ms", "timing.end_to_end.stats.median"}};
  return columns;
}

const std::vector<Column>& verification_columns() {
  static const std::vector<Column> columns = {
      {"max_abs_error", "verification.max_abs_error"},
      {"tolerance", "verification.tolerance"},
      {"values_beyond_tolerance", "verification.values_beyond_tolerance"},
      {"verdict", "verification.verdict"}};
  return columns;
}

// Keys of a free-form part (params, kernel parameters) over all records, in order of first
// appearance, as columns prefix.key.
void add_keys(const std::vector<Record>& records, const json& (*part)(const Record&),
              const std::string& path, const std::string& prefix, std::vector<Column>& columns) {
  for (const auto& record : records) {
    const json& object = part(record);
    if (!object.is_object()) continue;
    for (const auto& [key, value] : object.items()) {
      const bool nested_list =
          value.is_array() && std::any_of(value.begin(), value.end(),
                                          [](const json& item) { return item.is_structured(); });
      if (value.is_object() || nested_list) continue;  // a custom kernel's matrix
      const std::string name = prefix + key;
      if (std::none_of(columns.begin(), columns.end(),
                       [&](const Column& c) { return c.name == name; }))
        columns.push_back({name, path + "." + key});
    }
  }
}

// The derived metrics any record has, each record's in alphabetical order, in order of first
// appearance.
void add_derived(const std::vector<Record>& records, std::vector<Column>& columns) {
  for (const auto& record : records) {
    std::vector<std::string> names;
    for (const auto& metric : derived_fields())
      if (record.derived.*metric.member) names.emplace_back(metric.name);
    std::sort(names.begin(), names.end());
    for (const auto& name : names)
      if (std::none_of(columns.begin(), columns.end(),
                       [&](const Column& c) { return c.name == name; }))
        columns.push_back({name, "derived." + name});
  }
}

// The config's derived columns (derive:) any record has, as derive.NAME, in the config's order.
void add_computed(const std::vector<Record>& records, std::vector<Column>& columns) {
  for (const auto& record : records)
    for (const auto& [name, value] : record.computed) {
      const std::string field = std::string(kDerivedColumnPrefix) + name;
      if (std::none_of(columns.begin(), columns.end(),
                       [&](const Column& c) { return c.name == field; }))
        columns.push_back({field, field});
    }
}

std::string cell(const std::optional<FieldValue>& value, FlatFormat format) {
  if (!value) return "";
  if (value->boolean) return value->text == "yes" ? "true" : "false";
  if (!value->numeric) return value->text;
  const double number = value->number;
  if (std::floor(number) == number && std::fabs(number) < 1e15)  // counts
    return format_fixed(number, 0);
  return format == FlatFormat::md ? format_number(number, 4) : format_exact(number);
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string tsv_cell(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return text;
}

std::string md_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c == '\n' || c == '\r' ? ' ' : c;
  }
  return escaped;
}

void write_row(const std::vector<std::string>& cells, FlatFormat format, std::ostream& out) {
  for (size_t i = 0; i < cells.size(); ++i) {
    switch (format) {
      case FlatFormat::csv:
        out << (i ? "," : "") << csv_cell(cells[i]);
        break;
      case FlatFormat::tsv:
        out << (i ? "\t" : "") << tsv_cell(cells[i]);
        break;
      case FlatFormat::md:
        out << (i ? " | " : "| ") << md_cell(cells[i]);
        break;
    }
  }
  out << (format == FlatFormat::md ? " |\n" : "\n");
}

}  // namespace

std::optional<FlatFormat> parse_flat_format(const std::string& text) {
  if (text == "csv") return FlatFormat::csv;
  if (text == "md" || text == "markdown") return FlatFormat::md;
  if (text == "tsv") return FlatFormat::tsv;
  return std::nullopt;
}

FlatTable flatten_records(const std::vector<Record>& records, FlatFormat format) {
  std::vector<Column> columns = leading_columns();
  add_keys(
      records, [](const Record& r) -> const json& { return r.params; }, "params", "params.",
      columns);
  std::vector<const Record*> rows;
  for (const Record& record : records) rows.push_back(&record);
  if (versions_meet(rows)) columns.push_back({"source.version", "source.version"});
  columns.insert(columns.end(), image_kernel_columns().begin(), image_kernel_columns().end());
  add_keys(
      records, [](const Record& r) -> const json& { return r.kernel.parameters; },
      "kernel.parameters", "kernel.", columns);
  columns.insert(columns.end(), outcome_columns().begin(), outcome_columns().end());
  columns.insert(columns.end(), timing_columns().begin(), timing_columns().end());
  const bool any_device = std::any_of(records.begin(), records.end(), [](const Record& r) {
    return r.timing && r.timing->end_to_end;
  });
  if (any_device) columns.insert(columns.end(), device_columns().begin(), device_columns().end());
  // The baseline's record key names a row, it is not a measurement: not a column.
  add_derived(records, columns);
  add_computed(records, columns);
  columns.insert(columns.end(), verification_columns().begin(), verification_columns().end());

  FlatTable table;
  for (const auto& column : columns) table.columns.push_back(column.name);
  for (const auto& record : records) {
    std::vector<std::string> row;
    for (const auto& column : columns)
      row.push_back(cell(field_value(record, column.path), format));
    table.rows.push_back(std::move(row));
  }
  return table;
}

void write_flat_table(const FlatTable& table, FlatFormat format, std::ostream& out) {
  write_row(table.columns, format, out);
  if (format == FlatFormat::md) {
    out << "|";
    for (size_t i = 0; i < table.columns.size(); ++i) out << "---|";
    out << "\n";
  }
  for (const auto& row : table.rows) write_row(row, format, out);
}

}  // namespace convlab
