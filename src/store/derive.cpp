#include "store/derive.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "store/machine.hpp"
#include "store/source_versions.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

// Records that differ only in implementation and params are measured on the same problem.
std::string problem_key(const Record& record) {
  return record.image.sha256 + "|" + record.image.name + "|" + record.kernel.name + "|" +
         record.border + "|" + record.output;
}

bool params_include(const json& params, const json& subset) {
  for (const auto& [key, value] : subset.items())
    if (!params.contains(key) || params[key] != value) return false;
  return true;
}

int threads_of(const Record& record) {
  const auto threads = record.params.find("threads");
  return threads != record.params.end() && threads->is_number() ? threads->get<int>() : 0;
}

void absolute_metrics(Record& record) {
  DerivedMetrics& derived = record.derived;
  const double pixels = double(record.image.width) * record.image.height;
  const double values = pixels * record.image.channels;
  const double k = record.kernel.size;
  const double out_bytes =
      double(bytes_per_value(parse_output_type(record.output).value_or(OutputType::f32)));
  const double macs = values * k * k;
  const double bytes = values * (1.0 + out_bytes);
  derived.pixels = pixels;
  derived.macs = macs;
  derived.bytes = bytes;
  if (!record.usable()) return;
  const double median_s = record.median_ms() / 1e3;
  if (median_s <= 0) return;
  derived.mpix_per_s = pixels / median_s / 1e6;
  derived.gmac_per_s = macs / median_s / 1e9;
  derived.gb_per_s = bytes / median_s / 1e9;
  derived.ns_per_mac = median_s * 1e9 / macs;
}

const json* calibration_of(const ResultsFile& results, const std::string& run_id) {
  for (const auto& run : results.runs)
    if (run.id == run_id && run.calibration() != nullptr) return run.calibration();
  return nullptr;
}

// The hardware floor of a CUDA point: the slower of moving its bytes at the calibrated copy
// bandwidth and doing its algorithm's multiply-adds at the calibrated rate.
void roofline(const ResultsFile& results, Record& record) {
  if (!record.is_cuda() || !record.usable()) return;
  const json* calibration = calibration_of(results, record.run_id);
  if (calibration == nullptr) return;
  const double bandwidth = calibration->value("copy_bytes_per_s", 0.0);
  // Multiply-adds on the tensor cores are bounded by their own calibrated rate.
  const bool tensor = record.arithmetic.value_or("fp32") == "tensor_fp16";
  const double fma_rate = calibration->value(tensor ? "tensor_fma_per_s" : "fma_per_s", 0.0);
  if (bandwidth <= 0 || fma_rate <= 0) return;
  DerivedMetrics& derived = record.derived;
  const double k = record.kernel.size;
  const double values = *derived.macs / (k * k);
  const double algorithm_macs = record.factored ? values * 2.0 * k : *derived.macs;
  const double floor_s = std::max(*derived.bytes / bandwidth, algorithm_macs / fma_rate);
  derived.floor_ms = floor_s * 1e3;
  derived.roofline_fraction = floor_s * 1e3 / record.median_ms();
}

}  // namespace

void derive_metrics(ResultsFile& results) {
  const json baseline = results.experiment.value("baseline", json::object());
  const std::string baseline_name = baseline.value("implementation", "");
  const json baseline_params = baseline.value("params", json::object());
  // Records are related within one version of each user's kernel (source_versions.hpp): a
  // record of an earlier version is compared with its own version's records of its own
  // implementation, and with the current version of any other.
  const SourceVersions versions(results);
  const auto baseline_version = [&](const Record& record) {
    return record.implementation == baseline_name ? record.source_version()
                                                  : versions.current(baseline_name);
  };

  // Baseline records per problem, host and version, oldest first: a record is compared with the
  // newest one measured on its machine, never with another machine's.
  std::map<std::string, std::vector<const Record*>> baselines;
  for (const auto& record : results.records)
    if (record.usable() && record.implementation == baseline_name &&
        params_include(record.params, baseline_params))
      baselines[problem_key(record) + "|" + host_key(record) + "|" + record.source_version()]
          .push_back(&record);
  const auto baseline_of = [&](const Record& record) -> const Record* {
    const auto found = baselines.find(problem_key(record) + "|" + host_key(record) + "|" +
                                      baseline_version(record));
    if (found == baselines.end()) return nullptr;
    for (auto it = found->second.rbegin(); it != found->second.rend(); ++it)
      if (same_machine(record, **it)) return *it;
    return nullptr;
  };

  // threads = 1 records, keyed by problem, implementation, the other params and, for a user's
  // kernel, the version of its source: T(1) of one version never divides another's T(P).
  std::map<std::string, const Record*> single_thread;
  auto without_threads = [](const Record& record) {
    json params = record.params;
    params.erase("threads");
    return problem_key(record) + "|" + record.implementation + "|" + params.dump() + "|" +
           machine_key(record) + "|" + record.source_version();
  };
  for (const auto& record : results.records)
    if (record.usable() && threads_of(record) == 1)
      single_thread[without_threads(record)] = &record;

  for (auto& record : results.records) {
    record.derived = DerivedMetrics{};
    absolute_metrics(record);
    roofline(results, record);
    if (!record.usable()) continue;
    DerivedMetrics& derived = record.derived;
    const double median = record.median_ms();
    if (const Record* base = baseline_of(record); base != nullptr && median > 0) {
      derived.baseline_key = base->key;
      derived.speedup = base->median_ms() / median;
      const double end_to_end =
          record.timing->end_to_end ? record.timing->end_to_end->stats.median : 0.0;
      if (end_to_end > 0) derived.speedup_with_transfers = base->median_ms() / end_to_end;
    }
    const int threads = threads_of(record);
    if (threads > 0) {
      if (auto found = single_thread.find(without_threads(record)); found != single_thread.end()) {
        // Parallel efficiency E = T(1) / (P * T(P)), T the medians, P the threads.
        const double t1 = found->second->median_ms();
        derived.speedup_vs_threads1 = t1 / median;
        derived.efficiency = t1 / (threads * median);
      }
    }
  }
}

}  // namespace convlab
