// Running a program (the C++ compiler) with its output captured, bounded in time and size: no
// shell, arguments passed as they are.
#pragma once

#include <string>
#include <vector>

namespace convlab {

struct ProgramOutput {
  int exit_code = -1;  // the exit status; 128 + N when ended by signal N; -1 when it could not run
  bool timed_out = false;
  std::string output;   // standard output and error together, at most the bytes asked
  std::string failure;  // why it could not run, when exit_code is -1
};

// Runs argv (argv[0] a path or a name on PATH) and waits at most `seconds`; a program still running
// then is killed (timed_out). Output beyond `max_output` bytes is dropped.
ProgramOutput run_program(const std::vector<std::string>& argv, double seconds,
                          std::size_t max_output = 1 << 20);

}  // namespace convlab
