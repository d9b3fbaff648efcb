// Running helper programs (gnuplot) from a command, several at a time: each job runs in its own
// folder with its output and errors in a log file there, and the caller learns which failed.
#pragma once

#include <string>
#include <vector>

namespace convlab {

struct ChildJob {
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  std::string directory;          // where it runs
  std::string log;                // its standard output and error, in `directory`
  int exit_code = -1;             // after run_jobs: the exit status, 127 when it could not start
  // NAME=VALUE settings for the job on top of this process's environment.
  std::vector<std::string> environment = {};
};

// Runs every job, at most `parallel` at once, and waits for all of them.
void run_jobs(std::vector<ChildJob>& jobs, unsigned parallel);

// Sends `signal` to every job run_jobs is running now. Async-signal-safe: a signal handler
// passes a signal sent to this process alone (kill PID) on to the programs it waits for.
void signal_running_jobs(int signal);

// Whether `program` is on PATH.
bool program_available(const std::string& program);

}  // namespace convlab
