// Starting the keeper of a kernel host (kernel_host_keeper.hpp) from convlab: in a process group
// of its own, so no signal convlab's terminal or process group gets reaches it; with a parent-death
// signal, so it ends with convlab even when convlab is killed with SIGKILL; with standard input
// from /dev/null and standard output and error into a pipe this process forwards to its own
// standard error, so that no process the kernels start holds convlab's output open (a
// `convlab run ... | tee` ends when convlab does).
#pragma once

#include <sys/types.h>

#include <string>

namespace convlab {

// The descriptor number the keeper and its server find their channel on.
inline constexpr int kKernelHostChannelFd = 3;

// Starts `program kernel-host --channel 3` with `channel` as its descriptor 3. Returns its pid;
// throws std::runtime_error when it cannot be started.
pid_t spawn_kernel_host_keeper(const std::string& program, int channel);

}  // namespace convlab
