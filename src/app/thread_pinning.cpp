#include "app/thread_pinning.hpp"

#include <unistd.h>

#include <cstdlib>

namespace convlab {

void pin_openmp_threads(char** argv) {
  // Set in the re-executed process (or by the user, to opt out): do not loop.
  if (std::getenv("CONVLAB_OMP_PINNING") != nullptr) return;
  if (std::getenv("OMP_PROC_BIND") != nullptr || std::getenv("OMP_PLACES") != nullptr) {
    setenv("CONVLAB_OMP_PINNING", "environment", 1);
    return;
  }
  setenv("OMP_PROC_BIND", "close", 1);
  setenv("OMP_PLACES", "cores", 1);
  setenv("CONVLAB_OMP_PINNING", "convlab", 1);
  execv("/proc/self/exe", argv);
  // Not re-executed: this runtime has already read its (empty) settings; say so in the run block.
  setenv("CONVLAB_OMP_PINNING", "failed: could not re-execute /proc/self/exe", 1);
  unsetenv("OMP_PROC_BIND");
  unsetenv("OMP_PLACES");
}

}  // namespace convlab
