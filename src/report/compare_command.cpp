// convlab compare A B: for every point measured in both result sets, the ratio of B's median to
// A's, a Mann-Whitney U test on the raw samples and a verdict. Points are matched by what they
// measure (point_definition), not by key: keys include the build id, which differs between the
// builds being compared.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "measure/mann_whitney.hpp"
#include "report/commands.hpp"
#include "report/figure_data.hpp"
#include "report/record_fields.hpp"
#include "report/results_document.hpp"
#include "results/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

const char* const kCompareHelp =
    R"help(usage: convlab compare A B [--threshold PERCENT] [--alpha P] [--metric FIELD] [--json FILE]

Compares two results (results.json files or the directories holding them), point by point, for
every ok point present in both; points are matched by implementation, params, image, kernel,
border and output, so results of different builds compare.

For each point: ratio = median of B / median of A, the Mann-Whitney U test on the raw samples of
A and B (two-sided; exact when the smaller sample has fewer than 8 values and none is tied,
otherwise the normal approximation with tie and continuity corrections), and a verdict:
  slower  ratio > 1 + threshold and p < alpha
  faster  ratio < 1 / (1 + threshold) and p < alpha
  same    otherwise: "same (within noise)" when beyond the threshold but p >= alpha,
                  and"same (too few samples)" when the sample counts cannot reach p <
                      alpha at all The summary gives the geometric mean of the ratios,
                  over all points and per implementation.

                      --threshold T 5 %
                      by default; "5%", "5" and "0.05" all mean five percent
  --alpha P       significance level, 0.05 by default
  --metric FIELD  median_ms (default), end_to_end_ms, h2d_ms or d2h_ms
  --json FILE     also write every point's ratio, U, p-value and verdict, and the summary
Exit codes: 0 no point of B slower, 1 some point of B slower, 2 bad input.
)help";

struct Comparison {
  const Record* a;
  const Record* b;
  double a_value;
  double b_value;
  double ratio;
  MannWhitney test;
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

double parse_alpha(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0 && value < 1))
    throw ExportError("convlab compare: --alpha: '" + text + "' is not a probability in (0, 1)");
  return value;
}

// The smallest two-sided p-value samples of these sizes can give (exact test, no ties).
double smallest_p(size_t m, size_t n) {
  if (std::min(m, n) >= 8) return 0.0;
  double arrangements = 1;  // (m + n choose m)
  for (size_t i = 1; i <= m; ++i) arrangements = arrangements * double(n + i) / double(i);
  return std::min(1.0, 2 / arrangements);
}

std::string verdict_for(const Comparison& c, size_t a_count, size_t b_count, double threshold,
                        double alpha) {
  const bool significant = c.test.p_value < alpha;
  if (c.ratio > 1 + threshold && significant) return "slower";
  if (c.ratio < 1 / (1 + threshold) && significant) return "faster";
  if (std::fabs(c.ratio - 1) > threshold)
    return smallest_p(a_count, b_count) >= alpha ? "same (too few samples)" : "same (within noise)";
  return "same";
}

double geometric_mean(const std::vector<double>& ratios) {
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return ratios.empty() ? 1.0 : std::exp(log_sum / double(ratios.size()));
}

std::string percent_change(double ratio) {
  const double change = (ratio - 1) * 100;
  return (change >= 0 ? "+" : "") + format_number(change, 2) + " %";
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  try {
    double threshold = 0.05, alpha = 0.05;
    std::string metric = "median_ms";
    std::optional<std::string> json_path;
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg == "--help" || arg == "-h") {
        std::cout << kCompareHelp;
        return 0;
      }
      const bool takes_value =
          arg == "--threshold" || arg == "--metric" || arg == "--alpha" || arg == "--json";
      if (takes_value && i + 1 >= args.size())
        throw ExportError("convlab compare: " + arg + " needs a value");
      if (arg == "--threshold") {
        threshold = parse_threshold(args[++i]);
      } else if (arg == "--alpha") {
        alpha = parse_alpha(args[++i]);
      } else if (arg == "--json") {
        json_path = args[++i];
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
    std::map<std::string, const Record*> a_points;
    std::set<std::string> a_machines, b_machines;
    for (const Record* record : latest_ok_points(a)) {
      a_points[point_definition(*record) + machine_key(*record)] = record;
      a_machines.insert(machine_label(*record, true));
    }

    std::vector<Comparison> comparisons;
    size_t only_in_b = 0;
    for (const Record* record : latest_ok_points(b)) {
      b_machines.insert(machine_label(*record, true));
      const auto match = a_points.find(point_definition(*record) + machine_key(*record));
      if (match == a_points.end()) {
        ++only_in_b;
        continue;
      }
      const auto a_value = field_value(*match->second, metric);
      const auto b_value = field_value(*record, metric);
      if (!a_value || !b_value || a_value->number <= 0) continue;
      const std::vector<double> a_samples = field_samples(*match->second, metric);
      const std::vector<double> b_samples = field_samples(*record, metric);
      Comparison c{match->second,
                   record,
                   a_value->number,
                   b_value->number,
                   b_value->number / a_value->number,
                   mann_whitney_u(a_samples, b_samples),
                   ""};
      c.verdict = verdict_for(c, a_samples.size(), b_samples.size(), threshold, alpha);
      comparisons.push_back(c);
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

    std::printf("%-10s %-24s %12s %12s %9s  %s\n", "B/A", "verdict", "A [ms]", "B [ms]", "p",
                "point");
    size_t slower = 0, faster = 0;
    std::vector<double> ratios;
    std::map<std::string, std::vector<double>> ratios_by_implementation;
    for (const auto& c : comparisons) {
      slower += c.verdict == "slower";
      faster += c.verdict == "faster";
      ratios.push_back(c.ratio);
      ratios_by_implementation[c.b->implementation].push_back(c.ratio);
      std::printf("%-10.4f %-24s %12s %12s %9s  %s\n", c.ratio, c.verdict.c_str(),
                  format_number(c.a_value, 4).c_str(), format_number(c.b_value, 4).c_str(),
                  format_number(c.test.p_value, 2).c_str(), describe_point(*c.b).c_str());
    }
    const double overall = geometric_mean(ratios);
    std::printf("\ngeometric mean of B/A: %s (%s) over %zu points\n",
                format_number(overall, 4).c_str(), percent_change(overall).c_str(), ratios.size());
    for (const auto& [implementation, list] : ratios_by_implementation) {
      const double mean = geometric_mean(list);
      std::printf("  %-20s %s (%s) over %zu points\n", implementation.c_str(),
                  format_number(mean, 4).c_str(), percent_change(mean).c_str(), list.size());
    }
    std::printf(
        "\n%zu points compared on %s (threshold %s%%, Mann-Whitney U at alpha %s): %zu faster, %zu "
        "slower, %zu same; %zu only in A, %zu only in B\n",
        comparisons.size(), metric.c_str(), format_number(threshold * 100, 3).c_str(),
        format_exact(alpha).c_str(), faster, slower, comparisons.size() - faster - slower,
        only_in_a, only_in_b);

    if (json_path) {
      json verdicts{{"a", a.path},
                    {"b", b.path},
                    {"metric", metric},
                    {"threshold", threshold},
                    {"alpha", alpha},
                    {"test",
                     "Mann-Whitney U, two-sided; exact below 8 samples without ties, else normal "
                     "approximation with tie and continuity corrections"},
                    {"points", json::array()}};
      for (const auto& c : comparisons)
        verdicts["points"].push_back({{"point", describe_point(*c.b)},
                                      {"implementation", c.b->implementation},
                                      {"params", c.b->params},
                                      {"image", c.b->image.name},
                                      {"kernel", c.b->kernel.name},
                                      {"border", c.b->border},
                                      {"output", c.b->output},
                                      {"a", c.a_value},
                                      {"b", c.b_value},
                                      {"ratio", c.ratio},
                                      {"u", c.test.u},
                                      {"p_value", c.test.p_value},
                                      {"exact", c.test.exact},
                                      {"verdict", c.verdict}});
      json per_implementation = json::object();
      for (const auto& [implementation, list] : ratios_by_implementation)
        per_implementation[implementation] = {{"geomean_ratio", geometric_mean(list)},
                                              {"points", list.size()}};
      verdicts["summary"] = {{"geomean_ratio", overall},
                             {"per_implementation", per_implementation},
                             {"faster", faster},
                             {"slower", slower},
                             {"same", comparisons.size() - faster - slower},
                             {"only_in_a", only_in_a},
                             {"only_in_b", only_in_b}};
      std::ofstream out(*json_path);
      out << verdicts.dump(1) << "\n";
      if (!out) throw ExportError("convlab compare: --json: cannot write " + *json_path);
    }
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
