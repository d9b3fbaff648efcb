#include "results/machine.hpp"

#include <map>

namespace convlab {
namespace {

using json = nlohmann::json;

const RecordMachine& machine_of(const Record& record) {
  static const RecordMachine none;
  return record.machine ? *record.machine : none;
}

std::string host_key_of(const RecordMachine& machine) {
  const json host_id = machine.host_id ? json(*machine.host_id) : json(nullptr);
  return machine.cpu_model + "|" + machine.hostname + "|" + host_id.dump();
}

std::string gpu_key_of(const RecordMachine& machine) {
  return machine.gpu.value_or("") + "|" + machine.gpu_driver.value_or("");
}

std::string machine_key_of(const RecordMachine& machine, bool gpu_point) {
  return host_key_of(machine) + (gpu_point ? "|" + gpu_key_of(machine) : "");
}

std::string label_of(const RecordMachine& machine, bool gpu_point, bool with_gpu) {
  std::string label = machine.cpu_model.empty() ? "unknown CPU" : machine.cpu_model;
  if (!machine.hostname.empty()) label += " (" + machine.hostname + ")";
  if (with_gpu && gpu_point && machine.gpu && !machine.gpu->empty()) {
    label += ", " + *machine.gpu;
    if (machine.gpu_driver && !machine.gpu_driver->empty())
      label += " driver " + *machine.gpu_driver;
  }
  return label;
}

std::optional<std::string> text_in(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return std::nullopt;
  return object[key].get<std::string>();
}

}  // namespace

RecordMachine machine_from_run(const RunBlock& run, const std::string& family) {
  const json& host = run.host;
  RecordMachine machine;
  machine.cpu_model = text_in(host, "cpu_model").value_or("unknown");
  machine.hostname = text_in(host, "hostname").value_or("");
  machine.host_id = text_in(host, "host_id");
  if (family == "cuda") {
    const json& cuda = run.cuda;
    machine.gpu = text_in(cuda, "name");
    machine.gpu_driver = text_in(cuda, "driver_version");
  }
  return machine;
}

void attach_machines(std::vector<Record>& records, const std::vector<RunBlock>& runs) {
  std::map<std::string, const RunBlock*> run_by_id;
  for (const auto& run : runs) run_by_id[run.id] = &run;
  const RunBlock unknown;
  for (auto& record : records) {
    if (record.machine) continue;
    const auto run = run_by_id.find(record.run_id);
    const RunBlock& block = run != run_by_id.end() ? *run->second : unknown;
    record.machine = machine_from_run(block, record.family);
  }
}

std::string host_key(const Record& record) {
  return host_key_of(machine_of(record));
}

bool same_machine(const Record& a, const Record& b) {
  if (host_key(a) != host_key(b)) return false;
  return !a.is_cuda() || !b.is_cuda() || gpu_key_of(machine_of(a)) == gpu_key_of(machine_of(b));
}

std::string machine_key(const Record& record) {
  return machine_key_of(machine_of(record), record.is_cuda());
}

std::string machine_label(const Record& record, bool with_gpu) {
  return label_of(machine_of(record), record.is_cuda(), with_gpu);
}

std::string other_hosts_summary(const std::vector<Record>& records, const RecordMachine& here) {
  std::map<std::string, std::pair<size_t, std::string>> others;  // host key -> count, label
  for (const auto& record : records) {
    const std::string key = host_key(record);
    if (key == host_key_of(here)) continue;
    auto& entry = others[key];
    ++entry.first;
    entry.second = machine_label(record, false);
    if (!machine_of(record).host_id) entry.second += ", recorded without a host id";
  }
  std::string text;
  for (const auto& [key, entry] : others)
    text += (text.empty() ? "" : ", ") + std::to_string(entry.first) + " record" +
            (entry.first == 1 ? "" : "s") + " of " + entry.second;
  return text;
}

}  // namespace convlab
