// convlab compare A B: for every point measured in both result sets, the ratio of B's median to
// A's and a verdict. Points are matched by what they measure (point_definition), not by key: keys
// include the build id, which differs between the builds being compared.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "report/commands.hpp"
#include "report/figure_data.hpp"
#include "report/record_fields.hpp"
#include "report/results_document.hpp"
#include "results/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

const char* const kCompareHelp =
    R"(usage: convlab compare A B [--threshold PERCENT] [--metric FIELD]

Compares two results (results.json files or the directories holding them), point by point, for
every ok point present in both; points are matched by implementation, params, image, kernel,
border and output, so results of different builds compare.

For each point: ratio = median of B / median of A and a verdict:
  slower  ratio > 1 + threshold and the interquartile ranges (q1..q3) do not overlap
  faster  ratio < 1 / (1 + threshold) and the interquartile ranges do not overlap
  same    otherwise (within the threshold, or within noise: the ranges overlap)

  --threshold T   5% by default; "5%", "5" and "0.05" all mean five percent
  --metric FIELD  median_ms (default), end_to_end_ms, h2d_ms or d2h_ms
Exit codes: 0 no point of B slower, 1 some point of B slower, 2 bad input.
)";

struct Comparison {
  const json* a;
  const json* b;
  double a_value;
  double b_value;
  double ratio;
  std::string verdict;
};

double parse_threshold(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(value >= 0))
    throw ExportError("convlab compare: --threshold: '" + text + "' is not a percentage");
  return percent || value >= 1 ? value / 100.0 : value;
}

std::string verdict_for(const json& a, const json& b, const std::string& metric, double ratio,
                        double threshold) {
  const auto a_range = field_quartiles(a, metric);
  const auto b_range = field_quartiles(b, metric);
  const bool overlap =
      a_range && b_range && a_range->first <= b_range->second && b_range->first <= a_range->second;
  if (ratio > 1 + threshold && !overlap) return "slower";
  if (ratio < 1 / (1 + threshold) && !overlap) return "faster";
  if (overlap && std::fabs(ratio - 1) > threshold) return "same (within noise)";
  return "same";
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  try {
    double threshold = 0.05;
    std::string metric = "median_ms";
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kCompareHelp;
        return 0;
      }
      if ((arg == "--threshold" || arg == "--metric") && i + 1 >= args.size())
        throw ExportError("convlab compare: " + arg + " needs a value");
      if (arg == "--threshold") {
        threshold = parse_threshold(args[++i]);
      } else if (arg == "--metric") {
        metric = args[++i];
        if (!field_has_quartiles(metric))
          throw ExportError("convlab compare: --metric: '" + metric +
                            "' is not a timed field (median_ms, end_to_end_ms, h2d_ms, d2h_ms)");
      } else if (!arg.empty() && arg[0] == '-') {
        throw ExportError("convlab compare: unknown option " + arg + " (see --help)");
      } else {
        paths.push_back(arg);
      }
    }
    if (paths.size() != 2) throw ExportError("convlab compare: expected A and B (see --help)");
    const ResultsDocument a = load_results_document(paths[0]);
    const ResultsDocument b = load_results_document(paths[1]);
    // A point is compared with the same point measured on the same machine only.
    std::map<std::string, const json*> a_points;
    std::set<std::string> a_machines, b_machines;
    for (const json* record : latest_ok_points(a.content)) {
      a_points[point_definition(*record) + machine_key(*record)] = record;
      a_machines.insert(machine_label(*record, true));
    }

    std::vector<Comparison> comparisons;
    size_t only_in_b = 0;
    for (const json* record : latest_ok_points(b.content)) {
      b_machines.insert(machine_label(*record, true));
      const auto match = a_points.find(point_definition(*record) + machine_key(*record));
      if (match == a_points.end()) {
        ++only_in_b;
        continue;
      }
      const auto a_value = field_value(*match->second, metric);
      const auto b_value = field_value(*record, metric);
      if (!a_value || !b_value || a_value->number <= 0) continue;
      const double ratio = b_value->number / a_value->number;
      comparisons.push_back({match->second, record, a_value->number, b_value->number, ratio,
                             verdict_for(*match->second, *record, metric, ratio, threshold)});
    }
    const size_t only_in_a = a_points.size() - comparisons.size();
    const auto words = [](const std::set<std::string>& labels) {
      std::string text;
      for (const auto& label : labels) text += (text.empty() ? "" : "; ") + label;
      return text;
    };
    if (comparisons.empty())
      throw ExportError(
          "convlab compare: " + a.path + " and " + b.path + " share no ok point with " + metric +
          " measured on one machine (A: " + words(a_machines) + "; B: " + words(b_machines) + ")");

    std::printf("%-10s %-20s %12s %12s  %s\n", "B/A", "verdict", "A [ms]", "B [ms]", "point");
    size_t slower = 0, faster = 0;
    for (const auto& c : comparisons) {
      slower += c.verdict == "slower";
      faster += c.verdict == "faster";
      std::printf("%-10.4f %-20s %12s %12s  %s\n", c.ratio, c.verdict.c_str(),
                  format_number(c.a_value, 4).c_str(), format_number(c.b_value, 4).c_str(),
                  describe_point(*c.b).c_str());
    }
    std::printf(
        "\n%zu points compared on %s (threshold %s%%): %zu faster, %zu slower, %zu same; %zu only "
        "in A, %zu only in B\n",
        comparisons.size(), metric.c_str(), format_number(threshold * 100, 3).c_str(), faster,
        slower, comparisons.size() - faster - slower, only_in_a, only_in_b);
    if (slower > 0) {
      std::printf("regression: %zu points of %s are slower than in %s\n", slower, b.path.c_str(),
                  a.path.c_str());
      return 1;
    }
    return 0;
  } catch (const ExportError& error) {
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::string files;
    for (const auto& path : paths) files += path + ": ";
    std::cerr << "convlab compare: " << files << error.what() << "\n";
    return 2;
  }
}

}  // namespace convlab
