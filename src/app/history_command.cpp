// convlab history run|show|check: one experiment measured by the convlab of each of several
// commits (app/history_runner.hpp), its series per point and the steps found in them
// (history/history_steps.hpp), and a check for CI that exits 1 on a confirmed regression.
#include <iomanip>
#include <iostream>

#include "app/commands.hpp"
#include "app/history_runner.hpp"
#include "app/metric_option.hpp"
#include "core/count_words.hpp"
#include "core/file_io.hpp"
#include "core/number_text.hpp"
#include "history/history_steps.hpp"
#include "query/record_fields.hpp"

namespace convlab {
namespace {

constexpr const char* kSubcommands = R"(usage: convlab history run CONFIG COMMITS... [options]
       convlab history show DIR [options]
       convlab history check DIR [options]

  run    build the convlab of each commit in a worktree of its own (cached), run CONFIG with it
         and keep each commit's results apart in outputs/history_<name>
  show   every point's median across the commits, its spread, and the steps found
  check  exit 1 on a confirmed regression beyond the threshold, naming the point, the commit
         and the ratio (for CI)

Run `convlab history SUBCOMMAND --help` for its options; docs/history.md explains the method.
)";

CommandLine run_command_line(HistoryRunOptions& options) {
  CommandLine line(
      "history run",
      {{"CONFIG COMMITS... [options]"},
       R"(Builds the convlab of each commit COMMITS names in a git worktree of its own under the cache
folder, configured with this build's CMake arguments (its CMakeCache.txt: build type, compilers
and launchers, CUDA architectures, CONVLAB_ options; ccache is used when it is on PATH and no
launcher is set) and built for the target convlab alone; runs CONFIG with it here, as
`convlab run CONFIG --out DIR/machines/<machine>/<commit>` would, after a CPU calibration of
its own (old commits record none); and records in DIR/history.json how each commit ended: ok,
points_failed, build_failed, run_failed (a convlab that refuses the config, e.g. a key newer
than it, with its message) or interrupted.

COMMITS: A..B (git's range along first parents: B back to, not including, A), a list A,B,C,
or several arguments; oldest first. Built commits are cached by commit and CMake arguments, a
failed build too. Run again, it resumes: commits done are kept, an interrupted one continues
where its convlab stopped.
)",
       "",
       "0 every commit ran ok, 1 some commit did not build, run or had failed points (recorded), "
       "2 bad arguments, config or folder, 130 interrupted."});
  line.positional(
          {"CONFIG", "", true, false, [&](const std::string& text) { options.config_path = text; }})
      .positional({"COMMITS", "", true, true,
                   [&](const std::string& text) { options.commits.push_back(text); }})
      .value("--every", "N", "every Nth commit, counted back from the newest (kept)",
             whole_number_into(options.every, 1, 1000000))
      .value("--out", "DIR", "the history folder (default: outputs/history_<name>)",
             non_empty_into(options.out))
      .value("--repo", "DIR", "the git repository of the commits (default: here)",
             non_empty_into(options.repository))
      .value("--cache", "DIR",
             "where worktrees and builds are kept (default: $CONVLAB_HISTORY_DIR, else "
             "REPO/build/history)",
             non_empty_into(options.cache))
      .option({"--cmake-arg", "", "ARG", "one more argument for CMake's configure step", "", false,
               true, [&](const std::string& text) { options.cmake_args.push_back(text); }})
      .flag("--no-inherit", "configure with --cmake-arg alone, not this build's arguments",
            [&](const std::string&) { options.inherit_cmake_args = false; })
      .value("--jobs", "N", "parallel build jobs (default: the logical CPUs)",
             whole_number_into(options.jobs, 1, 4096))
      .flag("--retry-failed", "build and run again the commits recorded as failed",
            options.retry_failed);
  return line;
}

struct ReadOptions {
  std::string dir;
  StepSettings steps;
  std::string metric = "median_ms";
  std::optional<std::string> since;
};

CommandLine read_command_line(const std::string& name, const std::string& description,
                              const std::string& exit_codes, ReadOptions& options) {
  CommandLine line("history " + name, {{}, description, "", exit_codes});
  line.positional("DIR", options.dir)
      .value("--threshold", "T",
             "the change that counts, 10 % by default; \"10%\", \"10\" and \"0.1\" all mean ten "
             "percent",
             [&](const std::string& text) { options.steps.threshold = parse_percentage(text); })
      .value("--alpha", "P", "the Mann-Whitney test's level, 0.05 by default",
             [&](const std::string& text) { options.steps.alpha = parse_probability(text); })
      .value("--metric", "FIELD", kMetricOptionHelp,
             [&](const std::string& text) { options.metric = checked_metric(text); })
      .value("--since", "COMMIT",
             "only steps at this commit of the history (an id or its first digits) or later",
             options.since);
  return line;
}

const char* kStepsMethod =
    R"(Per point and machine, the commits' medians in commit order are cut into pieces of constant
level by PELT on their logarithms (penalty 8 sigma^2 ln n, sigma the larger of the neighbour
noise and a median's own error); each change is a step, confirmed by the two-sided Mann-Whitney
U test on the raw samples of the commits on either side, and judged as convlab compare judges
two results: slower or faster beyond the threshold with p < alpha.
)";

// The commit a --since names: its place in the history; HistoryError when none or several.
std::size_t commit_named(const HistoryIndex& index, const std::string& prefix) {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < index.commits.size(); ++i)
    if (!prefix.empty() && index.commits[i].id.compare(0, prefix.size(), prefix) == 0) {
      if (found) throw HistoryError("--since " + prefix + ": names several commits");
      found = i;
    }
  if (!found) throw HistoryError("--since " + prefix + ": no commit of the history");
  return *found;
}

void print_commits(const History& history) {
  std::cout << "# " << history.index.experiment << ": "
            << count_words(history.index.commits.size(), "commit") << ", "
            << count_words(history.panels.size(), "machine panel") << "\n\n";
  for (const CommitRun& run : history.index.runs) {
    const HistoryCommit& commit = history.index.commits[*history.index.commit_index(run.commit)];
    std::cout << commit.id.substr(0, 12) << "  " << to_string(run.outcome) << "  "
              << run.machine.label << "  " << commit.subject << "\n";
    if (!run.reason.empty())
      std::cout << "    " << run.reason.substr(0, run.reason.find('\n')) << "\n";
  }
  for (const auto& note : history.notes) std::cout << "note: " << note << "\n";
}

void print_points(const History& history, const std::vector<HistoryStep>& steps) {
  std::cout << "\nmedian across commits  spread  commits  steps  point\n";
  for (std::size_t i = 0; i < history.points.size(); ++i) {
    const PointHistory& point = history.points[i];
    std::size_t counted = 0;
    for (const HistoryStep& step : steps)
      counted += step.point == i && step.verdict != ChangeVerdict::same;
    std::cout << std::setw(22) << format_number(point.median, 4) << "  " << std::setw(5)
              << format_number(point.spread * 100, 2) << "%  " << std::setw(7)
              << point.commits.size() << "  " << std::setw(5) << counted << "  " << point.point
              << "\n";
  }
}

// The steps beyond the threshold, confirmed or within noise, at --since or later.
std::vector<const HistoryStep*> steps_shown(const std::vector<HistoryStep>& steps,
                                            std::optional<std::size_t> since) {
  std::vector<const HistoryStep*> shown;
  for (const HistoryStep& step : steps)
    if (step.verdict != ChangeVerdict::same && (!since || step.at >= *since))
      shown.push_back(&step);
  return shown;
}

int show_history(const ReadOptions& options) {
  const History history = load_history(options.dir, options.metric);
  const std::vector<HistoryStep> steps = find_steps(history, options.steps);
  print_commits(history);
  print_points(history, steps);
  const auto shown = steps_shown(steps, std::nullopt);
  std::cout << "\n"
            << count_words(shown.size(), "step") << " beyond "
            << format_number(options.steps.threshold * 100, 3) << " %:\n";
  for (const HistoryStep* step : shown) std::cout << "  " << step_words(history, *step) << "\n";
  return 0;
}

int check_history(const ReadOptions& options) {
  const History history = load_history(options.dir, options.metric);
  const std::optional<std::size_t> since =
      options.since ? std::optional<std::size_t>(commit_named(history.index, *options.since))
                    : std::nullopt;
  const std::vector<HistoryStep> steps = find_steps(history, options.steps);
  std::size_t regressions = 0;
  for (const HistoryStep* step : steps_shown(steps, since)) {
    const char* kind = step->regression()    ? "regression"
                       : step->improvement() ? "improvement"
                                             : "unconfirmed";
    regressions += step->regression();
    std::cout << kind << ": " << step_words(history, *step) << "\n";
  }
  for (const CommitRun& run : history.index.runs)
    if (run.outcome != CommitOutcome::ok)
      std::cout << "not measured in full: " << run.commit.substr(0, 12) << " on "
                << run.machine.label << ": " << to_string(run.outcome) << "\n";
  std::cout << history.index.experiment << ": " << count_words(history.points.size(), "point")
            << " over " << count_words(history.index.commits.size(), "commit") << ", "
            << count_words(regressions, "confirmed regression") << " beyond "
            << format_number(options.steps.threshold * 100, 3) << " %\n";
  return regressions > 0 ? 1 : 0;
}

}  // namespace

int history_command(const Arguments& args) {
  if (args.empty() || args.front() == "--help" || args.front() == "-h") {
    (args.empty() ? std::cerr : std::cout) << kSubcommands;
    return args.empty() ? 2 : 0;
  }
  const std::string subcommand = args.front();
  const Arguments rest(args.begin() + 1, args.end());
  try {
    if (subcommand == "run") {
      HistoryRunOptions options;
      if (const auto status = run_command_line(options).parse(rest)) return *status;
      return run_history(options);
    }
    ReadOptions options;
    if (subcommand == "show") {
      if (const auto status =
              read_command_line("show",
                                "Prints a history folder: how each commit's run ended, every "
                                "point's median across the commits with its spread,\nand the "
                                "steps beyond the threshold.\n\n" +
                                    std::string(kStepsMethod),
                                "0 printed, 2 not a history folder or bad arguments.", options)
                  .parse(rest))
        return *status;
      return show_history(options);
    }
    if (subcommand == "check") {
      if (const auto status =
              read_command_line("check",
                                "Checks a history folder for regressions: prints each step "
                                "beyond the threshold (regression, improvement or\nunconfirmed), "
                                "naming the point, the commit and the ratio, and the commits not "
                                "measured in full.\n\n" +
                                    std::string(kStepsMethod),
                                "0 no confirmed regression, 1 a confirmed regression, 2 not a "
                                "history folder or bad arguments.",
                                options)
                  .parse(rest))
        return *status;
      return check_history(options);
    }
    std::cerr << "convlab history: unknown subcommand '" << subcommand.substr(0, 64)
              << "' (run, show or check)\n\n"
              << kSubcommands;
    return 2;
  } catch (const std::exception&) {
    return report_reading_error("history");
  }
}

}  // namespace convlab
