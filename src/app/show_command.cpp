#include <filesystem>
#include <iostream>

#include "app/commands.hpp"
#include "core/point_filter.hpp"
#include "results/record_fields.hpp"
#include "results/results_file.hpp"
#include "results/results_journal.hpp"
#include "results/summary_table.hpp"

namespace convlab {
namespace {

const char* kShowUsage = R"(usage: convlab show DIR [--filter EXPR]

Prints the summary of DIR/results.json (or of a results.json named directly) as `convlab run`
prints it at the end, without running anything: one row per measured point, skipped points one
line per reason, the noisy points and the counts.

  --filter EXPR   only the records matching EXPR (as convlab run --filter)
Exit codes: 0 printed, 2 no such results file, not a results file, bad arguments, or output
that could not be written (standard output: write error: ...).
)";

}  // namespace

int show_command(const Arguments& args) {
  std::string path;
  std::optional<PointFilter> filter;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kShowUsage;
      return 0;
    }
    if (args[i] == "--filter") {
      std::string error;
      if (i + 1 >= args.size() || !(filter = parse_point_filter(args[++i], &error))) {
        std::cerr << "convlab show: --filter: " << (error.empty() ? "needs a value" : error)
                  << "\n";
        return 2;
      }
    } else if (!args[i].empty() && args[i][0] == '-') {
      std::cerr << "convlab show: unknown option '" << args[i] << "'\n" << kShowUsage;
      return 2;
    } else if (path.empty()) {
      path = args[i];
    } else {
      std::cerr << "convlab show: only one DIR, got '" << path << "' and '" << args[i] << "'\n";
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << kShowUsage;
    return 2;
  }
  const std::string file = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0
                               ? path
                               : path + "/results.json";
  try {
    if (!std::filesystem::exists(file) && !std::filesystem::exists(journal_path_for(file))) {
      std::cerr << "convlab show: " << file << ": no results here (run the config first)\n";
      return 2;
    }
    const ResultsFile results = read_results(file);
    std::vector<Record> records;
    for (const auto& record : results.records)
      if (!filter || record_matches(*filter, record)) records.push_back(record);
    const std::string name = results.experiment.value("name", "");
    std::cout << "# " << results.experiment.value("title", name) << " (" << name
              << "): " << records.size() << " of " << results.records.size() << " records, "
              << results.runs.size() << (results.runs.size() == 1 ? " run" : " runs") << "\n\n";
    const RunBlock last_run = results.runs.empty() ? RunBlock{} : results.runs.back();
    print_summary_table(records, last_run, std::cout);
    print_noisy_points(records, std::cout);
    std::cout << "\n" << status_counts_line(records) << "\n";
    return 0;
  } catch (const ResultsFileError& error) {
    std::cerr << "convlab show: " << error.what() << "\n";
    return 2;
  }
}

}  // namespace convlab
