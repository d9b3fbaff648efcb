// The keeper of a kernel host: the process convlab starts for one user implementation
// (`convlab kernel-host --channel FD`), in a process group of its own, which dies with convlab. It
// runs no user code. It forks the server (kernel_host.hpp), the process that loads and calls
// the kernels, in a process group of its own, and stays a child subreaper above it: whatever the
// kernels start (threads end with the server; a child, a grandchild that called setsid or lost its
// parent) stays below the keeper. When the server ends (a crash, an exit), or convlab asks
// (SIGTERM, or the parent-death signal when convlab ends however it ends), the keeper kills every
// process below it, then ends as the server ended, so that convlab's wait for it reads the server's
// own signal or status.
//
// The same keeper runs the reading of a compiled library's declarations (`kernel-host --describe
// PATH`): a library that aborts or crashes while it loads is then reported with its signal named.
#pragma once

#include <sys/types.h>

#include <functional>

namespace convlab {

// The signals a keeper waits for, blocked from the start (set in the child convlab forks, so
// that they are blocked when the keeper begins): its server's end and the requests to end.
void block_keeper_signals();

// `kernel-host --channel FD`: keeps a server, which runs `serve` (answering on the channel FD,
// which the keeper closes once the server holds it) and exits with its status; ends as the
// server ended, or with status 0 when asked to end.
[[noreturn]] void keep_channel_host(int channel, const std::function<int()>& serve);

// `kernel-host --describe PATH --parent PID`: keeps a server that runs `describe` (which prints
// the declarations of PATH as JSON); when it does not end normally, prints a JSON line {"ended":
// "was killed by signal 6 (Aborted)"}. Ends with the process `parent` too. Returns the exit
// status.
int keep_describing(pid_t parent, const std::function<int()>& describe);

// In a server: every process the kernels fork (through fork(3)) is killed when the thread that
// forked it ends (PR_SET_PDEATHSIG), so a child of a kernel never outlives the host, even where
// the keeper cannot reach it.
void make_forked_children_die_with_their_parent();

}  // namespace convlab
