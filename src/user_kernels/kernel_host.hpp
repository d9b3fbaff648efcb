// The kernel host: a process of its own (`convlab kernel-host`) that loads users' compiled
// kernels and runs them for convlab, which verifies and records their results (kernel_host_client
// .hpp is convlab's side). Images and outputs are shared memory, so nothing is copied per call;
// an image is a memfd sealed against writes and mapped read-only, which no kernel can make
// writable (kernel_host_channel.hpp SealedBuffer); each call of a CPU kernel is timed here, around
// the kernel alone, with the stopwatch convlab times its own CPU implementations with, and each
// CUDA point runs through convlab's own point runner (event-timed upload, kernels, download).
#pragma once

#include <string>
#include <vector>

namespace convlab {

// `kernel-host --channel FD`: a keeper (kernel_host_keeper.hpp) above the server, which
// answers requests on FD until it closes; `kernel-host --describe PATH --parent PID`: a keeper
// above a process that prints the declarations of a compiled .c/.cpp as JSON. Returns the exit
// status.
int run_kernel_host(const std::vector<std::string>& args);

}  // namespace convlab
