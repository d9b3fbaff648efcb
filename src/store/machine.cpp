#include "store/machine.hpp"

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

std::string device_key_of(const RecordMachine& machine) {
  return gpu_key_of(machine) + (machine.gpu_uuid ? "|" + *machine.gpu_uuid : "");
}

std::string machine_key_of(const RecordMachine& machine, bool gpu_point) {
  return host_key_of(machine) + (gpu_point ? "|" + device_key_of(machine) : "");
}

// Devices are told apart by UUID where both records name one; records of versions that did not
// record it are of the device of their GPU model.
bool same_device(const RecordMachine& a, const RecordMachine& b) {
  if (gpu_key_of(a) != gpu_key_of(b)) return false;
  return !a.gpu_uuid || !b.gpu_uuid || *a.gpu_uuid == *b.gpu_uuid;
}

std::string label_of(const RecordMachine& machine, bool gpu_point, bool with_gpu) {
  std::string label = machine.cpu_model.empty() ? "unknown CPU" : machine.cpu_model;
  if (!machine.hostname.empty()) label += " (" + machine.hostname + ")";
  if (with_gpu && gpu_point && machine.gpu && !machine.gpu->empty()) {
    label += ", " + *machine.gpu;
    if (machine.gpu_index) label += " (device " + std::to_string(*machine.gpu_index) + ")";
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

RecordMachine machine_from_run(const RunBlock& run, Family family) {
  const json& host = run.host;
  RecordMachine machine;
  machine.cpu_model = text_in(host, "cpu_model").value_or("unknown");
  machine.hostname = text_in(host, "hostname").value_or("");
  machine.host_id = text_in(host, "host_id");
  if (family == Family::cuda) {
    const json& cuda = run.cuda;
    machine.gpu = text_in(cuda, "name");
    machine.gpu_driver = text_in(cuda, "driver_version");
    machine.gpu_uuid = text_in(cuda, "uuid");
    if (cuda.is_object() && cuda.contains("device") && cuda["device"].is_number_integer() &&
        machine.gpu)
      machine.gpu_index = cuda["device"].get<int>();
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
    record.machine = machine_from_run(block, record.is_cuda() ? Family::cuda : Family::cpu);
  }
}

std::string host_key(const Record& record) {
  return host_key_of(machine_of(record));
}

bool same_machine(const Record& a, const Record& b) {
  if (host_key(a) != host_key(b)) return false;
  return !a.is_cuda() || !b.is_cuda() || same_device(machine_of(a), machine_of(b));
}

std::string machine_key(const Record& record) {
  return machine_key_of(machine_of(record), record.is_cuda());
}

std::string machine_model_key(const Record& record) {
  const RecordMachine& machine = machine_of(record);
  return host_key_of(machine) + (record.is_cuda() ? "|" + gpu_key_of(machine) : "");
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
