#include "user_kernels/machine_cpus.hpp"

#include <unistd.h>

namespace convlab {

cpu_set_t machine_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const long count = sysconf(_SC_NPROCESSORS_CONF);
  for (long cpu = 0; cpu < count && cpu < CPU_SETSIZE; ++cpu) CPU_SET(cpu, &set);
  return set;
}

cpu_set_t compiler_cpus() {
  const cpu_set_t machine = machine_cpus();
  cpu_set_t pinned;
  CPU_ZERO(&pinned);
  if (sched_getaffinity(0, sizeof pinned, &pinned) != 0) return machine;
  cpu_set_t others;
  CPU_XOR(&others, &machine, &pinned);
  CPU_AND(&others, &others, &machine);
  const bool pinned_to_part = CPU_COUNT(&pinned) < CPU_COUNT(&machine);
  return pinned_to_part && CPU_COUNT(&others) > 0 ? others : machine;
}

}  // namespace convlab
