#include "measure/cpu_topology.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

namespace convlab {
namespace {

namespace fs = std::filesystem;

bool read_int(const fs::path& path, int& value) {
  std::ifstream file(path);
  return static_cast<bool>(file >> value);
}

std::string read_word(const fs::path& path) {
  std::ifstream file(path);
  std::string word;
  file >> word;
  return word;
}

// The NUMA node of every CPU named in ROOT/devices/system/node/nodeN/cpulist.
std::map<int, int> node_of_cpus(const fs::path& sys) {
  std::map<int, int> node_of;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(sys / "devices/system/node", error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("node", 0) != 0 || name.size() < 5 || !std::isdigit(name[4])) continue;
    const int node = std::atoi(name.c_str() + 4);
    for (int cpu : parse_cpu_list(read_word(entry.path() / "cpulist"))) node_of[cpu] = node;
  }
  return node_of;
}

std::vector<int> cpus_of(const cpu_set_t& set) {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

std::vector<int> openmp_place_cpus() {
  std::set<int> cpus;
  for (int place = 0; place < omp_get_num_places(); ++place) {
    std::vector<int> ids(static_cast<std::size_t>(std::max(0, omp_get_place_num_procs(place))));
    if (ids.empty()) continue;
    omp_get_place_proc_ids(place, ids.data());
    cpus.insert(ids.begin(), ids.end());
  }
  return {cpus.begin(), cpus.end()};
}

}  // namespace

std::vector<PhysicalCore> physical_cores(const std::vector<int>& cpus,
                                         const std::string& sys_root) {
  const fs::path sys(sys_root);
  const std::map<int, int> node_of = node_of_cpus(sys);
  std::map<std::tuple<int, int, int>, PhysicalCore> cores;  // (node, package, core)
  int unknown = 0;  // a CPU without topology files is a core of its own
  for (int cpu : cpus) {
    const fs::path topology =
        sys / "devices/system/cpu" / ("cpu" + std::to_string(cpu)) / "topology";
    PhysicalCore core;
    if (!read_int(topology / "physical_package_id", core.package) ||
        !read_int(topology / "core_id", core.core)) {
      core.package = -1;
      core.core = unknown++;
    }
    const auto node = node_of.find(cpu);
    core.node = node == node_of.end() ? -1 : node->second;
    PhysicalCore& entry = cores[{core.node, core.package, core.core}];
    if (entry.cpus.empty()) entry = core;
    entry.cpus.push_back(cpu);
  }
  std::vector<PhysicalCore> ordered;
  for (auto& [key, core] : cores) {
    std::sort(core.cpus.begin(), core.cpus.end());
    ordered.push_back(std::move(core));
  }
  return ordered;
}

int pci_numa_node(const std::string& pci_bus_id, const std::string& sys_root) {
  std::string id = pci_bus_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  if (id.empty() || id.find('/') != std::string::npos) return -1;
  int node = -1;
  if (!read_int(fs::path(sys_root) / "bus/pci/devices" / id / "numa_node", node)) return -1;
  return node;
}

std::vector<int> thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return {};
  return cpus_of(set);
}

int openmp_threads() {
  return omp_get_max_threads();
}

std::vector<int> start_cpus() {
  std::vector<int> places = openmp_place_cpus();
  return places.empty() ? thread_cpus() : places;
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::vector<int> sorted = cpus;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(sorted[i]);
    if (j > i) text += "-" + std::to_string(sorted[j]);
    i = j + 1;
  }
  return text;
}

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> cpus;
  std::size_t i = 0;
  const auto number = [&](int& value) {
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && value < 1 << 20)
      value = value * 10 + (text[i++] - '0');
    return value < 1 << 20;
  };
  while (i < text.size()) {
    int first = 0, last = 0;
    if (!number(first)) return {};
    last = first;
    if (i < text.size() && text[i] == '-' && (++i, !number(last))) return {};
    if (last < first || last - first > 1 << 16) return {};
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
    if (i < text.size() && text[i++] != ',') return {};
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

}  // namespace convlab
