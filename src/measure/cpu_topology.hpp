// The CPUs of this machine as Linux describes them under /sys: which logical CPUs are hyperthreads
// of one physical core, on which package and NUMA node, and the NUMA node of a PCI device (a GPU).
// Device workers (run/worker_cpus.hpp) are given whole cores, so that two workers never share a
// core through its hyperthreads. Every reader takes the root of /sys, so that tests describe a
// machine of their own.
#pragma once

#include <string>
#include <vector>

namespace convlab {

struct PhysicalCore {
  int package = 0;
  int core = 0;
  int node = -1;          // NUMA node, -1 when unknown
  std::vector<int> cpus;  // its logical CPUs (hyperthreads), ascending
};

// The physical cores of `cpus` (logical CPU numbers), each with those of its hyperthreads that are
// in `cpus`, ordered by (node, package, core). A CPU whose topology cannot be read is a core of
// its own.
std::vector<PhysicalCore> physical_cores(const std::vector<int>& cpus,
                                         const std::string& sys_root = "/sys");

// The NUMA node of a PCI device ("0000:3b:00.0", any case), -1 when unknown (a virtual machine
// without NUMA, or no such device).
int pci_numa_node(const std::string& pci_bus_id, const std::string& sys_root = "/sys");

// The CPUs this process was started on. OpenMP binds the initial thread to its first place when
// OMP_PROC_BIND or OMP_PLACES is set (app/thread_pinning.hpp sets both), so the calling thread's
// affinity is no longer the process's; the runtime made its places from the process's affinity
// first (with OMP_PLACES=cores, one per core, every CPU of it), so their union is that affinity.
// Without places, the calling thread's affinity, which nothing narrowed.
std::vector<int> start_cpus();
// This thread's affinity now.
std::vector<int> thread_cpus();
// The threads an OpenMP parallel region of this thread would have (omp_get_max_threads).
int openmp_threads();

// "0-3,8,10-11" and back; parse_cpu_list returns empty for text it cannot read.
std::string cpu_list_text(const std::vector<int>& cpus);
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace convlab
