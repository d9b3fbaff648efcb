// Pinned OpenMP threads for every CPU point: OMP_PROC_BIND=close and OMP_PLACES=cores, so thread i
// of a team runs on core i (the first P cores for P threads) and never migrates during a
// measurement. The OpenMP runtime reads these variables once, when it is loaded (before main), so
// convlab sets them and re-executes itself; a user who sets either variable keeps their choice.
// The run block records what the runtime actually uses (host.openmp: proc_bind, places, pinning).
#pragma once

namespace convlab {

// Call first thing in main. Returns only when the process runs with the pinning in force, with
// the user's own OMP_PROC_BIND / OMP_PLACES, or when re-executing failed (then unpinned, recorded).
void pin_openmp_threads(char** argv);

}  // namespace convlab
