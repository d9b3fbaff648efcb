#include "query/speedup_gap.hpp"

#include "core/point_filter.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

bool same_problem(const Record& a, const Record& b) {
  return a.image.name == b.image.name && a.image.sha256 == b.image.sha256 &&
         a.kernel.name == b.kernel.name && a.border == b.border && a.output == b.output;
}

bool is_baseline(const Record& record, const json& baseline) {
  if (record.implementation != baseline.value("implementation", "")) return false;
  const json params = baseline.value("params", json::object());
  for (const auto& [key, value] : params.items())
    if (!record.params.contains(key) || record.params[key] != value) return false;
  return true;
}

}  // namespace

std::string baseline_words(const nlohmann::json& baseline) {
  if (!baseline.is_object()) return "";
  std::string words = baseline.value("implementation", "");
  if (words.empty()) return words;
  const json params = baseline.value("params", json::object());
  if (params.is_object())
    for (const auto& [key, value] : params.items()) words += " " + key + "=" + field_text(value);
  return words;
}

std::string missing_speedup_reason(const Record& record, const std::vector<Record>& records,
                                   const nlohmann::json& baseline, bool filtered) {
  if (!record.usable() || record.derived.speedup || !baseline.is_object() ||
      baseline.value("implementation", "").empty())
    return "";
  bool skipped = false, failed = false, elsewhere = false;
  for (const Record& other : records) {
    if (!is_baseline(other, baseline) || !same_problem(other, record)) continue;
    if (!same_machine(other, record)) {
      elsewhere = elsewhere || other.usable();
      continue;
    }
    skipped = skipped || other.status == Status::skipped;
    failed = failed || other.status == Status::failed;
  }
  if (failed) return "baseline failed";
  if (skipped) return "baseline skipped";
  if (elsewhere) return "baseline on another machine";
  return filtered ? "baseline filtered out" : "baseline not run";
}

}  // namespace convlab
