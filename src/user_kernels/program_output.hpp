// Running a program (the C++ compiler, NVRTC's child) with its output captured, bounded in time,
// output size and memory: no shell, arguments passed as they are, in a process group of its own
// so that a timeout ends the compiler and every program it started.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace convlab {

struct ProgramOutput {
  int exit_code = -1;  // the exit status; 128 + N when ended by signal N; -1 when it could not run
  int signal = 0;      // N when ended by signal N, else 0
  bool timed_out = false;
  std::string output;   // standard output and error together, at most the bytes asked
  std::string failure;  // why it could not run, when exit_code is -1
};

// What a program may use: wall time, the output kept, and address space (RLIMIT_AS, inherited by
// the programs it starts: cc1, as, ld), and the folder it runs in.
struct ProgramLimits {
  double seconds = 60.0;
  std::size_t max_output = 1 << 20;
  std::size_t address_space_bytes = 0;  // 0: no limit
  std::string folder;                   // empty: this process's working folder
};

// Runs argv (argv[0] a path or a name on PATH) within `limits`; a program still running at the
// deadline is killed with its process group (timed_out). Output beyond max_output is dropped.
ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramLimits& limits);
ProgramOutput run_program(const std::vector<std::string>& argv, double seconds,
                          std::size_t max_output = 1 << 20);

// "was killed by signal 11 (Segmentation fault)", "exited with status 3": how a program ended.
std::string program_end_words(const ProgramOutput& out);

}  // namespace convlab
