#include "run/phase_report.hpp"

#include <cstdio>

namespace convlab {
namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds);
  return text;
}

std::string header(const char* first) {
  std::string line = std::string("| ") + first + " | points | wall s |";
  std::string rule = "|---|---|---|";
  for (std::size_t i = 0; i < kWorkPhaseCount; ++i) {
    line += std::string(" ") + phase_name(static_cast<WorkPhase>(i)) + " |";
    rule += "---|";
  }
  return line + " other | ahead |\n" + rule + "---|---|\n";
}

std::string row(const std::string& name, std::size_t points, double wall,
                const PhaseSeconds& phases, double other, double ahead) {
  std::string line =
      "| " + name + " | " + std::to_string(points) + " | " + seconds_text(wall) + " |";
  for (double seconds : phases.seconds) line += " " + seconds_text(seconds) + " |";
  return line + " " + seconds_text(other) + " | " + seconds_text(ahead) + " |\n";
}

std::size_t points_of(const RunPhases& phases) {
  std::size_t points = 0;
  for (const auto& problem : phases.problems) points += problem.points;
  return points;
}

}  // namespace

void print_phases(const RunPhases& phases, const std::string& who, std::ostream& out) {
  std::string text = who + ": where the time went: " + seconds_text(phases.wall) + " s, " +
                     std::to_string(points_of(phases)) + " points measured in " +
                     std::to_string(phases.problems.size()) + " problems (CPUs " +
                     (phases.cpus.empty() ? "?" : phases.cpus) + ", " +
                     std::to_string(phases.openmp_threads) + " OpenMP threads; prepare ahead " +
                     (phases.prepare_ahead ? "on" : "off") + ")\n";
  text += "\n" + header("problem");
  for (const auto& problem : phases.problems)
    text += row(problem.image + " " + problem.kernel + " " + problem.border + " " + problem.output,
                problem.points, problem.wall, problem.phases, problem.other(), problem.ahead);
  text += row("run", points_of(phases), phases.wall, phases.totals, phases.other(), phases.ahead);
  out << text << "\n" << std::flush;  // one write: workers share the terminal
}

void print_worker_phases(const std::vector<RunBlock>& runs, std::ostream& out) {
  std::string rows;
  for (const auto& run : runs) {
    if (!run.phases) continue;
    const std::string device =
        run.phases->device >= 0 ? std::to_string(run.phases->device) : std::string("-");
    rows += row("device " + device + " (CPUs " + run.phases->cpus + ", " +
                    std::to_string(run.phases->openmp_threads) + " threads)",
                points_of(*run.phases), run.phases->wall, run.phases->totals, run.phases->other(),
                run.phases->ahead);
  }
  if (rows.empty()) return;
  out << "\nconvlab: the device workers' time (seconds; run.phases of each worker's run block)\n\n"
      << header("worker") << rows << "\n"
      << std::flush;
}

}  // namespace convlab
