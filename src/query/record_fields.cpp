#include "query/record_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "core/point_filter.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using nlohmann::json;
using Read = std::function<std::optional<FieldValue>(const Record&)>;

// One field a declaration can name: how it is read from a record and, for the fields a reader
// plots, its axis label and short title (nullptr: a plain record path, labelled by its path).
struct NamedField {
  std::string name;
  Read read;
  const char* axis_label = nullptr;
  const char* title = nullptr;
};

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

FieldValue flag_value(bool flag) {
  FieldValue value = text_value(flag ? "yes" : "no");
  value.boolean = true;
  return value;
}

std::optional<FieldValue> maybe_number(const std::optional<double>& number) {
  if (!number) return std::nullopt;
  return number_value(*number);
}

std::optional<FieldValue> maybe_text(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return text_value(*text);
}

// A value of a free-form part (params, kernel parameters, GPU clocks, fields of other versions).
std::optional<FieldValue> json_value(const json* node) {
  if (node == nullptr || node->is_null()) return std::nullopt;
  if (node->is_number()) return number_value(node->get<double>());
  if (node->is_boolean()) return flag_value(node->get<bool>());
  FieldValue value = text_value(json_text(*node));
  if (node->is_array() && !node->empty() && node->at(0).is_number()) {
    // Pairs such as block [x, y] order by area, then by x.
    double area = 1;
    for (const auto& item : *node) area *= item.is_number() ? item.get<double>() : 1;
    value.sort_key = area + node->at(0).get<double>() * 1e-6;
  }
  return value;
}

// The words of a name that has no descriptor (a user's kernel): its parts between underscores,
// each abbreviation spelled as readers know it ("my_avx2_rows": "My AVX2 rows").
std::string words_made_from_name(const std::string& name) {
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

// An implementation in words: its descriptor's for convlab's own, else made from its name.
std::string words_for_implementation(const std::string& name) {
  const Implementation* registered = find_implementation(name);
  if (registered && registered->appearance) return registered->appearance->words;
  return words_made_from_name(name);
}

std::string words_for_param(const std::string& axis, const json& value) {
  const std::string text = json_text(value);
  if (axis == "threads") return text + (text == "1" ? " thread" : " threads");
  if (axis == "schedule") return text + " schedule";
  if (axis == "block") return "block " + text;
  if (axis == "tile") return "tile " + text;
  return axis + " " + text;
}

// --- Readers ------------------------------------------------------------------------------------

FieldValue value_of(const std::string& text) {
  return text_value(text);
}
FieldValue value_of(int number) {
  return number_value(number);
}
FieldValue value_of(bool flag) {
  return flag_value(flag);
}

// A member every record has, and a member of one of its parts (image, kernel).
template <typename Value>
Read member(Value Record::*value) {
  return [value](const Record& r) { return std::optional(value_of(r.*value)); };
}
template <typename Part, typename Value>
Read member(Part Record::*part, Value Part::*value) {
  return [part, value](const Record& r) { return std::optional(value_of((r.*part).*value)); };
}

Read param_at(std::string path) {
  return [path](const Record& r) { return json_value(find_field(r.params, path)); };
}

using BlockOf = const SampleBlock* (*)(const Record&);

const SampleBlock* compute_block(const Record& r) {
  return r.timing ? &r.timing->compute : nullptr;
}
const SampleBlock* h2d_block(const Record& r) {
  return r.timing && r.timing->h2d ? &*r.timing->h2d : nullptr;
}
const SampleBlock* d2h_block(const Record& r) {
  return r.timing && r.timing->d2h ? &*r.timing->d2h : nullptr;
}
const SampleBlock* end_to_end_block(const Record& r) {
  return r.timing && r.timing->end_to_end ? &*r.timing->end_to_end : nullptr;
}

Read statistic(BlockOf block, double SampleStats::*member) {
  return [block, member](const Record& r) -> std::optional<FieldValue> {
    const SampleBlock* samples = block(r);
    if (samples == nullptr) return std::nullopt;
    return number_value(samples->stats.*member);
  };
}

Read derived(std::optional<double> DerivedMetrics::*member) {
  return [member](const Record& r) { return maybe_number(r.derived.*member); };
}

Read machine_text(std::string RecordMachine::*member) {
  return [member](const Record& r) -> std::optional<FieldValue> {
    if (!r.machine) return std::nullopt;
    return text_value((*r.machine).*member);
  };
}

Read machine_optional(std::optional<std::string> RecordMachine::*member) {
  return [member](const Record& r) -> std::optional<FieldValue> {
    if (!r.machine) return std::nullopt;
    return maybe_text((*r.machine).*member);
  };
}

Read verification_number(double (*read)(const Verification&)) {
  return [read](const Record& r) -> std::optional<FieldValue> {
    if (!r.verification) return std::nullopt;
    return number_value(read(*r.verification));
  };
}

Read saved_output_text(std::string SavedOutput::*member) {
  return [member](const Record& r) -> std::optional<FieldValue> {
    if (!r.saved_output) return std::nullopt;
    return text_value((*r.saved_output).*member);
  };
}

// Picoseconds per multiply-accumulate of a phase's median.
Read ps_per_mac(BlockOf block) {
  return [block](const Record& r) -> std::optional<FieldValue> {
    const SampleBlock* samples = block(r);
    if (samples == nullptr || !r.derived.macs || *r.derived.macs <= 0) return std::nullopt;
    return number_value(samples->stats.median * 1e9 / *r.derived.macs);
  };
}

std::optional<FieldValue> configuration(const Record& r) {
  return text_value(configuration_words(r));
}

std::optional<FieldValue> status(const Record& r) {
  return text_value(std::string(to_string(r.status)));
}

std::optional<FieldValue> image_pixels(const Record& r) {
  return number_value(double(r.image.width) * r.image.height);
}

std::optional<FieldValue> image_size(const Record& r) {
  FieldValue value = text_value(plain_number(r.image.width) + "x" + plain_number(r.image.height));
  // Ties: wider first is arbitrary but stable.
  value.sort_key = double(r.image.width) * r.image.height + r.image.width * 1e-9;
  return value;
}

std::optional<FieldValue> max_abs_error(const Record& r, bool finite_only) {
  if (!r.verification) return std::nullopt;
  const double error = r.verification->max_abs_error;
  if (std::isfinite(error)) return number_value(error);
  if (finite_only) return std::nullopt;
  return text_value("inf");  // as the file writes an error beyond every float
}

std::optional<FieldValue> values_not_exact(const Record& r) {
  if (!r.verification || !r.verification->exactness_counted) return std::nullopt;
  return number_value(double(r.verification->values_not_exact));
}

// --- The table -----------------------------------------------------------------------------------

// Times are medians unless the name says otherwise; the q1/q3 of the same samples give error bars.
void add_shorthands(std::vector<NamedField>& fields) {
  const auto stat = [](double SampleStats::*member) { return statistic(compute_block, member); };
  const NamedField timing[] = {
      {"median_ms", stat(&SampleStats::median), "Median time [ms]", "Median time [ms]"},
      {"mean_ms", stat(&SampleStats::mean), "Mean time [ms]", "Mean time [ms]"},
      {"min_ms", stat(&SampleStats::min), "Fastest time [ms]", "Fastest time [ms]"},
      {"max_ms", stat(&SampleStats::max), "Slowest time [ms]", "Slowest time [ms]"},
      {"q1_ms", stat(&SampleStats::q1), "First quartile of time [ms]", "Q1 time [ms]"},
      {"q3_ms", stat(&SampleStats::q3), "Third quartile of time [ms]", "Q3 time [ms]"},
      {"cv", stat(&SampleStats::cv), "Coefficient of variation", "CV"},
      {"h2d_ms", statistic(h2d_block, &SampleStats::median), "Host-to-device copy [ms]",
       "Host-to-device copy [ms]"},
      {"d2h_ms", statistic(d2h_block, &SampleStats::median), "Device-to-host copy [ms]",
       "Device-to-host copy [ms]"},
      {"end_to_end_ms", statistic(end_to_end_block, &SampleStats::median),
       "End-to-end time with copies [ms]", "End-to-end time [ms]"},
  };
  fields.insert(fields.end(), std::begin(timing), std::end(timing));
  const NamedField metrics[] = {
      {"pixels", derived(&DerivedMetrics::pixels), "Pixels", "Pixels"},
      {"macs", derived(&DerivedMetrics::macs), "Multiply-accumulates", "MACs"},
      {"bytes", derived(&DerivedMetrics::bytes), "Bytes moved", "Bytes"},
      {"mpix_per_s", derived(&DerivedMetrics::mpix_per_s), "Throughput [Mpixel/s]", "Mpixel/s"},
      {"gmac_per_s", derived(&DerivedMetrics::gmac_per_s), "Throughput [GMAC/s]", "GMAC/s"},
      {"gb_per_s", derived(&DerivedMetrics::gb_per_s), "Effective bandwidth [GB/s]", "GB/s"},
      {"ns_per_mac", derived(&DerivedMetrics::ns_per_mac), "Time per multiply-accumulate [ns]",
       "ns/MAC"},
      {"speedup", derived(&DerivedMetrics::speedup), "Speedup over the baseline [x]", "Speedup"},
      {"speedup_with_transfers", derived(&DerivedMetrics::speedup_with_transfers),
       "Speedup over the baseline, copies included [x]", "Speedup with copies"},
      {"efficiency", derived(&DerivedMetrics::efficiency), "Parallel efficiency T(1) / (P T(P))",
       "Efficiency"},
      {"speedup_vs_threads1", derived(&DerivedMetrics::speedup_vs_threads1),
       "Speedup over 1 thread [x]", "Speedup vs 1 thread"},
      {"floor_ms", derived(&DerivedMetrics::floor_ms), "Hardware floor [ms]", "Floor [ms]"},
      {"roofline_fraction", derived(&DerivedMetrics::roofline_fraction),
       "Fraction of the measured hardware floor", "Roofline fraction"},
      {"max_abs_error", [](const Record& r) { return max_abs_error(r, true); },
       "Largest absolute error", "Max abs error"},
      {"values_not_exact", values_not_exact, "u8 values not equal to the rounded reference",
       "Not exact"},
  };
  fields.insert(fields.end(), std::begin(metrics), std::end(metrics));
}

// A searched variant's search (records[].search) and a user kernel's source (records[].source).
void add_search_and_source(std::vector<NamedField>& fields) {
  const auto search = [](auto read) -> Read {
    return [read](const Record& r) -> std::optional<FieldValue> {
      if (!r.search) return std::nullopt;
      return read(*r.search);
    };
  };
  const auto search_seconds = [&search](std::optional<double> RecordSearch::*member) -> Read {
    return search([member](const RecordSearch& s) -> std::optional<FieldValue> {
      if (!(s.*member)) return std::nullopt;
      return number_value(*(s.*member));
    });
  };
  const auto source = [](std::string SourceFacts::*member) -> Read {
    return [member](const Record& r) -> std::optional<FieldValue> {
      if (!r.source) return std::nullopt;
      return text_value((*r.source).*member);
    };
  };
  const NamedField named[] = {
      {"search.strategy", search([](const RecordSearch& s) { return text_value(s.strategy); }),
       "Search strategy", "Strategy"},
      {"search.seed",
       search([](const RecordSearch& s) { return number_value(static_cast<double>(s.seed)); }),
       "Search seed", "Seed"},
      {"search.run", search([](const RecordSearch& s) {
         return text_value(s.strategy + " seed " + std::to_string(s.seed));
       }),
       "Search", "Search"},
      {"search.step", search([](const RecordSearch& s) { return number_value(s.step); }),
       "Variants measured", "Step"},
      {"search.best_so_far_ms", search([](const RecordSearch& s) -> std::optional<FieldValue> {
         if (!s.best_so_far_ms) return std::nullopt;
         return number_value(*s.best_so_far_ms);
       }),
       "Best so far [ms]", "Best so far [ms]"},
      {"search.elapsed_s", search_seconds(&RecordSearch::elapsed_s),
       "Search time (compiles waited for and measurements) [s]", "Search time [s]"},
      {"search.compile_s", search_seconds(&RecordSearch::compile_s), "Compile time [s]",
       "Compile [s]"},
      {"search.measure_s", search_seconds(&RecordSearch::measure_s), "Measuring time [s]",
       "Measuring [s]"},
      {"source.path", source(&SourceFacts::path), "Kernel source", "Source"},
      {"source.sha256", source(&SourceFacts::sha256), "Kernel source SHA-256", "Source SHA-256"},
      {"source.version",
       [](const Record& r) -> std::optional<FieldValue> {
         if (!r.source) return std::nullopt;
         return text_value(source_version(*r.source));
       },
       "Kernel source version", "Source version"},
      {"source.compiler", source(&SourceFacts::compiler), "Compiler", "Compiler"},
  };
  fields.insert(fields.end(), std::begin(named), std::end(named));
}

void add_descriptive(std::vector<NamedField>& fields) {
  const NamedField descriptive[] = {
      {"implementation", member(&Record::implementation), "Implementation", "Implementation"},
      {"machine", machine_text(&RecordMachine::label), "Machine", "Machine"},
      {"family", member(&Record::family), "Family", "Family"},
      {"configuration", configuration, "Configuration", "Configuration"},
      {"border", member(&Record::border), "Border", "Border"},
      {"output", member(&Record::output), "Output type", "Output"},
      {"status", status, "Status", "Status"},
      {"image.name", member(&Record::image, &RecordImage::name), "Image", "Image"},
      {"image.source", member(&Record::image, &RecordImage::source), "Image source", "Source"},
      {"image.width", member(&Record::image, &RecordImage::width), "Image width [px]",
       "Width [px]"},
      {"image.height", member(&Record::image, &RecordImage::height), "Image height [px]",
       "Height [px]"},
      {"image.channels", member(&Record::image, &RecordImage::channels), "Channels", "Channels"},
      {"image.pixels", image_pixels, "Image size [pixels]", "Pixels"},
      {"image.size", image_size, "Image size [px]", "Image size"},
      {"kernel.name", member(&Record::kernel, &RecordKernel::name), "Kernel", "Kernel"},
      {"kernel.type", member(&Record::kernel, &RecordKernel::type), "Kernel type", "Kernel type"},
      {"kernel.size", member(&Record::kernel, &RecordKernel::size), "Kernel size K (K x K)",
       "Kernel size"},
      {"kernel.separable", member(&Record::kernel, &RecordKernel::separable), "Separable kernel",
       "Separable"},
      {"params.threads", param_at("threads"), "Threads", "Threads"},
      {"params.block", param_at("block"), "Block shape", "Block"},
      {"params.block.x", param_at("block.x"), "Block width [threads]", "Block x"},
      {"params.block.y", param_at("block.y"), "Block height [threads]", "Block y"},
      {"params.tile", param_at("tile"), "Tile size [px]", "Tile"},
      {"params.schedule", param_at("schedule"), "OpenMP schedule", "Schedule"},
      // Computed from the record: picoseconds per multiply-accumulate, of the kernel time and of
      // the time with host-device copies (a GPU kernel takes well under a nanosecond per tap).
      {"ps_per_mac", ps_per_mac(compute_block), "Time per multiply-accumulate [ps]", "ps/MAC"},
      {"ps_per_mac_with_copies", ps_per_mac(end_to_end_block),
       "Time per multiply-accumulate, copies included [ps]", "ps/MAC with copies"},
  };
  fields.insert(fields.end(), std::begin(descriptive), std::end(descriptive));
  add_search_and_source(fields);
}

// Every timing statistic of every phase, by its path in the record.
void add_timing_paths(std::vector<NamedField>& fields) {
  const std::pair<const char*, BlockOf> phases[] = {{"timing.", compute_block},
                                                    {"timing.h2d.", h2d_block},
                                                    {"timing.d2h.", d2h_block},
                                                    {"timing.end_to_end.", end_to_end_block}};
  const std::pair<const char*, double SampleStats::*> statistics[] = {
      {"median", &SampleStats::median}, {"min", &SampleStats::min}, {"max", &SampleStats::max},
      {"q1", &SampleStats::q1},         {"q3", &SampleStats::q3},   {"mean", &SampleStats::mean},
      {"stddev", &SampleStats::stddev}, {"cv", &SampleStats::cv}};
  for (const auto& [phase, block] : phases)
    for (const auto& [name, member] : statistics)
      fields.push_back({std::string(phase) + "stats." + name, statistic(block, member)});
  const auto timing_number = [](double (*read)(const RecordTiming&)) -> Read {
    return [read](const Record& r) -> std::optional<FieldValue> {
      if (!r.timing) return std::nullopt;
      return number_value(read(*r.timing));
    };
  };
  fields.push_back(
      {"timing.warmup", timing_number([](const RecordTiming& t) { return double(t.warmup); })});
  fields.push_back({"timing.repetitions",
                    timing_number([](const RecordTiming& t) { return double(t.repetitions); })});
  fields.push_back({"timing.total_seconds",
                    timing_number([](const RecordTiming& t) { return t.total_seconds; })});
}

void add_verification_paths(std::vector<NamedField>& fields) {
  const NamedField verification[] = {
      {"verification.verdict",
       [](const Record& r) -> std::optional<FieldValue> {
         if (!r.verification) return std::nullopt;
         return text_value(r.verification->ok ? "ok" : "failed");
       }},
      {"verification.reference",
       [](const Record& r) -> std::optional<FieldValue> {
         if (!r.verification) return std::nullopt;
         return text_value(kVerificationReference);
       }},
      {"verification.values_compared",
       verification_number([](const Verification& v) { return double(v.values_compared); })},
      {"verification.max_abs_error", [](const Record& r) { return max_abs_error(r, false); }},
      {"verification.tolerance",
       verification_number([](const Verification& v) { return v.tolerance; })},
      {"verification.values_beyond_tolerance", verification_number([](const Verification& v) {
         return double(v.values_beyond_tolerance);
       })},
      {"verification.worst_index",
       verification_number([](const Verification& v) { return double(v.worst_index); })},
      {"verification.values_not_exact", values_not_exact},
  };
  fields.insert(fields.end(), std::begin(verification), std::end(verification));
}

// The record's other members by their paths: identity, derived metrics, image, kernel, machine.
void add_record_paths(std::vector<NamedField>& fields) {
  const NamedField record[] = {
      {"key", member(&Record::key)},
      {"point_id",
       [](const Record& r) -> std::optional<FieldValue> {
         if (r.point_id.empty()) return std::nullopt;  // files of earlier versions have none
         return text_value(r.point_id);
       }},
      {"run_id", member(&Record::run_id)},
      {"reason", member(&Record::reason)},
      {"factored", member(&Record::factored)},
      {"arithmetic", [](const Record& r) { return maybe_text(r.arithmetic); }},
      {"params", [](const Record& r) { return json_value(&r.params); }},
      {"image.sha256", member(&Record::image, &RecordImage::sha256)},
      {"kernel.parameters", [](const Record& r) { return json_value(&r.kernel.parameters); }},
      {"derived.baseline_key", [](const Record& r) { return maybe_text(r.derived.baseline_key); }},
      {"machine.label", machine_text(&RecordMachine::label)},
      {"machine.cpu_model", machine_text(&RecordMachine::cpu_model)},
      {"machine.hostname", machine_text(&RecordMachine::hostname)},
      {"machine.host_id", machine_optional(&RecordMachine::host_id)},
      {"machine.gpu", machine_optional(&RecordMachine::gpu)},
      {"machine.gpu_driver", machine_optional(&RecordMachine::gpu_driver)},
      {"saved_output.file", saved_output_text(&SavedOutput::file)},
      {"saved_output.format", saved_output_text(&SavedOutput::format)},
      {"saved_output.sha256", saved_output_text(&SavedOutput::sha256)},
  };
  fields.insert(fields.end(), std::begin(record), std::end(record));
  for (const auto& metric : derived_fields())
    fields.push_back({std::string("derived.") + metric.name, derived(metric.member)});
}

const std::vector<NamedField>& named_fields() {
  static const std::vector<NamedField> fields = [] {
    std::vector<NamedField> all;
    add_shorthands(all);
    add_descriptive(all);
    add_timing_paths(all);
    add_verification_paths(all);
    add_record_paths(all);
    return all;
  }();
  return fields;
}

const NamedField* find_named(std::string_view field) {
  static const std::map<std::string, const NamedField*, std::less<>> by_name = [] {
    std::map<std::string, const NamedField*, std::less<>> index;
    for (const auto& named : named_fields()) index.emplace(named.name, &named);
    return index;
  }();
  const auto found = by_name.find(field);
  return found == by_name.end() ? nullptr : found->second;
}

// Free-form parts of a record: their fields are whatever the config or the device wrote, looked
// up by path in their JSON.
struct FreeFormPart {
  std::string_view prefix;
  const json& (*part)(const Record&);
};

const FreeFormPart kFreeFormParts[] = {
    {"params.", [](const Record& r) -> const json& { return r.params; }},
    {"kernel.parameters.", [](const Record& r) -> const json& { return r.kernel.parameters; }},
    {"gpu_clocks.", [](const Record& r) -> const json& { return r.gpu_clocks; }}};

const FreeFormPart* free_form_part(std::string_view field) {
  for (const auto& part : kFreeFormParts)
    if (starts_with(field, part.prefix) && field.size() > part.prefix.size()) return &part;
  return nullptr;
}

// The typed groups of a record; a name inside one that the table lacks is a typo.
const char* const kTypedGroups[] = {"timing.",       "derived.",      "image.",
                                    "kernel.",       "verification.", "machine.",
                                    "saved_output.", "search.",       "source."};

}  // namespace

const std::vector<std::string>& shorthand_fields() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> labelled;
    for (const auto& named : named_fields())
      if (named.axis_label != nullptr) labelled.push_back(named.name);
    return labelled;
  }();
  return names;
}

// A derived column (derive.NAME): which names a config declares is the caller's to check.
bool is_derived_column(std::string_view field) {
  return starts_with(field, kDerivedColumnPrefix) && field.size() > kDerivedColumnPrefix.size();
}

bool field_sorts_before(const FieldValue& a, const FieldValue& b) {
  const auto key = [](const FieldValue& v) -> std::optional<double> {
    if (v.sort_key) return v.sort_key;
    if (v.numeric) return v.number;
    return std::nullopt;
  };
  const auto ka = key(a), kb = key(b);
  if (ka && kb) return *ka < *kb;
  return ka.has_value() && !kb.has_value();
}

bool is_known_field(std::string_view field, std::string* suggestion) {
  if (find_named(field) != nullptr || free_form_part(field) != nullptr) return true;
  if (is_derived_column(field)) return true;
  std::vector<std::string> candidates = shorthand_fields();
  for (const char* group : kTypedGroups)
    if (starts_with(field, group)) {
      candidates.clear();
      for (const auto& named : named_fields())
        if (starts_with(named.name, group)) candidates.push_back(named.name);
    }
  if (suggestion) *suggestion = closest_name(field, candidates);
  return false;
}

std::optional<FieldValue> field_value(const Record& record, std::string_view field) {
  if (const NamedField* named = find_named(field)) return named->read(record);
  if (is_derived_column(field)) {
    const auto found =
        record.computed_value(std::string(field.substr(kDerivedColumnPrefix.size())));
    if (!found) return std::nullopt;
    return number_value(*found);
  }
  if (const FreeFormPart* free = free_form_part(field))
    return json_value(find_field(free->part(record), field.substr(free->prefix.size())));
  return json_value(find_field(record.unknown, field));
}

bool field_varies(const std::vector<const Record*>& records, std::string_view field) {
  std::set<std::string> values;
  for (const Record* record : records)
    if (const auto value = field_value(*record, field)) values.insert(value->text);
  return values.size() > 1;
}

namespace {

// The phase a timing shorthand reads, nullptr for other fields.
BlockOf timed_block(std::string_view field) {
  if (field == "median_ms") return compute_block;
  if (field == "h2d_ms") return h2d_block;
  if (field == "d2h_ms") return d2h_block;
  if (field == "end_to_end_ms") return end_to_end_block;
  return nullptr;
}

}  // namespace

bool field_has_quartiles(std::string_view field) {
  return timed_block(field) != nullptr;
}

std::optional<std::pair<double, double>> field_quartiles(const Record& record,
                                                         std::string_view field) {
  const BlockOf block = timed_block(field);
  const SampleBlock* samples = block ? block(record) : nullptr;
  if (samples == nullptr) return std::nullopt;
  return std::make_pair(samples->stats.q1, samples->stats.q3);
}

std::vector<double> field_samples(const Record& record, std::string_view field) {
  const BlockOf block = timed_block(field);
  const SampleBlock* samples = block ? block(record) : nullptr;
  return samples ? samples->samples_ms : std::vector<double>{};
}

bool record_matches(const PointFilter& filter, const Record& record) {
  return matches(filter, [&record](std::string_view field) -> std::optional<FilterValue> {
    const auto value = field_value(record, field);
    if (!value) return std::nullopt;
    // Filters write booleans as JSON does.
    if (value->boolean) return FilterValue{false, 0.0, value->text == "yes" ? "true" : "false"};
    return FilterValue{value->numeric, value->number, value->text};
  });
}

std::string configuration_words(const Record& record) {
  std::string words = words_for_implementation(record.implementation);
  const json& params = record.params;
  if (!params.is_object()) return words;
  // The axes a reader compares first lead; the rest follow alphabetically.
  static const std::vector<std::string> leading = {"threads", "block", "tile"};
  for (const auto& axis : leading)
    if (params.contains(axis)) words += ", " + words_for_param(axis, params[axis]);
  for (auto it = params.begin(); it != params.end(); ++it)
    if (std::find(leading.begin(), leading.end(), it.key()) == leading.end())
      words += ", " + words_for_param(it.key(), it.value());
  return words;
}

std::string field_axis_label(std::string_view field) {
  const NamedField* named = find_named(field);
  if (!named && is_derived_column(field))
    return std::string(field.substr(kDerivedColumnPrefix.size()));
  return named && named->axis_label ? named->axis_label : std::string(field);
}

std::string field_title(std::string_view field) {
  if (const NamedField* named = find_named(field); named && named->title) return named->title;
  if (is_derived_column(field)) return std::string(field.substr(kDerivedColumnPrefix.size()));
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
