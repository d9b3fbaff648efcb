// The processes below one process, as /proc describes them, and ending all of them. A kernel host's
// keeper (kernel_host_keeper.hpp) is a child subreaper: every process its kernel starts stays below
// it, whatever it does to its session or process group, and ends when the keeper ends them.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace convlab {

// The live processes below `root` (its children, theirs, ...), read from /proc; zombies are left
// out. Empty when /proc cannot be read.
std::vector<pid_t> descendants_of(pid_t root);

// Kills every process below the calling process with SIGKILL, round after round (a process may
// fork between a reading of /proc and its kill), and reaps the calling process's children, until
// none is left alive or `seconds` have passed. Returns whether none is left. Meant for a child
// subreaper, to which the orphans of its descendants come back.
bool end_descendants(double seconds);

// SIGSTOP to every thread of `pid`, each on its own (tgkill). A process-directed SIGSTOP wakes
// one thread, which stops the others once it is scheduled; on a busy machine another thread may
// run on for milliseconds meanwhile. Sent to each, the signal interrupts a running thread at
// once, and one waiting for a CPU stops before it runs user code again.
void stop_every_thread(pid_t pid);

// Waits at most `seconds` for the child `pid` to end, without reaping it; true when it did (or was
// reaped already).
bool wait_for_child_to_end(pid_t pid, double seconds);
// The same, then reaps it: true, with its wait status (0 when it was reaped elsewhere), when it
// ended.
bool wait_for_child(pid_t pid, double seconds, int* status);

// "was killed by signal 11 (Segmentation fault)", "exited with status 3": a wait status in words.
std::string wait_status_words(int status);

}  // namespace convlab
