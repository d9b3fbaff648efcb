// The in-process backend: this process measures the job's units (run/local_run.hpp).
#include "run/backend.hpp"
#include "run/local_run.hpp"

namespace convlab {

BackendTraits InProcessBackend::traits() const {
  BackendTraits traits;
  traits.name = "in-process";
  return traits;
}

int InProcessBackend::execute(const RunJob& job) {
  LocalOutcome outcome = run_locally(job);
  const int status = records_status(outcome.rows);
  const bool quiet = job.worker || job.options->verbosity == Verbosity::quiet;
  if (!quiet && job.options->summary)
    job.options->summary(
        RunEnd{std::move(outcome.rows), outcome.run, outcome.counts, job.target.path(), {}});
  return status;
}

}  // namespace convlab
