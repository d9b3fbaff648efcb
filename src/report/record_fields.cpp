#include "report/record_fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/point_filter.hpp"

namespace convlab {
namespace {

using nlohmann::json;

struct Shorthand {
  const char* name;
  const char* path;  // record path holding the value
  const char* axis_label;
  const char* title;
};

// Times are medians unless the name says otherwise; the q1/q3 of the same samples give error bars.
const Shorthand kShorthands[] = {
    {"median_ms", "timing.stats.median", "Median time [ms]", "Median time [ms]"},
    {"mean_ms", "timing.stats.mean", "Mean time [ms]", "Mean time [ms]"},
    {"min_ms", "timing.stats.min", "Fastest time [ms]", "Fastest time [ms]"},
    {"max_ms", "timing.stats.max", "Slowest time [ms]", "Slowest time [ms]"},
    {"q1_ms", "timing.stats.q1", "First quartile of time [ms]", "Q1 time [ms]"},
    {"q3_ms", "timing.stats.q3", "Third quartile of time [ms]", "Q3 time [ms]"},
    {"cv", "timing.stats.cv", "Coefficient of variation", "CV"},
    {"h2d_ms", "timing.h2d.stats.median", "Host-to-device copy [ms]", "Host-to-device copy [ms]"},
    {"d2h_ms", "timing.d2h.stats.median", "Device-to-host copy [ms]", "Device-to-host copy [ms]"},
    {"end_to_end_ms", "timing.end_to_end.stats.median", "End-to-end time with copies [ms]",
     "End-to-end time [ms]"},
    {"pixels", "derived.pixels", "Pixels", "Pixels"},
    {"macs", "derived.macs", "Multiply-accumulates", "MACs"},
    {"bytes", "derived.bytes", "Bytes moved", "Bytes"},
    {"mpix_per_s", "derived.mpix_per_s", "Throughput [Mpixel/s]", "Mpixel/s"},
    {"gmac_per_s", "derived.gmac_per_s", "Throughput [GMAC/s]", "GMAC/s"},
    {"gb_per_s", "derived.gb_per_s", "Effective bandwidth [GB/s]", "GB/s"},
    {"ns_per_mac", "derived.ns_per_mac", "Time per multiply-accumulate [ns]", "ns/MAC"},
    {"speedup", "derived.speedup", "Speedup over the baseline [x]", "Speedup"},
    {"speedup_with_transfers", "derived.speedup_with_transfers",
     "Speedup over the baseline, copies included [x]", "Speedup with copies"},
    {"efficiency", "derived.efficiency", "Parallel efficiency T(1) / (P T(P))", "Efficiency"},
    {"speedup_vs_threads1", "derived.speedup_vs_threads1", "Speedup over 1 thread [x]",
     "Speedup vs 1 thread"},
    {"floor_ms", "derived.floor_ms", "Hardware floor [ms]", "Floor [ms]"},
    {"roofline_fraction", "derived.roofline_fraction", "Fraction of the measured hardware floor",
     "Roofline fraction"},
    {"max_abs_error", "verification.max_abs_error", "Largest absolute error", "Max abs error"},
    {"values_not_exact", "verification.values_not_exact",
     "u8 values not equal to the rounded reference", "Not exact"},
};

struct Descriptive {
  const char* name;
  const char* axis_label;
  const char* title;
};

const Descriptive kDescriptive[] = {
    {"implementation", "Implementation", "Implementation"},
    {"machine", "Machine", "Machine"},
    {"family", "Family", "Family"},
    {"configuration", "Configuration", "Configuration"},
    {"border", "Border", "Border"},
    {"output", "Output type", "Output"},
    {"status", "Status", "Status"},
    {"image.name", "Image", "Image"},
    {"image.source", "Image source", "Source"},
    {"image.width", "Image width [px]", "Width [px]"},
    {"image.height", "Image height [px]", "Height [px]"},
    {"image.channels", "Channels", "Channels"},
    {"image.pixels", "Image size [pixels]", "Pixels"},
    {"image.size", "Image size [px]", "Image size"},
    {"kernel.name", "Kernel", "Kernel"},
    {"kernel.type", "Kernel type", "Kernel type"},
    {"kernel.size", "Kernel size K (K x K)", "Kernel size"},
    {"kernel.separable", "Separable kernel", "Separable"},
    {"params.threads", "Threads", "Threads"},
    {"params.block", "Block shape", "Block"},
    {"params.block.x", "Block width [threads]", "Block x"},
    {"params.block.y", "Block height [threads]", "Block y"},
    {"params.tile", "Tile size [px]", "Tile"},
    {"params.schedule", "OpenMP schedule", "Schedule"},
    // Computed from the record: picoseconds per multiply-accumulate, of the kernel time and of the
    // time with host-device copies (a GPU kernel takes well under a nanosecond per tap).
    {"ps_per_mac", "Time per multiply-accumulate [ps]", "ps/MAC"},
    {"ps_per_mac_with_copies", "Time per multiply-accumulate, copies included [ps]",
     "ps/MAC with copies"},
};

const Shorthand* find_shorthand(std::string_view field) {
  for (const auto& s : kShorthands)
    if (field == s.name) return &s;
  return nullptr;
}

const Descriptive* find_descriptive(std::string_view field) {
  for (const auto& d : kDescriptive)
    if (field == d.name) return &d;
  return nullptr;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Integers as integers, other numbers with up to 6 significant digits: how a config writes them.
std::string plain_number(double number) {
  char buffer[64];
  if (number == std::round(number) && std::fabs(number) < 1e15)
    std::snprintf(buffer, sizeof buffer, "%.0f", number);
  else
    std::snprintf(buffer, sizeof buffer, "%.6g", number);
  return buffer;
}

std::string json_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return plain_number(value.get<double>());
  if (value.is_array()) {
    std::string text;
    for (const auto& item : value) text += (text.empty() ? "" : "x") + json_text(item);
    return text;
  }
  return value.dump();
}

std::string words_for_implementation(const std::string& name) {
  static const std::map<std::string, std::string> token_words = {{"cuda", "CUDA"},
                                                                 {"openmp", "OpenMP"},
                                                                 {"omp", "OpenMP"},
                                                                 {"npp", "NPP"},
                                                                 {"cpu", "CPU"},
                                                                 {"gpu", "GPU"},
                                                                 {"simd", "SIMD"},
                                                                 {"avx2", "AVX2"},
                                                                 {"avx512", "AVX-512"},
                                                                 {"opencv", "OpenCV"},
                                                                 {"global", "global memory"},
                                                                 {"shared", "shared memory"},
                                                                 {"constant", "constant memory"},
                                                                 {"texture", "texture memory"},
                                                                 {"seq", "sequential"}};
  std::string words;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t underscore = name.find('_', start);
    const size_t end = underscore == std::string::npos ? name.size() : underscore;
    const std::string token = name.substr(start, end - start);
    const auto known = token_words.find(token);
    if (!words.empty()) words += ' ';
    words += known != token_words.end() ? known->second : token;
    if (underscore == std::string::npos) break;
    start = underscore + 1;
  }
  if (!words.empty() && words[0] >= 'a' && words[0] <= 'z') words[0] = words[0] - 'a' + 'A';
  return words;
}

std::string words_for_param(const std::string& axis, const json& value) {
  const std::string text = json_text(value);
  if (axis == "threads") return text + (text == "1" ? " thread" : " threads");
  if (axis == "schedule") return text + " schedule";
  if (axis == "block") return "block " + text;
  if (axis == "tile") return "tile " + text;
  return axis + " " + text;
}

std::string configuration_words(const json& record) {
  std::string words = words_for_implementation(record.value("implementation", std::string("?")));
  const auto params = record.find("params");
  if (params == record.end() || !params->is_object()) return words;
  // The axes a reader compares first lead; the rest follow alphabetically.
  static const std::vector<std::string> leading = {"threads", "block", "tile"};
  for (const auto& axis : leading)
    if (params->contains(axis)) words += ", " + words_for_param(axis, (*params)[axis]);
  for (auto it = params->begin(); it != params->end(); ++it)
    if (std::find(leading.begin(), leading.end(), it.key()) == leading.end())
      words += ", " + words_for_param(it.key(), it.value());
  return words;
}

std::optional<double> number_at(const json& record, std::string_view path) {
  const json* node = find_field(record, path);
  if (node == nullptr || !node->is_number()) return std::nullopt;
  return node->get<double>();
}

FieldValue number_value(double number) {
  FieldValue value;
  value.numeric = true;
  value.number = number;
  value.text = plain_number(number);
  value.sort_key = number;
  return value;
}

FieldValue text_value(std::string text) {
  FieldValue value;
  value.text = std::move(text);
  return value;
}

const std::vector<std::string> kImageFields = {"name",     "source", "width",  "height",
                                               "channels", "sha256", "pixels", "size"};
const std::vector<std::string> kKernelFields = {"name", "type", "size", "separable", "parameters"};
const std::vector<std::string> kVerificationFields = {"verdict",         "reference",
                                                      "values_compared", "max_abs_error",
                                                      "tolerance",       "values_beyond_tolerance",
                                                      "worst_index"};

}  // namespace

const std::vector<std::string>& shorthand_fields() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& s : kShorthands) all.emplace_back(s.name);
    for (const auto& d : kDescriptive) all.emplace_back(d.name);
    return all;
  }();
  return names;
}

bool is_known_field(std::string_view field, std::string* suggestion) {
  if (find_shorthand(field) || find_descriptive(field)) return true;
  const auto second_part_in = [&](std::string_view prefix, const std::vector<std::string>& names) {
    const std::string rest(field.substr(prefix.size()));
    const std::string head = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), head) != names.end()) return true;
    if (suggestion) {
      std::vector<std::string> full;
      for (const auto& n : names) full.push_back(std::string(prefix) + n);
      *suggestion = closest_name(field, full);
    }
    return false;
  };
  if (starts_with(field, "params.")) return field.size() > 7;
  if (starts_with(field, "timing.")) return field.size() > 7;
  if (starts_with(field, "derived.")) {
    std::vector<std::string> derived;
    for (const auto& s : kShorthands)
      if (starts_with(s.path, "derived.")) derived.emplace_back(s.path + 8);
    derived.emplace_back("baseline_key");
    return second_part_in("derived.", derived);
  }
  if (starts_with(field, "image.")) return second_part_in("image.", kImageFields);
  if (starts_with(field, "kernel.")) return second_part_in("kernel.", kKernelFields);
  if (starts_with(field, "verification."))
    return second_part_in("verification.", kVerificationFields);
  if (field == "key" || field == "run_id" || field == "reason") return true;
  if (suggestion) *suggestion = closest_name(field, shorthand_fields());
  return false;
}

std::optional<FieldValue> field_value(const json& record, std::string_view field) {
  if (const Shorthand* shorthand = find_shorthand(field)) {
    const auto number = number_at(record, shorthand->path);
    if (!number) return std::nullopt;
    return number_value(*number);
  }
  if (field == "configuration") return text_value(configuration_words(record));
  if (field == "machine") {
    // The label results_document.cpp gives every record it loads (host, and GPU where needed).
    const json* label = find_field(record, "machine.label");
    if (label == nullptr || !label->is_string()) return std::nullopt;
    return text_value(label->get<std::string>());
  }
  if (field == "image.pixels") {
    const auto width = number_at(record, "image.width");
    const auto height = number_at(record, "image.height");
    if (!width || !height) return std::nullopt;
    return number_value(*width * *height);
  }
  if (field == "ps_per_mac" || field == "ps_per_mac_with_copies") {
    const auto ms = number_at(
        record, field == "ps_per_mac" ? "timing.stats.median" : "timing.end_to_end.stats.median");
    const auto macs = number_at(record, "derived.macs");
    if (!ms || !macs || *macs <= 0) return std::nullopt;
    return number_value(*ms * 1e9 / *macs);
  }
  if (field == "image.size") {
    const auto width = number_at(record, "image.width");
    const auto height = number_at(record, "image.height");
    if (!width || !height) return std::nullopt;
    FieldValue value = text_value(json_text(record["image"]["width"]) + "x" +
                                  json_text(record["image"]["height"]));
    value.sort_key = *width * *height + *width * 1e-9;  // ties: wider first is arbitrary but stable
    return value;
  }
  const json* node = find_field(record, field);
  if (node == nullptr || node->is_null()) return std::nullopt;
  if (node->is_number()) return number_value(node->get<double>());
  if (node->is_boolean()) return text_value(node->get<bool>() ? "yes" : "no");
  FieldValue value = text_value(json_text(*node));
  if (node->is_array() && !node->empty() && node->at(0).is_number()) {
    // Pairs such as block [x, y] order by area, then by x.
    double area = 1;
    for (const auto& item : *node) area *= item.is_number() ? item.get<double>() : 1;
    value.sort_key = area + node->at(0).get<double>() * 1e-6;
  }
  return value;
}

bool field_has_quartiles(std::string_view field) {
  return field == "median_ms" || field == "h2d_ms" || field == "d2h_ms" || field == "end_to_end_ms";
}

std::optional<std::pair<double, double>> field_quartiles(const json& record,
                                                         std::string_view field) {
  if (!field_has_quartiles(field)) return std::nullopt;
  const Shorthand* shorthand = find_shorthand(field);
  std::string stats(shorthand->path);
  stats.resize(stats.size() - std::string_view("median").size());
  const auto q1 = number_at(record, stats + "q1");
  const auto q3 = number_at(record, stats + "q3");
  if (!q1 || !q3) return std::nullopt;
  return std::make_pair(*q1, *q3);
}

std::string field_axis_label(std::string_view field) {
  if (const Shorthand* s = find_shorthand(field)) return s->axis_label;
  if (const Descriptive* d = find_descriptive(field)) return d->axis_label;
  return std::string(field);
}

std::string field_title(std::string_view field) {
  if (const Shorthand* s = find_shorthand(field)) return s->title;
  if (const Descriptive* d = find_descriptive(field)) return d->title;
  if (starts_with(field, "params.")) {
    std::string axis(field.substr(7));
    axis[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(axis[0])));
    return axis;
  }
  return std::string(field);
}

std::string field_value_words(std::string_view field, const FieldValue& value) {
  if (field == "implementation") return words_for_implementation(value.text);
  if (field == "kernel.size") return value.text + "x" + value.text + " kernel";
  if (field == "border") return value.text + " border";
  if (field == "output") return value.text + " output";
  if (field == "image.channels") return value.text + (value.text == "1" ? " channel" : " channels");
  if (field == "image.size") return value.text;
  if (starts_with(field, "params.")) {
    const std::string axis(field.substr(7));
    if (axis.find('.') == std::string::npos) return words_for_param(axis, value.text);
  }
  if (field == "configuration" || field == "kernel.name" || field == "image.name")
    return value.text;
  if (value.numeric) return field_title(field) + " " + value.text;
  return value.text;
}

}  // namespace convlab
