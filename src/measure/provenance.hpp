// Where results come from: the build, the source revision and the host, for the run block.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace convlab {

// The optional parts of convlab and whether this executable has them. This list is the one place
// a new optional part is added: build_facts records each as "<key>_built", and `convlab --version`
// and `convlab list` print them.
struct BuiltInPart {
  std::string key;   // "cuda" -> run.build.cuda_built
  std::string name;  // as printed: "CUDA"
  bool built = false;
};
std::vector<BuiltInPart> built_in_parts();

// The source revision a run was built from.
struct GitFacts {
  std::optional<std::string> commit;  // none outside a git checkout
  std::optional<bool> dirty;          // none when unknown (a commit handed in)
  std::optional<std::string> source;  // where the commit came from when not the tree's .git
};

nlohmann::json build_facts();  // id, version, compiler, flags, build type, <part>_built
GitFacts git_facts();
nlohmann::json host_facts();  // cpu_model, host_id, logical_cpus, memory_bytes, os, hostname
std::string build_id();       // sha256 of the running executable (cached)
std::string cpu_model();
// Tells hosts apart that share a CPU model and hostname: a hash of /etc/machine-id (the id itself
// is not recorded), or empty when the machine has none.
std::string host_id();
std::uint64_t available_memory_bytes();  // MemAvailable, or a large number when unknown
std::string utc_timestamp();             // ISO-8601, seconds, with Z

}  // namespace convlab
