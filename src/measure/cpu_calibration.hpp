// The CPU's calibration at the start of a run, as the GPU's is (impl/cuda/device_facts.hpp): the
// memory bandwidth of a copy and the rate of single-precision multiply-adds, measured on the
// run's threads in about a second. Two runs whose calibrations differ ran on another machine, or
// on the same machine in another state (clocks, load, a neighbour on a shared host): their times
// differ for that reason too, which `convlab compare`, `show` and history say apart from another
// build (query/mixed_runs.hpp).
#pragma once

#include <optional>
#include <string>

namespace convlab {

struct CpuCalibration {
  int threads = 0;                // OpenMP threads that measured, the run's
  double copy_bytes_per_s = 0.0;  // read + written, per second, over buffers larger than caches
  double fma_per_s = 0.0;         // single-precision multiply-adds per second
  double seconds = 0.0;           // what the calibration took
};

// The default time a calibration takes, and the environment variable that sets another
// (CONVLAB_CPU_CALIBRATION_SECONDS=0.2; 0 turns it off: no calibration is recorded).
inline constexpr double kCpuCalibrationSeconds = 1.0;
inline constexpr const char* kCpuCalibrationVariable = "CONVLAB_CPU_CALIBRATION_SECONDS";

// The seconds the environment asks for (kCpuCalibrationSeconds when unset; a value that is not a
// number from 0 to 60 counts as unset).
double cpu_calibration_budget();

// Measures on omp_get_max_threads() threads for about `seconds` (and the first touch of the
// buffers): half copying a share each of buffers of 128 MiB in all, half multiply-adds in
// registers. Each thread keeps its fastest repetition and the figures are the sums of those, so
// a thread pre-empted for a moment by another program spoils one repetition, not the figure: the
// calibration stays the machine's on a busy host, which the load average reports apart.
CpuCalibration calibrate_cpu(double seconds);

// How far apart two calibrations are, per figure: the larger value over the smaller, less one
// (0.28 for 28 %).
struct CalibrationGap {
  double copy = 0.0;
  double fma = 0.0;
  // Beyond either figure's limit the runs are taken for two machines (or one machine in two
  // states).
  bool apart() const;
  // The difference of the figure nearest to (or furthest beyond) its limit: the one a reader is
  // told first.
  double headline() const;
};
// Nullopt when either calibration lacks a figure.
std::optional<CalibrationGap> calibration_gap(const CpuCalibration& a, const CpuCalibration& b);

// The limits (cpu_calibration.cpp): the multiply-add rates 10 % apart, or the copy bandwidths a
// factor of 2. The multiply-add rate is clock times vector units times threads, and repeats:
// calibrations of a 2-core AMD EPYC VM at load averages of 12 to 16 gave 118.2 GFMA/s to the
// last digit, while a CPU of the same family at another clock differs by more than 10 %. A
// copy's bandwidth depends on what the host's other tenants do to memory: the same calibrations
// gave 24 to 54 GB/s; memory systems of other kinds (channels, generations) differ by more.
// "FMA rate 28 %, copy bandwidth 3 %".
std::string gap_words(const CalibrationGap& gap);

// "copy 12.3 GB/s, 45.6 GFMA/s on 2 threads".
std::string calibration_words(const CpuCalibration& calibration);

}  // namespace convlab
