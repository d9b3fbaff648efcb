// Where a run's wall time goes: the host's work around the timed calls, phase by phase, per
// problem and for the whole run. A steady_clock read around coarse steps (making an image,
// computing a reference, preparing, timing, verifying and recording a point), so it is always on;
// the runner (run/local_run.cpp) records it in the run block (results.json run.phases,
// docs/results-schema.md) and prints it with --phases. It says why a device worker is slower than
// its GPU: docs/scale-out.md, "Where a device worker's time goes".
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace convlab {

// The phases, in the order a run meets them. setup: from the process's start to the run's (the
// config, the plan, the CUDA device count); start: the run block's facts (build, host, git, run
// conditions); device: opening the CUDA device and calibrating it; image: making an input image
// (generation or decoding, and its SHA-256); reference: computing the double reference, or waiting
// for the one computed ahead; prepare: an implementation's preparation of a point (allocation,
// staging, uploads, plans); timing: the warm-up and timed calls; verify: comparing an output with
// the reference; save: writing a saved output; record: appending the record to the journal and
// telling the observers. What no phase covers is "other".
enum class WorkPhase {
  setup,
  start,
  device,
  image,
  reference,
  prepare,
  timing,
  verify,
  save,
  record
};
constexpr std::size_t kWorkPhaseCount = 10;
const char* phase_name(WorkPhase phase);
std::optional<WorkPhase> phase_named(const std::string& name);

// Seconds per phase.
struct PhaseSeconds {
  std::array<double, kWorkPhaseCount> seconds{};
  double& operator[](WorkPhase phase) { return seconds[static_cast<std::size_t>(phase)]; }
  double operator[](WorkPhase phase) const { return seconds[static_cast<std::size_t>(phase)]; }
  double sum() const;
  PhaseSeconds operator-(const PhaseSeconds& earlier) const;
};

// Adds the time of each timed step to its phase. One thread's clock: a background thread keeps its
// own time.
class PhaseClock {
 public:
  class Scope {
   public:
    Scope(PhaseClock& clock, WorkPhase phase)
        : clock_(clock), phase_(phase), start_(std::chrono::steady_clock::now()) {}
    ~Scope() {
      clock_.add(phase_,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseClock& clock_;
    WorkPhase phase_;
    std::chrono::steady_clock::time_point start_;
  };

  Scope time(WorkPhase phase) { return Scope(*this, phase); }
  void add(WorkPhase phase, double seconds) { totals_[phase] += seconds; }
  const PhaseSeconds& totals() const { return totals_; }

 private:
  PhaseSeconds totals_;
};

// One problem (image, kernel, border, output) of a run: its points measured here, its wall time
// from naming its first point to recording its last, and the phases within.
struct ProblemPhases {
  std::string image, kernel, border, output;
  std::size_t points = 0;  // measured here (kept points are not)
  double wall = 0.0;
  PhaseSeconds phases;
  double ahead =
      0.0;  // the next problem's image and reference, prepared meanwhile in the background
  double other() const { return wall - phases.sum(); }
};

// The run: from the process's start (setup) to its last record, before the results file is
// written a last time.
struct RunPhases {
  double wall = 0.0;
  PhaseSeconds totals;
  double ahead = 0.0;
  bool prepare_ahead = false;  // CONVLAB_PREPARE_AHEAD was on
  int device = -1;             // the CUDA device of its CUDA points, -1 without any
  std::string cpus;            // the CPUs the process was started on ("0-7,32-39")
  int openmp_threads = 0;      // omp_get_max_threads()
  std::vector<ProblemPhases> problems;
  double other() const { return wall - totals.sum(); }
};

// Seconds since this process started (from /proc/self/stat and the boot-time clock, to within
// half a clock tick: 5 ms at 100 Hz); 0 when they cannot be read.
double process_age_seconds();

// One clock tick of the process start time, in seconds (0.01 at 100 Hz).
double process_clock_tick_seconds();

}  // namespace convlab
