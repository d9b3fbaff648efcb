#include <algorithm>
#include <iostream>
#include <map>
#include <new>
#include <thread>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "core/count_words.hpp"
#include "core/message_text.hpp"
#include "core/shell_quote.hpp"
#include "plan/plan.hpp"
#include "plan/skips.hpp"
#include "run/kernel_compilation.hpp"
#include "run/measured_points.hpp"
#include "run/plan_report.hpp"
#include "run/progress.hpp"

namespace convlab {
namespace {

// More threads than the machine has logical CPUs time the oversubscription, not the code: not an
// error (a config is written for the machine it will run on), but worth saying here.
std::vector<std::string> thread_warnings(const std::vector<Point>& plan) {
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  std::map<std::string, long> most;  // implementation -> its largest thread count
  for (const Point& point : plan) {
    const auto threads = point.params.find("threads");
    if (threads == point.params.end() || !threads->is_number_integer()) continue;
    long& largest = most[point.implementation->name];
    largest = std::max(largest, threads->get<long>());
  }
  std::vector<std::string> warnings;
  for (const auto& [implementation, threads] : most)
    if (threads > static_cast<long>(cpus))
      warnings.push_back(implementation + " asks for " + std::to_string(threads) +
                         " threads, but this machine has " + count_words(cpus, "logical CPU") +
                         ": the extra threads share cores, and the times measure that");
  return warnings;
}

// How many of the points to run the results folder holds already (as `convlab run` would keep
// them) and the cost of the others.
void print_what_runs(const Config& config, const std::vector<Point>& plain,
                     const std::vector<std::optional<PlannedSkip>>& skips,
                     const std::string& config_path) {
  const std::string results_path = "outputs/" + config.name + "/results.json";
  const MeasuredPoints measured = measured_points_at(results_path);
  const std::vector<double> estimates = estimated_plan_seconds(config, plain, skips);
  double seconds = 0.0;
  std::size_t to_run = 0, already = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    if (skips[i]) continue;
    ++to_run;
    if (measured.has(config, plain[i]))
      ++already;
    else
      seconds += estimates[i];
  }
  if (already > 0) std::cout << new_points_text(to_run, already) << "\n";
  if (seconds > 0)
    std::cout << (already > 0 ? "The new points take roughly " : "The points to run take roughly ")
              << format_duration(seconds) << " (nominal rates; `convlab run "
              << shell_word(config_path) << " --dry-run` lists them)\n";
}

}  // namespace

int validate_command(const Arguments& args) {
  std::string config_path;
  CommandLine line(
      "validate",
      {{},
       R"(Checks the config (keys, types, kernel sizes, image files, figures and tables) without running
anything, then prints the size of its plan: how many points will run, how many will be skipped
and why (the config's reasons, which hold on every machine, apart from this machine's), how many
of those to run outputs/<name>/results.json holds already as convlab run would keep them
('0 new points (744 measured)'), and a rough cost of the new points. An implementation asked for
more threads than this machine has logical CPUs gets a warning, not an error. Exit codes: 0
valid, 2 not valid (the message names the file, line and key). Users' own kernels are compiled
(or found in the kernel cache), and a compile error is shown with the compiler's lines, exit 2.
)",
       "",
       ""});
  if (const auto status = line.positional("CONFIG", config_path).parse(args)) return *status;
  try {
    const LoadedConfig loaded = load_config_for_command(config_path);
    const Config& config = loaded.config;
    const std::vector<Point>& plan = loaded.plan;
    compile_users_kernels(config, plan, 0, &std::cerr);
    std::vector<Point> plain;  // the searches' variants are summarised apart
    for (const Point& point : plan)
      if (!point.search) plain.push_back(point);
    const auto skips = planned_skips(config, plain, RunContext{});
    std::cout << config_path << ": valid; " << count_words(config.images.size(), "image") << ", "
              << count_words(config.filters.size(), "kernel") << ", "
              << count_words(config.borders.size(), "border") << ", "
              << count_words(config.outputs.size(), "output") << "\n"
              << (plain.empty() ? "" : plan_counts_text(count_plan(skips)) + "\n");
    for (const auto& warning : thread_warnings(plan))
      std::cerr << "convlab validate: warning: " << warning << "\n";
    for (const auto& warning : loaded.warnings)
      std::cerr << "convlab validate: warning: " << warning << "\n";
    print_what_runs(config, plain, skips, config_path);
    for (const auto& line : search_summary(config, plan)) std::cout << line << "\n";
    return 0;
  } catch (const ConfigError& error) {
    std::cerr << bounded_message(error.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "convlab validate: " << shortened_path(config_path)
              << ": not enough memory to validate this config\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab validate: " << shortened_path(config_path) << ": "
              << bounded_message(error.what()) << "\n";
    return 2;
  }
}

}  // namespace convlab
