// The in-process backend: this process measures the job's units (run/local_run.hpp).
#include <iostream>

#include "run/backend.hpp"
#include "run/local_run.hpp"
#include "run/observers.hpp"

namespace convlab {

BackendTraits InProcessBackend::traits() const {
  BackendTraits traits;
  traits.name = "in-process";
  return traits;
}

int InProcessBackend::execute(const RunJob& job) {
  const LocalOutcome outcome = run_locally(job);
  const bool quiet = job.worker || job.options->verbosity == Verbosity::quiet;
  return print_run_summary(outcome.rows, outcome.run, outcome.counts, quiet, job.target.path(),
                           std::cout, job.options->table ? SummaryRows::all : SummaryRows::best);
}

}  // namespace convlab
