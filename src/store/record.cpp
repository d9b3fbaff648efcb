#include "store/record.hpp"
#include "store/results_schema.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace convlab {
namespace {

using json = nlohmann::json;

json optional_text(const std::optional<std::string>& text) {
  return text ? json(*text) : json(nullptr);
}

std::optional<std::string> text_or_null(const json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_string()) return std::nullopt;
  return object[key].get<std::string>();
}

json to_json_stats(const SampleStats& stats) {
  return to_json(stats);
}

SampleStats stats_from_json(const json& stats) {
  SampleStats s;
  s.median = stats.value("median", 0.0);
  s.min = stats.value("min", s.median);
  s.max = stats.value("max", s.median);
  s.q1 = stats.value("q1", s.median);
  s.q3 = stats.value("q3", s.median);
  s.mean = stats.value("mean", s.median);
  s.stddev = stats.value("stddev", 0.0);
  s.cv = stats.value("cv", 0.0);
  return s;
}

json to_json(const SampleBlock& block) {
  return {{"samples_ms", block.samples_ms}, {"stats", to_json_stats(block.stats)}};
}

SampleBlock block_from_json(const json& block) {
  SampleBlock b;
  b.samples_ms = block.value("samples_ms", std::vector<double>{});
  b.stats = stats_from_json(block.value("stats", json::object()));
  return b;
}

SampleBlock block_of(const std::vector<double>& samples) {
  return {samples, summarize(samples)};
}

json to_json(const RecordTiming& timing) {
  json j = to_json(timing.compute);
  j["warmup"] = timing.warmup;
  j["repetitions"] = timing.repetitions;
  j["total_seconds"] = timing.total_seconds;
  if (timing.interleaved_points > 0) j["interleaved_points"] = timing.interleaved_points;
  if (timing.h2d) j["h2d"] = to_json(*timing.h2d);
  if (timing.d2h) j["d2h"] = to_json(*timing.d2h);
  if (timing.end_to_end) j["end_to_end"] = to_json(*timing.end_to_end);
  return j;
}

RecordTiming timing_from_json(const json& j) {
  RecordTiming timing;
  timing.compute = block_from_json(j);
  timing.warmup = j.value("warmup", 0);
  timing.repetitions = j.value("repetitions", timing.compute.samples_ms.size());
  timing.total_seconds = j.value("total_seconds", 0.0);
  if (j.contains("interleaved_points") && j["interleaved_points"].is_number_integer())
    timing.interleaved_points = j["interleaved_points"].get<int>();
  if (j.contains("h2d")) timing.h2d = block_from_json(j["h2d"]);
  if (j.contains("d2h")) timing.d2h = block_from_json(j["d2h"]);
  if (j.contains("end_to_end")) timing.end_to_end = block_from_json(j["end_to_end"]);
  return timing;
}

json to_json(const DerivedMetrics& derived) {
  json j = json::object();
  for (const auto& field : derived_fields())
    if (derived.*field.member) j[field.name] = *(derived.*field.member);
  if (derived.baseline_key) j["baseline_key"] = *derived.baseline_key;
  return j;
}

DerivedMetrics derived_from_json(const json& j) {
  DerivedMetrics derived;
  for (const auto& field : derived_fields())
    if (j.contains(field.name) && j[field.name].is_number())
      derived.*field.member = j[field.name].get<double>();
  derived.baseline_key = text_or_null(j, "baseline_key");
  return derived;
}

}  // namespace

const std::vector<DerivedField>& derived_fields() {
  static const std::vector<DerivedField> fields = {
      {"pixels", &DerivedMetrics::pixels},
      {"macs", &DerivedMetrics::macs},
      {"bytes", &DerivedMetrics::bytes},
      {"mpix_per_s", &DerivedMetrics::mpix_per_s},
      {"gmac_per_s", &DerivedMetrics::gmac_per_s},
      {"gb_per_s", &DerivedMetrics::gb_per_s},
      {"ns_per_mac", &DerivedMetrics::ns_per_mac},
      {"speedup", &DerivedMetrics::speedup},
      {"speedup_with_transfers", &DerivedMetrics::speedup_with_transfers},
      {"speedup_vs_threads1", &DerivedMetrics::speedup_vs_threads1},
      {"efficiency", &DerivedMetrics::efficiency},
      {"floor_ms", &DerivedMetrics::floor_ms},
      {"roofline_fraction", &DerivedMetrics::roofline_fraction},
  };
  return fields;
}

json to_json(const Verification& v) {
  return {{"verdict", v.ok ? "ok" : "failed"},
          {"reference", kVerificationReference},
          {"values_compared", v.values_compared},
          {"max_abs_error", std::isfinite(v.max_abs_error) ? json(v.max_abs_error) : json("inf")},
          {"tolerance", v.tolerance},
          {"values_beyond_tolerance", v.values_beyond_tolerance},
          {"values_not_exact", v.exactness_counted ? json(v.values_not_exact) : json()},
          {"worst_index", v.worst_index}};
}

namespace {

Verification verification_from_json(const json& j) {
  Verification v;
  v.ok = j.value("verdict", "") == "ok";
  v.values_compared = j.value("values_compared", std::size_t{0});
  const json error = j.value("max_abs_error", json(0.0));
  v.max_abs_error =
      error.is_number() ? error.get<double>() : std::numeric_limits<double>::infinity();
  v.tolerance = j.value("tolerance", 0.0);
  v.values_beyond_tolerance = j.value("values_beyond_tolerance", std::size_t{0});
  v.worst_index = j.value("worst_index", std::size_t{0});
  v.exactness_counted = j.contains("values_not_exact") && j["values_not_exact"].is_number();
  if (v.exactness_counted) v.values_not_exact = j["values_not_exact"].get<std::size_t>();
  return v;
}

const char* const kRecordFields[] = {
    "key",        "point_id",     "run_id",  "implementation", "family",  "factored",
    "params",     "image",        "kernel",  "border",         "output",  "status",
    "reason",     "timing",       "derived", "verification",   "machine", "gpu_clocks",
    "arithmetic", "saved_output", "source",  "search"};

}  // namespace

json to_json(const RecordMachine& machine, bool gpu_point) {
  json j{{"cpu_model", machine.cpu_model},
         {"hostname", machine.hostname},
         {"host_id", optional_text(machine.host_id)}};
  if (gpu_point) {
    j["gpu"] = optional_text(machine.gpu);
    j["gpu_driver"] = optional_text(machine.gpu_driver);
    if (machine.gpu_uuid) j["gpu_uuid"] = *machine.gpu_uuid;
    if (machine.gpu_index) j["gpu_index"] = *machine.gpu_index;
  }
  return j;
}

RecordMachine machine_from_json(const json& machine) {
  if (!machine.is_object()) return {};
  RecordMachine m;
  m.cpu_model = text_or_null(machine, "cpu_model").value_or("");
  m.hostname = text_or_null(machine, "hostname").value_or("");
  m.host_id = text_or_null(machine, "host_id");
  m.gpu = text_or_null(machine, "gpu");
  m.gpu_driver = text_or_null(machine, "gpu_driver");
  m.gpu_uuid = text_or_null(machine, "gpu_uuid");
  if (machine.contains("gpu_index") && machine["gpu_index"].is_number_integer())
    m.gpu_index = machine["gpu_index"].get<int>();
  return m;
}

json to_json(const SourceFacts& source) {
  json defines = json::object();
  for (const auto& [name, value] : source.defines) defines[name] = value;
  json j{{"path", source.path},
         {"sha256", source.sha256},
         {"language", source.language},
         {"compiler", source.compiler},
         {"compiler_version", source.compiler_version},
         {"flags", source.flags},
         {"defines", defines},
         {"contract_version", source.contract_version}};
  if (!source.includes.empty()) {
    j["snapshot_sha256"] = source.snapshot_sha256;
    for (const auto& [path, sha256] : source.includes)
      j["includes"].push_back({{"path", path}, {"sha256", sha256}});
  }
  if (!source.header_sha256.empty()) j["header_sha256"] = source.header_sha256;
  return j;
}

SourceFacts source_from_json(const json& j) {
  SourceFacts source;
  source.path = j.value("path", "");
  source.sha256 = j.value("sha256", "");
  source.language = j.value("language", "");
  source.compiler = j.value("compiler", "");
  source.compiler_version = j.value("compiler_version", "");
  if (j.contains("flags") && j["flags"].is_array())
    for (const auto& flag : j["flags"])
      if (flag.is_string()) source.flags.push_back(flag.get<std::string>());
  if (j.contains("defines") && j["defines"].is_object())
    for (const auto& [name, value] : j["defines"].items())
      source.defines.emplace_back(name,
                                  value.is_string() ? value.get<std::string>() : value.dump());
  source.contract_version = j.value("contract_version", 0);
  source.snapshot_sha256 = j.value("snapshot_sha256", "");
  source.header_sha256 = j.value("header_sha256", "");
  if (j.contains("includes") && j["includes"].is_array())
    for (const auto& included : j["includes"])
      if (included.is_object())
        source.includes.emplace_back(included.value("path", ""), included.value("sha256", ""));
  return source;
}

json to_json(const Record& r) {
  json j = r.unknown;
  j["key"] = r.key;
  if (!r.point_id.empty()) j["point_id"] = r.point_id;
  j["run_id"] = r.run_id;
  j["implementation"] = r.implementation;
  j["family"] = r.family;
  j["factored"] = r.factored;
  if (r.arithmetic) j["arithmetic"] = *r.arithmetic;
  j["params"] = r.params;
  j["image"] = {{"name", r.image.name},         {"source", r.image.source},
                {"width", r.image.width},       {"height", r.image.height},
                {"channels", r.image.channels}, {"sha256", r.image.sha256}};
  j["kernel"] = {{"name", r.kernel.name},
                 {"type", r.kernel.type},
                 {"size", r.kernel.size},
                 {"separable", r.kernel.separable},
                 {"parameters", r.kernel.parameters}};
  j["border"] = r.border;
  j["output"] = r.output;
  j["status"] = std::string(to_string(r.status));
  j["reason"] = within_results_limit(r.reason);
  j["timing"] = r.timing ? to_json(*r.timing) : json(nullptr);
  j["derived"] = to_json(r.derived);
  j["verification"] = r.verification ? to_json(*r.verification) : json(nullptr);
  if (r.machine) j["machine"] = to_json(*r.machine, r.is_cuda());
  if (!r.gpu_clocks.is_null()) j["gpu_clocks"] = r.gpu_clocks;
  if (r.saved_output)
    j["saved_output"] = {{"file", r.saved_output->file},
                         {"format", r.saved_output->format},
                         {"sha256", r.saved_output->sha256}};
  if (r.source) j["source"] = to_json(*r.source);
  if (r.search) {
    j["search"] = {{"strategy", r.search->strategy},
                   {"seed", r.search->seed},
                   {"step", r.search->step},
                   {"best_so_far_ms",
                    r.search->best_so_far_ms ? json(*r.search->best_so_far_ms) : json(nullptr)}};
    for (const auto& [name, seconds] :
         {std::pair{"compile_s", r.search->compile_s}, std::pair{"measure_s", r.search->measure_s},
          std::pair{"elapsed_s", r.search->elapsed_s}})
      if (seconds) j["search"][name] = *seconds;
  }
  return j;
}

Record record_from_json(const json& j) {
  Record r;
  r.key = j.value("key", "");
  r.point_id = j.value("point_id", "");
  r.run_id = j.value("run_id", "");
  r.implementation = j.value("implementation", "");
  r.family = j.value("family", "");
  r.factored = j.value("factored", false);
  r.arithmetic = text_or_null(j, "arithmetic");
  r.params = j.value("params", json::object());
  const json image = j.value("image", json::object());
  r.image = {image.value("name", ""), image.value("source", ""), image.value("sha256", ""),
             image.value("width", 0), image.value("height", 0),  image.value("channels", 0)};
  const json kernel = j.value("kernel", json::object());
  r.kernel = {kernel.value("name", ""), kernel.value("type", ""), kernel.value("size", 0),
              kernel.value("separable", false), kernel.value("parameters", json::object())};
  r.border = j.value("border", "");
  r.output = j.value("output", "");
  const auto status = parse_status(j.value("status", ""));
  if (!status)
    throw std::invalid_argument("status: expected ok, skipped or failed, got " +
                                j.value("status", json()).dump());
  r.status = *status;
  r.reason = j.value("reason", "");
  if (j.contains("timing") && j["timing"].is_object()) r.timing = timing_from_json(j["timing"]);
  r.derived = derived_from_json(j.value("derived", json::object()));
  if (j.contains("verification") && j["verification"].is_object())
    r.verification = verification_from_json(j["verification"]);
  if (j.contains("machine") && j["machine"].is_object())
    r.machine = machine_from_json(j["machine"]);
  r.gpu_clocks = j.value("gpu_clocks", json());
  if (j.contains("saved_output") && j["saved_output"].is_object()) {
    const json& saved = j["saved_output"];
    r.saved_output =
        SavedOutput{saved.value("file", ""), saved.value("format", ""), saved.value("sha256", "")};
  }
  if (j.contains("source") && j["source"].is_object()) r.source = source_from_json(j["source"]);
  if (j.contains("search") && j["search"].is_object()) {
    const json& search = j["search"];
    RecordSearch s;
    s.strategy = search.value("strategy", "");
    s.seed = search.value("seed", std::uint64_t{0});
    s.step = search.value("step", 0);
    if (search.contains("best_so_far_ms") && search["best_so_far_ms"].is_number())
      s.best_so_far_ms = search["best_so_far_ms"].get<double>();
    for (auto [name, seconds] :
         {std::pair{"compile_s", &s.compile_s}, std::pair{"measure_s", &s.measure_s},
          std::pair{"elapsed_s", &s.elapsed_s}})
      if (search.contains(name) && search[name].is_number()) *seconds = search[name].get<double>();
    r.search = s;
  }
  for (const auto& [name, value] : j.items())
    if (std::find(std::begin(kRecordFields), std::end(kRecordFields), name) ==
        std::end(kRecordFields))
      r.unknown[name] = value;
  return r;
}

namespace {

json clock_json(const GpuClockSample& s) {
  return {{"sm_clock_mhz", s.sm_clock_mhz},         {"max_sm_clock_mhz", s.max_sm_clock_mhz},
          {"memory_clock_mhz", s.memory_clock_mhz}, {"reasons", clock_reason_names(s.reasons)},
          {"temperature_c", s.temperature_c},       {"power_w", s.power_w}};
}

// The GPU's clocks when a point's repetitions start and end, and whether it ran slowed down:
// below the maximum SM clock at the end (the GPU busy by then) or with a throttle reason at either
// end.
json clocks_block(const std::optional<GpuClockSample>& start,
                  const std::optional<GpuClockSample>& end) {
  if (!start || !end) return nullptr;
  const bool throttled = is_throttling(start->reasons) || is_throttling(end->reasons);
  const bool below_max = end->max_sm_clock_mhz > 0 && end->sm_clock_mhz < end->max_sm_clock_mhz;
  return {{"start", clock_json(*start)},
          {"end", clock_json(*end)},
          {"throttled", throttled},
          {"below_max_clock", below_max}};
}

}  // namespace

json gpu_clocks_json(const std::optional<GpuClockSample>& start,
                     const std::optional<GpuClockSample>& end) {
  return clocks_block(start, end);
}

RecordTiming timing_from(const TimingSamples& samples) {
  RecordTiming timing;
  timing.warmup = samples.warmup;
  timing.repetitions = samples.compute_ms.size();
  timing.total_seconds = samples.total_seconds;
  timing.interleaved_points = samples.interleaved_points;
  timing.compute = block_of(samples.compute_ms);
  if (samples.device) {
    timing.h2d = block_of(samples.h2d_ms);
    timing.d2h = block_of(samples.d2h_ms);
    timing.end_to_end = block_of(samples.end_to_end_ms);
  }
  return timing;
}

PointDescription Record::description() const {
  PointDescription d;
  d.implementation = implementation;
  d.family = family;
  d.params = params;
  d.image = {image.name, image.width, image.height, image.channels};
  d.kernel = {kernel.name, kernel.type, kernel.size, kernel.separable};
  d.border = border;
  d.output = output;
  if (search) d.search = DescribedSearch{search->strategy, search->seed};
  d.source_version = source_version();
  return d;
}

}  // namespace convlab
