// Before a run measures anything: every variant of the users' kernels its plan needs is
// compiled, or found in the kernel cache, so that a compile error is reported before the first
// point runs (by run, --dry-run and validate alike) and no point pays for a compiler.
#pragma once

#include <ostream>
#include <stdexcept>
#include <vector>

#include "plan/plan.hpp"

namespace convlab {

// Variants that do not compile; what() holds each one's heading and the compiler's lines.
class KernelsDoNotCompile : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Compiles what `plan` needs for `cuda_device`'s architecture and says on `log` what it did
// ("your kernels: 12 variants compiled in 3.2 s, 4 from the kernel cache"; nothing for a plan
// without users' kernels); throws KernelsDoNotCompile.
void compile_users_kernels(const Config& config, const std::vector<Point>& plan, int cuda_device,
                           std::ostream* log);

}  // namespace convlab
