// The CPUs a child process of convlab runs on. OpenMP's binding (OMP_PROC_BIND, set by convlab
// for its CPU rungs) pins the main thread to one core, and a thread or a process started from it
// inherits that one core: compilers started that way all share it, one at a time.
#pragma once

#include <sched.h>

namespace convlab {

// Every CPU of the machine (the kernel keeps a process within its cpuset, where there is one).
cpu_set_t machine_cpus();

// The CPUs for a compiler: every CPU of the machine but those the calling thread is pinned to
// (the measuring thread's core, which its threads inherit), or all of them when the calling
// thread is not pinned or that would leave none.
cpu_set_t compiler_cpus();

}  // namespace convlab
