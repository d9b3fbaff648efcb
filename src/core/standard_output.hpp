// Standard output with every write checked. std::cout writes through a buffer of its own to file
// descriptor 1 with write(2), keeping the first failure and its reason, so that a command whose
// output was lost (a full disk, a closed pipe with SIGPIPE ignored) says so and exits non-zero
// instead of reporting success; GNU tools do the same. Writes from several threads are serialized.
// Like C's stdout, the buffer is written out at every newline on a terminal, and when full or
// flushed otherwise.
#pragma once

#include <optional>
#include <string>

namespace convlab {

// Makes std::cout write through the checked buffer. Call once, before anything is printed.
void use_checked_standard_output();

// Flushes std::cout; nullopt when every byte written to it arrived, else "write error: REASON"
// for the first write that failed. Later output is dropped once a write has failed.
std::optional<std::string> finish_standard_output();

}  // namespace convlab
