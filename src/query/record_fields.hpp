// Reading values out of records by field name, for figures, tables, live values in prose
// ({{field[filter]}}), point filters and compare. A field is a record path ("image.width",
// "params.threads", "timing.stats.median") or a shorthand (median_ms, speedup, image.size,
// configuration, ...); docs/report.md lists them. One table in record_fields.cpp names every field
// and how it is read from a typed Record; only the free-form parts (params.X, kernel.parameters.X,
// gpu_clocks.X and fields of other versions) are looked up by path in their JSON.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/closest_name.hpp"
#include "core/number_text.hpp"
#include "core/point_filter.hpp"
#include "store/record.hpp"

namespace convlab {

struct FieldValue {
  bool numeric = false;
  double number = 0.0;  // when numeric
  std::string text;     // display form, also for numbers
  // Orders categories the way a reader expects (image.size by pixel count); empty: keep order of
  // first appearance.
  std::optional<double> sort_key;
  bool boolean = false;  // a yes/no value (text "yes" or "no")
};

// A config's derived column is the field derive.NAME (Record::computed).
inline constexpr std::string_view kDerivedColumnPrefix = "derive.";
bool is_derived_column(std::string_view field);

// The order of values in tables: by sort key or number where both have one, values with one
// before values without, others as they came (a stable sort keeps their order of appearance).
bool field_sorts_before(const FieldValue& a, const FieldValue& b);
// `keys` in that order, those of equal place as they came; `entries.at(key).value` is the
// FieldValue of each (a map of a table's rows).
template <typename Entries>
std::vector<std::string> sorted_by_field_value(std::vector<std::string> keys,
                                               const Entries& entries) {
  std::stable_sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
    return field_sorts_before(entries.at(a).value, entries.at(b).value);
  });
  return keys;
}

// Whether `field` names something records can carry. On false, *suggestion holds the closest known
// name, or is empty when none is close.
bool is_known_field(std::string_view field, std::string* suggestion);

// The field's value in `record`, or nullopt when the record lacks it (a CPU record has no h2d_ms).
std::optional<FieldValue> field_value(const Record& record, std::string_view field);
// Whether `records` hold more than one value of `field` (records without it not counted).
bool field_varies(const std::vector<const Record*>& records, std::string_view field);

// The interquartile range of a timing shorthand (median_ms -> q1..q3 of timing.stats); nullopt for
// fields without samples.
std::optional<std::pair<double, double>> field_quartiles(const Record& record,
                                                         std::string_view field);
bool field_has_quartiles(std::string_view field);
// The raw samples behind a timing shorthand (median_ms -> timing.samples_ms, h2d_ms -> the
// host-to-device copies); empty for other fields.
std::vector<double> field_samples(const Record& record, std::string_view field);

// Whether `record` satisfies a point filter (point_filter.hpp), its fields read as above.
bool record_matches(const PointFilter& filter, const Record& record);

// Axis label with unit, e.g. "Median time [ms]", "Image size [pixels]".
std::string field_axis_label(std::string_view field);
// Short noun for legends and table headers, e.g. "Threads", "Kernel".
std::string field_title(std::string_view field);
// A value in words a reader understands: "4 threads", "CUDA shared memory", "7x7 kernel".
std::string field_value_words(std::string_view field, const FieldValue& value);
// Words for a configuration: the implementation in words and its parameters ("OpenMP, 4
// threads, static schedule").
std::string configuration_words(const Record& record);

// The fields every results record documents (docs/results-schema.md), for suggestions.
const std::vector<std::string>& shorthand_fields();

}  // namespace convlab
