#include <iostream>
#include <numeric>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "core/count_words.hpp"
#include "core/shell_quote.hpp"
#include "plan/plan.hpp"
#include "plan/skips.hpp"
#include "run/kernel_compilation.hpp"
#include "run/plan_report.hpp"
#include "run/progress.hpp"

namespace convlab {
namespace {

const char* kValidateUsage = R"(usage: convlab validate CONFIG

Checks the config (keys, types, kernel sizes, image files, figures and tables) without running
anything, then prints the size of its plan: how many points will run, how many will be skipped
and why (the config's reasons, which hold on every machine, apart from this machine's), and a
rough cost of the points to run. Exit codes: 0 valid, 2 not valid (the message names the file,
line and key). Users' own kernels are compiled (or found in the kernel cache), and a compile
error is shown with the compiler's lines, exit 2.
)";

}  // namespace

int validate_command(const Arguments& args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    (args.size() == 1 ? std::cout : std::cerr) << kValidateUsage;
    return args.size() == 1 ? 0 : 2;
  }
  try {
    const Config config = load_config_for_command(args[0]);
    const std::vector<Point> plan = expand_plan(config);
    compile_users_kernels(config, plan, 0, &std::cerr);
    std::vector<Point> plain;  // the searches' variants are summarised apart
    for (const Point& point : plan)
      if (!point.search) plain.push_back(point);
    const auto skips = planned_skips(config, plain, RunContext{});
    const std::vector<double> estimates = estimated_plan_seconds(config, plain, skips);
    const double seconds = std::accumulate(estimates.begin(), estimates.end(), 0.0);
    std::cout << args[0] << ": valid; " << count_words(config.images.size(), "image") << ", "
              << count_words(config.filters.size(), "kernel") << ", "
              << count_words(config.borders.size(), "border") << ", "
              << count_words(config.outputs.size(), "output") << "\n"
              << (plain.empty() ? "" : plan_counts_text(count_plan(skips)) + "\n");
    for (const auto& line : search_summary(config, plan)) std::cout << line << "\n";
    if (estimates.size() > 0 && seconds > 0)
      std::cout << "The points to run take roughly " << format_duration(seconds)
                << " (nominal rates; `convlab run " << shell_word(args[0])
                << " --dry-run` lists them)\n";
    return 0;
  } catch (const ConfigError& error) {
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab validate: " << args[0] << ": " << error.what() << "\n";
    return 2;
  }
}

}  // namespace convlab
