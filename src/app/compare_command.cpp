// convlab compare A B: for every point measured in both result sets, the ratio of B's median to
// A's, a Mann-Whitney U test on the raw samples and a verdict. Points are matched by what they
// measure (point_definition), not by key: keys include the build id, which differs between the
// builds being compared.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "app/commands.hpp"
#include "app/metric_option.hpp"
#include "core/count_words.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "figures/figure_data.hpp"
#include "measure/mann_whitney.hpp"
#include "query/mixed_runs.hpp"
#include "query/record_fields.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

using nlohmann::json;

// printf formatting onto std::cout, whose writes are checked (core/standard_output.hpp).
__attribute__((format(printf, 1, 2))) void print(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  va_list again;
  va_copy(again, arguments);
  const int size = std::vsnprintf(nullptr, 0, format, arguments);
  va_end(arguments);
  std::string text(size > 0 ? static_cast<size_t>(size) : 0, '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  std::cout << text;
}

struct Comparison {
  const Record* a;
  const Record* b;
  double a_value;
  double b_value;
  double ratio;
  MannWhitney test;
  std::string verdict;
};

double geometric_mean(const std::vector<double>& ratios) {
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return ratios.empty() ? 1.0 : std::exp(log_sum / double(ratios.size()));
}

std::string percent_change(double ratio) {
  const double change = (ratio - 1) * 100;
  return (change >= 0 ? "+" : "") + format_number(change, 2) + " %";
}

struct CompareOptions {
  std::vector<std::string> paths;
  double threshold = 0.05;
  double alpha = 0.05;
  std::string metric = "median_ms";
  std::optional<std::string> json_path;
  std::optional<PointFilter> filter;
};

CommandLine compare_command_line(CompareOptions& options) {
  CommandLine line(
      "compare",
      {{},
       R"help(Compares two results (results.json files or the directories holding them), point by point, for
every ok point present in both; points are matched by implementation, params, image, kernel,
border and output, so results of different builds compare.

For each point: ratio = median of B / median of A, the Mann-Whitney U test on the raw samples of
A and B (two-sided; exact when the smaller sample has fewer than 8 values and none is tied,
otherwise the normal approximation with tie and continuity corrections), and a verdict:
  slower  ratio > 1 + threshold and p < alpha
  faster  ratio < 1 / (1 + threshold) and p < alpha
  same    otherwise; "same (within noise)" when beyond the threshold but p >= alpha, and
          "same (too few samples)" when the sample counts cannot reach p < alpha at all
The summary gives the geometric mean of the ratios, over all points and per implementation.
Then how A's runs differ from B's, each on a line of its own: another build, another machine
(the CPU calibrations recorded when the runs started apart, the multiply-add rate by more than
10 % or the copy bandwidth by more than a factor of 2: "another machine (calibration 28 %
apart: ...)"), another commit, another load; a ratio may then be the conditions', not the
code's.
)help",
       "",
       "0 no point of B slower, 1 some point of B slower, 2 bad input or "
       "output that could not be written."});
  const auto path = [&](const std::string& text) { options.paths.push_back(text); };
  line.positional({"A", "", true, false, path})
      .positional({"B", "", true, false, path})
      .value("--threshold", "T",
             "the change that counts, 5 % by default; \"5%\", \"5\" and \"0.05\" all mean five "
             "percent",
             [&](const std::string& text) { options.threshold = parse_percentage(text); })
      .value("--alpha", "P", "significance level, 0.05 by default",
             [&](const std::string& text) { options.alpha = parse_probability(text); })
      .value("--metric", "FIELD", kMetricOptionHelp,
             [&](const std::string& text) { options.metric = checked_metric(text); })
      .value("--filter", "EXPR",
             "only the points matching EXPR (as convlab run --filter), in A and in B; a filter "
             "that matches no point of A or of B is an error",
             filter_into(options.filter))
      .value("--json", "FILE",
             "also write every point's ratio, U, p-value and verdict, and the summary",
             options.json_path);
  return line;
}

struct CompareOutcome {
  std::vector<Comparison> comparisons;
  size_t only_in_a = 0;
  size_t only_in_b = 0;
  std::set<std::string> a_machines, b_machines;
};

// The latest ok points of one side, those --filter keeps when it is given.
std::vector<const Record*> selected_points(const ResultsDocument& results,
                                           const CompareOptions& options) {
  const std::vector<const Record*> points = latest_ok_points(results);
  if (!options.filter) return points;
  try {
    return select_records(points, *options.filter, results.path);
  } catch (const ResultsError& error) {
    throw ResultsError(std::string("convlab compare: ") + error.what());
  }
}

// The points of B matched with the same point measured on the same machine in A: the same host
// and, for GPU points, the same GPU model, whichever device of that model (a GPU machine lent
// for a session is another device of one model each time), as a results file keeps them.
CompareOutcome compare_points(const ResultsDocument& a, const ResultsDocument& b,
                              const CompareOptions& options) {
  CompareOutcome outcome;
  std::map<std::string, const Record*> a_points;
  for (const Record* record : selected_points(a, options)) {
    a_points[point_definition(*record) + machine_model_key(*record)] = record;
    outcome.a_machines.insert(machine_label(*record, true));
  }
  for (const Record* record : selected_points(b, options)) {
    outcome.b_machines.insert(machine_label(*record, true));
    const auto match = a_points.find(point_definition(*record) + machine_model_key(*record));
    if (match == a_points.end()) {
      ++outcome.only_in_b;
      continue;
    }
    const auto a_value = field_value(*match->second, options.metric);
    const auto b_value = field_value(*record, options.metric);
    if (!a_value || !b_value || a_value->number <= 0) continue;
    const std::vector<double> a_samples = field_samples(*match->second, options.metric);
    const std::vector<double> b_samples = field_samples(*record, options.metric);
    Comparison c{match->second,
                 record,
                 a_value->number,
                 b_value->number,
                 b_value->number / a_value->number,
                 mann_whitney_u(a_samples, b_samples),
                 ""};
    c.verdict = to_string(change_verdict(c.ratio, c.test, a_samples.size(), b_samples.size(),
                                         options.threshold, options.alpha));
    outcome.comparisons.push_back(c);
  }
  outcome.only_in_a = a_points.size() - outcome.comparisons.size();
  return outcome;
}

size_t count_verdicts(const CompareOutcome& outcome, const std::string& verdict) {
  return static_cast<size_t>(
      std::count_if(outcome.comparisons.begin(), outcome.comparisons.end(),
                    [&](const Comparison& c) { return c.verdict == verdict; }));
}

std::map<std::string, std::vector<double>> ratios_by_implementation(const CompareOutcome& outcome) {
  std::map<std::string, std::vector<double>> ratios;
  for (const auto& c : outcome.comparisons) ratios[c.b->implementation].push_back(c.ratio);
  return ratios;
}

std::vector<double> all_ratios(const CompareOutcome& outcome) {
  std::vector<double> ratios;
  for (const auto& c : outcome.comparisons) ratios.push_back(c.ratio);
  return ratios;
}

void print_comparisons(const CompareOutcome& outcome, const CompareOptions& options) {
  print("%-10s %-24s %12s %12s %9s  %s\n", "B/A", "verdict", "A [ms]", "B [ms]", "p", "point");
  for (const auto& c : outcome.comparisons)
    print("%-10.4f %-24s %12s %12s %9s  %s\n", c.ratio, c.verdict.c_str(),
          format_number(c.a_value, 4).c_str(), format_number(c.b_value, 4).c_str(),
          format_number(c.test.p_value, 2).c_str(), point_in_words(*c.b).c_str());
  const std::vector<double> ratios = all_ratios(outcome);
  const double overall = geometric_mean(ratios);
  print("\ngeometric mean of B/A: %s (%s) over %s\n", format_number(overall, 4).c_str(),
        percent_change(overall).c_str(), count_words(ratios.size(), "point").c_str());
  for (const auto& [implementation, list] : ratios_by_implementation(outcome)) {
    const double mean = geometric_mean(list);
    print("  %-20s %s (%s) over %s\n", implementation.c_str(), format_number(mean, 4).c_str(),
          percent_change(mean).c_str(), count_words(list.size(), "point").c_str());
  }
  const size_t faster = count_verdicts(outcome, "faster"),
               slower = count_verdicts(outcome, "slower");
  print(
      "\n%s compared on %s (threshold %s%%, Mann-Whitney U at alpha %s): %zu faster, %zu "
      "slower, %zu same; %zu only in A, %zu only in B\n",
      count_words(outcome.comparisons.size(), "point").c_str(), options.metric.c_str(),
      format_number(options.threshold * 100, 3).c_str(), format_exact(options.alpha).c_str(),
      faster, slower, outcome.comparisons.size() - faster - slower, outcome.only_in_a,
      outcome.only_in_b);
}

json comparison_json(const Comparison& c) {
  return {{"point", point_in_words(*c.b)},
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
          {"verdict", c.verdict}};
}

void write_verdicts(const CompareOutcome& outcome, const CompareOptions& options,
                    const ResultsDocument& a, const ResultsDocument& b,
                    const std::vector<std::string>& conditions) {
  json verdicts{{"a", a.path},
                {"b", b.path},
                {"metric", options.metric},
                {"threshold", options.threshold},
                {"alpha", options.alpha},
                {"test",
                 "Mann-Whitney U, two-sided; exact below 8 samples without ties, else normal "
                 "approximation with tie and continuity corrections"},
                {"points", json::array()}};
  for (const auto& c : outcome.comparisons) verdicts["points"].push_back(comparison_json(c));
  json per_implementation = json::object();
  for (const auto& [implementation, list] : ratios_by_implementation(outcome))
    per_implementation[implementation] = {{"geomean_ratio", geometric_mean(list)},
                                          {"points", list.size()}};
  const size_t faster = count_verdicts(outcome, "faster"),
               slower = count_verdicts(outcome, "slower");
  verdicts["summary"] = {{"geomean_ratio", geometric_mean(all_ratios(outcome))},
                         {"per_implementation", per_implementation},
                         {"faster", faster},
                         {"slower", slower},
                         {"same", outcome.comparisons.size() - faster - slower},
                         {"only_in_a", outcome.only_in_a},
                         {"only_in_b", outcome.only_in_b}};
  verdicts["conditions"] = conditions;
  write_file(*options.json_path, verdicts.dump(1) + "\n", WriteTarget::named);
}

std::string machines_words(const std::set<std::string>& labels) {
  std::string text;
  for (const auto& label : labels) text += (text.empty() ? "" : "; ") + label;
  return text;
}

// The records each side compared, with the runs of its file.
MixedRuns side_runs(const CompareOutcome& outcome, const ResultsDocument& side, bool a_side) {
  std::vector<const Record*> compared;
  for (const auto& c : outcome.comparisons) compared.push_back(a_side ? c.a : c.b);
  return mixed_runs(compared, side.file.runs);
}

// How A's runs differ from B's, each finding on its own line: another build, another machine
// (their CPU calibrations apart), another commit, another load; then a side whose own runs differ
// among themselves. A ratio may then be the conditions', not the code's.
std::vector<std::string> conditions_findings(const CompareOutcome& outcome,
                                             const ResultsDocument& a, const ResultsDocument& b) {
  const MixedRuns a_runs = side_runs(outcome, a, true), b_runs = side_runs(outcome, b, false);
  std::vector<std::string> findings = differences_between(a_runs, b_runs);
  if (a_runs.mixed()) findings.push_back("A: " + mixed_runs_note(a_runs));
  if (b_runs.mixed()) findings.push_back("B: " + mixed_runs_note(b_runs));
  return findings;
}

void print_conditions(const std::vector<std::string>& findings) {
  if (findings.empty()) return;
  print("\nA against B:\n");
  for (const auto& finding : findings) print("  %s\n", finding.c_str());
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  CompareOptions options;
  if (const auto status = compare_command_line(options).parse(args)) return *status;
  const std::vector<std::string>& paths = options.paths;
  try {
    const ResultsDocument a = load_results_document(paths[0]);
    const ResultsDocument b = load_results_document(paths[1]);
    const CompareOutcome outcome = compare_points(a, b, options);
    if (outcome.comparisons.empty())
      throw ResultsError("convlab compare: " + a.path + " and " + b.path +
                         " share no ok point with " + options.metric +
                         " measured on one machine (A: " + machines_words(outcome.a_machines) +
                         "; B: " + machines_words(outcome.b_machines) + ")");
    print_comparisons(outcome, options);
    const std::vector<std::string> findings = conditions_findings(outcome, a, b);
    print_conditions(findings);
    if (options.json_path) write_verdicts(outcome, options, a, b, findings);
    const size_t slower = count_verdicts(outcome, "slower");
    if (slower > 0) {
      print("regression: %zu points of %s are slower than in %s\n", slower, b.path.c_str(),
            a.path.c_str());
      return 1;
    }
    return 0;
  } catch (const ResultsError& error) {
    std::cerr << bounded_message(error.what()) << "\n";
    return 2;
  } catch (const FileError& error) {
    return report_command_error("compare", error);
  } catch (const std::exception& error) {
    std::string files;
    for (const auto& path : paths) files += path + ": ";
    std::cerr << "convlab compare: " << files << bounded_message(error.what()) << "\n";
    return 2;
  }
}

}  // namespace convlab
