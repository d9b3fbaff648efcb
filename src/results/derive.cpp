#include "results/derive.hpp"

#include <map>
#include <vector>

#include "results/machine.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

double median_of(const json& record, const char* block) {
  const json& timing = record["timing"];
  if (block == nullptr) return timing["stats"]["median"].get<double>();
  if (!timing.contains(block)) return 0.0;
  return timing[block]["stats"]["median"].get<double>();
}

bool usable(const json& record) {
  return record.value("status", "") == "ok" && record.contains("timing") &&
         record["timing"].is_object();
}

// Records that differ only in implementation and params are measured on the same problem.
std::string problem_key(const json& record) {
  return record["image"].value("sha256", "") + "|" + record["image"].value("name", "") + "|" +
         record["kernel"].value("name", "") + "|" + record["border"].get<std::string>() + "|" +
         record["output"].get<std::string>();
}

bool params_include(const json& params, const json& subset) {
  for (const auto& [key, value] : subset.items())
    if (!params.contains(key) || params[key] != value) return false;
  return true;
}

void absolute_metrics(json& record) {
  json& derived = record["derived"];
  const json& image = record["image"];
  const double pixels = image["width"].get<double>() * image["height"].get<double>();
  const double values = pixels * image["channels"].get<double>();
  const double k = record["kernel"]["size"].get<double>();
  const double out_bytes = record["output"] == "u8" ? 1.0 : 4.0;
  const double macs = values * k * k;
  const double bytes = values * (1.0 + out_bytes);
  derived["pixels"] = pixels;
  derived["macs"] = macs;
  derived["bytes"] = bytes;
  if (!usable(record)) return;
  const double median_s = median_of(record, nullptr) / 1e3;
  if (median_s <= 0) return;
  derived["mpix_per_s"] = pixels / median_s / 1e6;
  derived["gmac_per_s"] = macs / median_s / 1e9;
  derived["gb_per_s"] = bytes / median_s / 1e9;
  derived["ns_per_mac"] = median_s * 1e9 / macs;
}

const json* calibration_of(const ResultsFile& results, const std::string& run_id) {
  for (const auto& run : results.runs)
    if (run.value("id", "") == run_id && run.contains("cuda") &&
        run["cuda"].contains("calibration"))
      return &run["cuda"]["calibration"];
  return nullptr;
}

void roofline(const ResultsFile& results, json& record) {
  if (record.value("family", "") != "cuda" || !usable(record)) return;
  const json* calibration = calibration_of(results, record.value("run_id", ""));
  if (calibration == nullptr) return;
  const double bandwidth = calibration->value("copy_bytes_per_s", 0.0);
  // Multiply-adds on the tensor cores are bounded by their own calibrated rate.
  const bool tensor = record.value("arithmetic", "fp32") == "tensor_fp16";
  const double fma_rate = calibration->value(tensor ? "tensor_fma_per_s" : "fma_per_s", 0.0);
  if (bandwidth <= 0 || fma_rate <= 0) return;
  json& derived = record["derived"];
  const double values = derived["macs"].get<double>() / (record["kernel"]["size"].get<double>() *
                                                         record["kernel"]["size"].get<double>());
  const double algorithm_macs = record.value("factored", false)
                                    ? values * 2.0 * record["kernel"]["size"].get<double>()
                                    : derived["macs"].get<double>();
  const double floor_s =
      std::max(derived["bytes"].get<double>() / bandwidth, algorithm_macs / fma_rate);
  derived["floor_ms"] = floor_s * 1e3;
  derived["roofline_fraction"] = floor_s * 1e3 / median_of(record, nullptr);
}

}  // namespace

void derive_metrics(ResultsFile& results) {
  const json baseline = results.experiment.value("baseline", json::object());
  const std::string baseline_name = baseline.value("implementation", "");
  const json baseline_params = baseline.value("params", json::object());

  // Baseline records per problem and host, oldest first: a record is compared with the newest
  // one measured on its machine, never with another machine's.
  std::map<std::string, std::vector<const json*>> baselines;
  for (const auto& record : results.records)
    if (usable(record) && record["implementation"] == baseline_name &&
        params_include(record["params"], baseline_params))
      baselines[problem_key(record) + "|" + host_key(record)].push_back(&record);
  const auto baseline_of = [&](const json& record) -> const json* {
    const auto found = baselines.find(problem_key(record) + "|" + host_key(record));
    if (found == baselines.end()) return nullptr;
    for (auto it = found->second.rbegin(); it != found->second.rend(); ++it)
      if (same_machine(record, **it)) return *it;
    return nullptr;
  };

  // threads = 1 records, keyed by problem, implementation and the other params.
  std::map<std::string, const json*> single_thread;
  auto without_threads = [](const json& record) {
    json params = record["params"];
    params.erase("threads");
    return problem_key(record) + "|" + record["implementation"].get<std::string>() + "|" +
           params.dump() + "|" + machine_key(record);
  };
  for (const auto& record : results.records)
    if (usable(record) && record["params"].value("threads", 0) == 1)
      single_thread[without_threads(record)] = &record;

  for (auto& record : results.records) {
    record["derived"] = json::object();
    absolute_metrics(record);
    roofline(results, record);
    if (!usable(record)) continue;
    json& derived = record["derived"];
    const double median = median_of(record, nullptr);
    if (const json* baseline = baseline_of(record); baseline != nullptr && median > 0) {
      const double base = median_of(*baseline, nullptr);
      derived["baseline_key"] = (*baseline)["key"];
      derived["speedup"] = base / median;
      const double end_to_end = median_of(record, "end_to_end");
      if (end_to_end > 0) derived["speedup_with_transfers"] = base / end_to_end;
    }
    const int threads = record["params"].value("threads", 0);
    if (threads > 0) {
      if (auto found = single_thread.find(without_threads(record)); found != single_thread.end()) {
        // Parallel efficiency E = T(1) / (P * T(P)), T the medians, P the threads.
        const double t1 = median_of(*found->second, nullptr);
        derived["speedup_vs_threads1"] = t1 / median;
        derived["efficiency"] = t1 / (threads * median);
      }
    }
  }
}

}  // namespace convlab
