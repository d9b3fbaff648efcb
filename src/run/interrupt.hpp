// SIGINT and SIGTERM during `convlab run`. Both are blocked in every thread (the OpenMP and CUDA
// threads started later inherit the mask) and taken by one watcher thread, so a signal never lands
// in the middle of a results write; a thread that does take one (started before the mask was set)
// hands it on to the watcher. The watcher runs the handler the run has set (which waits for
// a write in progress, records what the run has and returns what to say), prints that line and
// exits 128 + the signal: 130 for SIGINT, 143 for SIGTERM.
#pragma once

#include <functional>
#include <string>

namespace convlab {

// Blocks the signals in the calling thread and starts the watcher. Call before any other thread
// is started; later calls do nothing.
void watch_for_interrupts();

// What to do on a signal; returns the line to print. Without a handler the process exits with a
// line saying nothing was written.
void set_interrupt_handler(std::function<std::string()> handler);
void clear_interrupt_handler();

}  // namespace convlab
