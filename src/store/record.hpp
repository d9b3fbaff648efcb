// One point's record in results.json (docs/results-schema.md, records[]), typed. to_json and
// from_json in record.cpp are the only place the JSON names of a record's fields appear: the
// runner fills a Record, derive, merge, the journal and the summary read and write its members,
// and the file holds their JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "impl/implementation.hpp"
#include "measure/gpu_clocks.hpp"
#include "measure/repetitions.hpp"
#include "measure/stats.hpp"
#include "plan/point_description.hpp"
#include "verify/verify.hpp"

namespace convlab {

struct RecordImage {
  std::string name, source, sha256;
  int width = 0, height = 0, channels = 0;
};

struct RecordKernel {
  std::string name, type;
  int size = 0;
  bool separable = false;
  nlohmann::json parameters = nlohmann::json::object();  // sigma, normalize, ... as configured
};

// Timed samples of one phase and their statistics.
struct SampleBlock {
  std::vector<double> samples_ms;
  SampleStats stats;
};

struct RecordTiming {
  int warmup = 0;
  std::size_t repetitions = 0;
  double total_seconds = 0.0;
  int interleaved_points = 0;  // timed in rounds with this many points of the problem; 0: alone
  SampleBlock compute;         // the timed region: the compute call (CPU) or kernel(s) (CUDA)
  std::optional<SampleBlock> h2d, d2h, end_to_end;  // CUDA points
};

// Metrics computed from records (derive.hpp); each is absent until it can be computed.
struct DerivedMetrics {
  std::optional<double> pixels, macs, bytes;
  std::optional<double> mpix_per_s, gmac_per_s, gb_per_s, ns_per_mac;
  std::optional<std::string> baseline_key;
  std::optional<double> speedup, speedup_with_transfers, speedup_vs_threads1, efficiency;
  std::optional<double> floor_ms, roofline_fraction;
};

// The name of each derived metric in records[].derived and its member, one list for writing,
// reading and the report's field names (derived.<name>).
struct DerivedField {
  const char* name;
  std::optional<double> DerivedMetrics::*member;
};
const std::vector<DerivedField>& derived_fields();

// Who measured the record (machine.hpp). GPU fields only for CUDA points, null when unknown;
// gpu_uuid and gpu_index (the CUDA device ordinal in the measuring process) only where recorded.
struct RecordMachine {
  std::string cpu_model, hostname;
  std::optional<std::string> host_id, gpu, gpu_driver, gpu_uuid;
  std::optional<int> gpu_index;
  // The machine in words for figures and tables, set by readers that tell the machines of a file
  // apart (query/results_document.hpp); not part of the file.
  std::string label;
};

// What every record is verified against (records[].verification.reference).
inline constexpr const char* kVerificationReference = "scalar double accumulation";

struct SavedOutput {
  std::string file, format, sha256;
};

// A variant measured by a search (config/search_spec.hpp): which search, its step (1 for the
// first variant it measured) and the best objective of the search up to and including it.
struct RecordSearch {
  std::string strategy;
  std::uint64_t seed = 0;
  int step = 0;
  std::optional<double> best_so_far_ms;  // null while no variant of the search ran
  // Seconds: this variant's compile (0 when it came from the kernel cache or needs none) and its
  // measurement, and the search's time up to the end of this step (the compiles it waited for and
  // its measurements); absent in records of earlier versions.
  std::optional<double> compile_s, measure_s, elapsed_s;
};

struct Record {
  std::string key, point_id, run_id;
  std::string implementation, family;
  bool factored = false;
  std::optional<std::string> arithmetic;  // absent for fp32
  nlohmann::json params = nlohmann::json::object();
  RecordImage image;
  RecordKernel kernel;
  std::string border, output;
  Status status = Status::ok;
  std::string reason;
  std::optional<RecordTiming> timing;
  DerivedMetrics derived;
  std::optional<Verification> verification;
  std::optional<RecordMachine> machine;  // absent in files written before machines were recorded
  nlohmann::json gpu_clocks;             // CUDA points with NVML: clocks at start and end
  std::optional<SavedOutput> saved_output;
  std::optional<SourceFacts> source;  // a user's own kernel: its source and compiler
  std::optional<RecordSearch> search;
  nlohmann::json unknown = nlohmann::json::object();  // fields of other versions, kept as read
  // The config's derived columns (derive:, derived_columns.hpp) by name, in declaration order,
  // where the record has a value: computed by readers from the other records, not in the file.
  std::vector<std::pair<std::string, double>> computed;
  std::optional<double> computed_value(const std::string& name) const {
    for (const auto& [column, value] : computed)
      if (column == name) return value;
    return std::nullopt;
  }

  // The point the record measured (plan/point_description.hpp), read from its fields.
  PointDescription description() const;
  // The version of a user's kernel the record measured (SourceFacts::version); empty for the
  // implementations built into convlab.
  std::string source_version() const {
    return source ? convlab::source_version(*source) : std::string();
  }

  bool is_cuda() const { return family == "cuda"; }
  // Ok with timing: the record's times can be used.
  bool usable() const { return status == Status::ok && timing.has_value(); }
  double median_ms() const { return timing ? timing->compute.stats.median : 0.0; }
};

nlohmann::json to_json(const Record& record);
// Throws std::invalid_argument naming the field ("status: ...") when a value cannot be a
// record's; the JSON types are checked before (results_schema.hpp).
Record record_from_json(const nlohmann::json& record);

nlohmann::json to_json(const RecordMachine& machine, bool gpu_point);
RecordMachine machine_from_json(const nlohmann::json& machine);

nlohmann::json to_json(const Verification& verification);

nlohmann::json to_json(const SourceFacts& source);
SourceFacts source_from_json(const nlohmann::json& source);

// The timing block of a point's repetitions (measure/repetitions.hpp).
RecordTiming timing_from(const TimingSamples& samples);

// The GPU's clocks when a point's repetitions start and end, and whether it ran slowed down;
// null without both samples.
nlohmann::json gpu_clocks_json(const std::optional<GpuClockSample>& start,
                               const std::optional<GpuClockSample>& end);

}  // namespace convlab
