// The CPUs each device worker of `convlab run --devices` gets for its host work (the image, the
// reference, verification, launches and copies), and how it is told.
//
// OpenMP binds a process's initial thread to its first place as soon as OMP_PROC_BIND or
// OMP_PLACES is set, and convlab sets both (app/thread_pinning.hpp). A worker started from that
// thread inherits its affinity: one core. Slicing that one core's CPUs gave every worker a single
// OpenMP thread, all of them on one physical core, so each worker computed its 200 M-value
// references on one CPU (docs/scale-out.md, "Where a device worker's time goes"). The slices are
// therefore cut from the CPUs the process was started on (measure/cpu_topology.hpp start_cpus),
// whole physical cores each, so that two workers never share a core through its hyperthreads; a
// worker whose GPU sits on a known NUMA node takes the cores of that node first. Each worker is
// started with its slice as its affinity and OMP_PLACES naming its cores.
//
// CONVLAB_WORKER_CPUS chooses (docs/scale-out.md):
//   cores   (default) equal shares of whole physical cores, as above;
//   shared  every worker on all the CPUs the run was started on (OpenMP places = cores);
//   legacy  what convlab did before: slices of the calling thread's affinity by logical CPU index,
//           inherited as it was (kept to measure the difference).
#pragma once

#include <string>
#include <vector>

#include "measure/cpu_topology.hpp"

namespace convlab {

struct WorkerCpus {
  std::vector<int> cpus;   // the worker's affinity; empty: inherit this thread's
  std::string places;      // OMP_PLACES, "{0,32},{1,33}"; empty: leave the environment as it is
  int threads = 0;         // OMP_NUM_THREADS when places is set
  std::vector<int> nodes;  // NUMA nodes of its cores (-1: unknown)
};

enum class WorkerCpuPolicy { cores, shared, legacy };

// From CONVLAB_WORKER_CPUS; an unknown value is `cores` with `warning` saying so.
WorkerCpuPolicy worker_cpu_policy(std::string* warning = nullptr);

// The slice of each of `count` workers. `gpu_nodes[w]`: the NUMA node of worker w's GPU (-1 or
// absent: unknown). `cores` must hold at least `count` cores, or every worker gets all of them.
// Shares differ by at most one core.
std::vector<WorkerCpus> share_cores(const std::vector<PhysicalCore>& cores, int count,
                                    const std::vector<int>& gpu_nodes);

// The slices for the workers of this process under `policy`, read from this machine.
std::vector<WorkerCpus> worker_cpu_slices(WorkerCpuPolicy policy, int count,
                                          const std::vector<int>& gpu_nodes,
                                          const std::string& sys_root = "/sys");

}  // namespace convlab
