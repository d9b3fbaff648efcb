#include "measure/provenance.hpp"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <thread>

#include "core/sha256.hpp"
#include "core/shell_quote.hpp"
#include "impl/vendor_peers.hpp"

#ifndef CONVLAB_VERSION
#define CONVLAB_VERSION "unknown"
#define CONVLAB_BUILD_TYPE "unknown"
#define CONVLAB_CXX_COMPILER_ID "unknown"
#define CONVLAB_CXX_COMPILER_VERSION "unknown"
#define CONVLAB_CXX_FLAGS "unknown"
#define CONVLAB_SOURCE_DIR "."
#endif

namespace convlab {
namespace {

// Runs a command and returns its first line of output, or nullopt when it fails.
std::optional<std::string> command_output(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string output;
  std::array<char, 512> chunk{};
  while (fgets(chunk.data(), chunk.size(), pipe) != nullptr) output += chunk.data();
  if (::pclose(pipe) != 0) return std::nullopt;
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

std::string read_keyed_line(const std::string& path, const std::string& key) {
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line))
    if (line.rfind(key, 0) == 0) {
      const size_t colon = line.find_first_of(":=", key.size());
      if (colon == std::string::npos) continue;
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(" \t\""));
      while (!value.empty() && (value.back() == '"' || value.back() == ' ')) value.pop_back();
      return value;
    }
  return {};
}

std::uint64_t meminfo_bytes(const std::string& key) {
  const std::string value = read_keyed_line("/proc/meminfo", key);
  if (value.empty()) return 0;
  return std::stoull(value) * 1024;  // reported in kB
}

// The binding policy the OpenMP runtime applies to the next parallel region.
const char* proc_bind_name(omp_proc_bind_t bind) {
  switch (bind) {
    case omp_proc_bind_false:
      return "false";
    case omp_proc_bind_true:
      return "true";
    case omp_proc_bind_master:
      return "primary";
    case omp_proc_bind_close:
      return "close";
    case omp_proc_bind_spread:
      return "spread";
  }
  return "unknown";
}

}  // namespace

std::string build_id() {
  static const std::string id = [] {
    const std::string hash = sha256_file_hex("/proc/self/exe");
    return hash.empty() ? std::string("unknown") : hash;
  }();
  return id;
}

std::vector<BuiltInPart> built_in_parts() {
#ifdef CONVLAB_WITH_CUDA
  const bool cuda_built = true;
#else
  const bool cuda_built = false;
#endif
#ifdef CONVLAB_WITH_CUDA_RUNGS
  const bool cuda_rungs_built = true;
#else
  const bool cuda_rungs_built = false;
#endif
#ifdef CONVLAB_WITH_NPP
  const bool npp_built = true;
#else
  const bool npp_built = false;
#endif
#define CONVLAB_PEER_PART(folder, title) {#folder, title, folder##_built()},
  return {{"cuda", "CUDA", cuda_built},
          {"cuda_rungs", "CUDA rungs", cuda_rungs_built},
          {"npp", "NPP", npp_built},
          CONVLAB_VENDOR_PEERS(CONVLAB_PEER_PART)};
#undef CONVLAB_PEER_PART
}

nlohmann::json build_facts() {
  nlohmann::json facts{{"id", build_id()},
                       {"version", CONVLAB_VERSION},
                       {"compiler", CONVLAB_CXX_COMPILER_ID},
                       {"compiler_version", CONVLAB_CXX_COMPILER_VERSION},
                       {"flags", CONVLAB_CXX_FLAGS},
                       {"build_type", CONVLAB_BUILD_TYPE}};
  for (const BuiltInPart& part : built_in_parts()) facts[part.key + "_built"] = part.built;
#define CONVLAB_PEER_VERSION(folder, title) \
  facts[#folder "_version"] =               \
      folder##_built() ? nlohmann::json(folder##_version()) : nlohmann::json();
  CONVLAB_VENDOR_PEERS(CONVLAB_PEER_VERSION)
#undef CONVLAB_PEER_VERSION
  return facts;
}

GitFacts git_facts() {
  // A commit handed in wins over the tree's own .git: a copy of the tree on another machine may
  // carry no .git, or a stale one that names an older commit.
  const char* handed = std::getenv("CONVLAB_SOURCE_COMMIT");
  if (handed != nullptr && *handed != '\0') return {handed, std::nullopt, "CONVLAB_SOURCE_COMMIT"};
  const std::string git = "git -C " + shell_quoted(CONVLAB_SOURCE_DIR) + " ";
  const auto commit = command_output(git + "rev-parse HEAD");
  if (!commit) return {};
  // Results under outputs/ are what runs write, not source: they do not make the tree dirty.
  const auto status =
      command_output(git + "status --porcelain --untracked-files=no -- . ':(exclude)outputs'");
  return {*commit, status ? !status->empty() : true, std::nullopt};
}

std::string host_id() {
  static const std::string id = [] {
    for (const char* path : {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
      std::ifstream file(path);
      std::string machine_id;
      if (file >> machine_id && !machine_id.empty())
        return sha256_hex("convlab host " + machine_id).substr(0, 16);
    }
    return std::string();
  }();
  return id;
}

std::string cpu_model() {
  std::string model = read_keyed_line("/proc/cpuinfo", "model name");
  return model.empty() ? "unknown" : model;
}

nlohmann::json host_facts() {
  std::string os = read_keyed_line("/etc/os-release", "PRETTY_NAME");
  utsname names{};
  std::string kernel, hostname;
  if (::uname(&names) == 0) {
    kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
    hostname = names.nodename;
  }
  nlohmann::json openmp{{"version", _OPENMP},
                        {"max_threads", omp_get_max_threads()},
                        {"proc_bind", proc_bind_name(omp_get_proc_bind())},
                        {"places", omp_get_num_places()}};
  for (const char* variable : {"OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS", "OMP_WAIT_POLICY",
                               "CONVLAB_OMP_PINNING"}) {
    const char* value = std::getenv(variable);
    openmp[variable] = value != nullptr ? nlohmann::json(value) : nlohmann::json(nullptr);
  }
  return {{"cpu_model", cpu_model()},
          {"host_id", host_id().empty() ? nlohmann::json(nullptr) : nlohmann::json(host_id())},
          {"logical_cpus", std::thread::hardware_concurrency()},
          {"openmp", openmp},
          {"memory_bytes", meminfo_bytes("MemTotal")},
          {"os", os.empty() ? kernel : os + " (" + kernel + ")"},
          {"hostname", hostname}};
}

// What this process may still allocate: the host's available memory, bounded by the address
// space limit (ulimit -v) and the cgroup's memory limit when they are set.
std::uint64_t available_memory_bytes() {
  std::uint64_t available = meminfo_bytes("MemAvailable");
  if (available == 0) available = std::uint64_t(1) << 40;
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    available = std::min<std::uint64_t>(available, limit.rlim_cur);
  std::ifstream cgroup_max("/sys/fs/cgroup/memory.max"),
      cgroup_current("/sys/fs/cgroup/memory.current");
  std::uint64_t maximum = 0, current = 0;
  if (cgroup_max >> maximum && cgroup_current >> current && maximum > current)
    available = std::min(available, maximum - current);
  return available;
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace convlab
