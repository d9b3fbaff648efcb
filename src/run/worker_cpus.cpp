#include "run/worker_cpus.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace convlab {
namespace {

// "{0,32},{1,33}": one place per core, its hyperthreads together.
std::string places_of(const std::vector<const PhysicalCore*>& cores) {
  std::string places;
  for (const PhysicalCore* core : cores) {
    std::string cpus;
    for (int cpu : core->cpus) cpus += (cpus.empty() ? "" : ",") + std::to_string(cpu);
    places += (places.empty() ? "{" : ",{") + cpus + "}";
  }
  return places;
}

WorkerCpus slice_of(const std::vector<const PhysicalCore*>& cores) {
  WorkerCpus slice;
  std::set<int> nodes;
  for (const PhysicalCore* core : cores) {
    slice.cpus.insert(slice.cpus.end(), core->cpus.begin(), core->cpus.end());
    nodes.insert(core->node);
  }
  std::sort(slice.cpus.begin(), slice.cpus.end());
  slice.places = places_of(cores);
  slice.threads = static_cast<int>(slice.cpus.size());
  slice.nodes.assign(nodes.begin(), nodes.end());
  return slice;
}

bool convlab_pins_openmp() {
  const char* pinning = std::getenv("CONVLAB_OMP_PINNING");
  return pinning != nullptr && std::string(pinning) == "convlab";
}

// Before: slices of the calling thread's affinity by logical CPU index, one CPU per place, the
// worker inheriting that affinity (which OpenMP had narrowed to its first place).
std::vector<WorkerCpus> legacy_slices(int count) {
  const std::vector<int> cpus = thread_cpus();
  std::vector<WorkerCpus> slices(static_cast<std::size_t>(count));
  if (!convlab_pins_openmp() || cpus.size() < static_cast<std::size_t>(count)) return slices;
  for (int w = 0; w < count; ++w) {
    const std::size_t begin = cpus.size() * w / count, end = cpus.size() * (w + 1) / count;
    for (std::size_t i = begin; i < end; ++i)
      slices[w].places += (slices[w].places.empty() ? "{" : ",{") + std::to_string(cpus[i]) + "}";
    slices[w].threads = static_cast<int>(end - begin);
  }
  return slices;
}

}  // namespace

WorkerCpuPolicy worker_cpu_policy(std::string* warning) {
  const char* value = std::getenv("CONVLAB_WORKER_CPUS");
  const std::string text = value == nullptr ? "" : value;
  if (text.empty() || text == "cores") return WorkerCpuPolicy::cores;
  if (text == "shared") return WorkerCpuPolicy::shared;
  if (text == "legacy") return WorkerCpuPolicy::legacy;
  if (warning)
    *warning = "CONVLAB_WORKER_CPUS='" + text +
               "' is not one of cores, shared, legacy; the workers get whole cores each (cores)";
  return WorkerCpuPolicy::cores;
}

std::vector<WorkerCpus> share_cores(const std::vector<PhysicalCore>& cores, int count,
                                    const std::vector<int>& gpu_nodes) {
  const std::size_t n = cores.size(), workers = static_cast<std::size_t>(std::max(count, 0));
  std::vector<const PhysicalCore*> all;
  for (const auto& core : cores) all.push_back(&core);
  if (n < workers || workers == 0) return std::vector<WorkerCpus>(workers, slice_of(all));
  std::vector<std::vector<const PhysicalCore*>> taken(workers);
  std::vector<bool> free(n, true);
  const auto quota = [&](std::size_t w) { return n / workers + (w < n % workers ? 1 : 0); };
  const auto take = [&](std::size_t w, bool own_node_only) {
    const int node = w < gpu_nodes.size() ? gpu_nodes[w] : -1;
    if (own_node_only && node < 0) return;
    for (std::size_t c = 0; c < n && taken[w].size() < quota(w); ++c)
      if (free[c] && (!own_node_only || cores[c].node == node)) {
        free[c] = false;
        taken[w].push_back(&cores[c]);
      }
  };
  // The cores of its GPU's node first, then what is left, in order, so that a slice is contiguous
  // where it can be.
  for (std::size_t w = 0; w < workers; ++w) take(w, true);
  for (std::size_t w = 0; w < workers; ++w) take(w, false);
  std::vector<WorkerCpus> slices;
  for (auto& cores_of_worker : taken) {
    // Pointers into `cores`: their order is the machine's (node, package, core).
    std::sort(cores_of_worker.begin(), cores_of_worker.end());
    slices.push_back(slice_of(cores_of_worker));
  }
  return slices;
}

std::vector<WorkerCpus> worker_cpu_slices(WorkerCpuPolicy policy, int count,
                                          const std::vector<int>& gpu_nodes,
                                          const std::string& sys_root) {
  if (policy == WorkerCpuPolicy::legacy) return legacy_slices(count);
  const std::vector<PhysicalCore> cores = physical_cores(start_cpus(), sys_root);
  std::vector<WorkerCpus> slices;
  if (policy == WorkerCpuPolicy::shared)
    slices.assign(static_cast<std::size_t>(count), share_cores(cores, 1, {}).front());
  else
    slices = share_cores(cores, count, gpu_nodes);
  // The user chose OpenMP's places (OMP_PLACES or OMP_PROC_BIND): the workers keep them, on the
  // CPUs the run was started on.
  if (!convlab_pins_openmp())
    for (auto& slice : slices) {
      slice = WorkerCpus{};
      slice.cpus = start_cpus();
    }
  return slices;
}

}  // namespace convlab
