#include "results/machine.hpp"

#include <map>

namespace convlab {
namespace {

using json = nlohmann::json;

std::string text_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

const json& machine_of(const json& record) {
  static const json none = json::object();
  return record.contains("machine") && record["machine"].is_object() ? record["machine"] : none;
}

std::string gpu_key(const json& record) {
  const json& machine = machine_of(record);
  return text_at(machine, "gpu") + "|" + text_at(machine, "gpu_driver");
}

bool is_gpu_point(const json& record) {
  return record.value("family", "") == "cuda";
}

}  // namespace

json machine_from_run(const json& run, const std::string& family) {
  const json host = run.value("host", json::object());
  json machine{{"cpu_model", host.value("cpu_model", "unknown")},
               {"hostname", host.value("hostname", "")},
               {"host_id", host.contains("host_id") ? host["host_id"] : json(nullptr)}};
  if (family == "cuda") {
    const json cuda = run.value("cuda", json::object());
    machine["gpu"] = cuda.contains("name") ? cuda["name"] : json(nullptr);
    machine["gpu_driver"] =
        cuda.contains("driver_version") ? cuda["driver_version"] : json(nullptr);
  }
  return machine;
}

void attach_machines(std::vector<json>& records, const std::vector<json>& runs) {
  std::map<std::string, const json*> run_by_id;
  for (const auto& run : runs) run_by_id[run.value("id", "")] = &run;
  for (auto& record : records) {
    if (record.contains("machine")) continue;
    const auto run = run_by_id.find(record.value("run_id", ""));
    const json& block = run != run_by_id.end() ? *run->second : json::object();
    record["machine"] = machine_from_run(block, record.value("family", ""));
  }
}

std::string host_key(const json& record) {
  const json& machine = machine_of(record);
  const json host_id = machine.contains("host_id") ? machine["host_id"] : json(nullptr);
  return text_at(machine, "cpu_model") + "|" + text_at(machine, "hostname") + "|" + host_id.dump();
}

bool same_machine(const json& a, const json& b) {
  if (host_key(a) != host_key(b)) return false;
  return !is_gpu_point(a) || !is_gpu_point(b) || gpu_key(a) == gpu_key(b);
}

std::string machine_key(const json& record) {
  return host_key(record) + (is_gpu_point(record) ? "|" + gpu_key(record) : "");
}

std::string machine_label(const json& record, bool with_gpu) {
  const json& machine = machine_of(record);
  std::string label = text_at(machine, "cpu_model");
  if (label.empty()) label = "unknown CPU";
  const std::string hostname = text_at(machine, "hostname");
  if (!hostname.empty()) label += " (" + hostname + ")";
  if (with_gpu && is_gpu_point(record) && !text_at(machine, "gpu").empty()) {
    label += ", " + text_at(machine, "gpu");
    const std::string driver = text_at(machine, "gpu_driver");
    if (!driver.empty()) label += " driver " + driver;
  }
  return label;
}

std::string other_hosts_summary(const std::vector<json>& records, const json& here) {
  std::map<std::string, std::pair<size_t, std::string>> others;  // host key -> count, label
  for (const auto& record : records) {
    const std::string key = host_key(record);
    if (key == host_key(here)) continue;
    auto& entry = others[key];
    ++entry.first;
    entry.second = machine_label(record, false);
    if (machine_of(record).value("host_id", json()).is_null())
      entry.second += ", recorded without a host id";
  }
  std::string text;
  for (const auto& [key, entry] : others)
    text += (text.empty() ? "" : ", ") + std::to_string(entry.first) + " record" +
            (entry.first == 1 ? "" : "s") + " of " + entry.second;
  return text;
}

}  // namespace convlab
