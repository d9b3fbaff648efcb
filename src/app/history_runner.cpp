#include "app/history_runner.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/config_loading.hpp"
#include "config/config_error.hpp"
#include "core/child_processes.hpp"
#include "core/file_io.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "history/build_recipe.hpp"
#include "history/commit_selection.hpp"
#include "history/history_index.hpp"
#include "measure/cpu_calibration.hpp"
#include "measure/provenance.hpp"
#include "query/record_queries.hpp"
#include "query/results_document.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// SIGINT or SIGTERM while a commit builds or runs: the child, in the same process group, takes
// the terminal's signal too, or is sent it when it came to this process alone, and stops (a
// convlab run keeps its results for the resume); this process notes it, records nothing about
// the commit and stops after the child.
volatile sig_atomic_t signal_seen = 0;

class InterruptNote {
 public:
  InterruptNote() {
    struct sigaction action {};
    // A signal to this process alone (kill PID, not the terminal's to the whole group) goes
    // on to the child it waits for, once: otherwise a run of hours would go on to its end.
    action.sa_handler = [](int signal) {
      if (!signal_seen) signal_running_jobs(signal);
      signal_seen = 1;
    };
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previous_int_);
    ::sigaction(SIGTERM, &action, &previous_term_);
  }
  ~InterruptNote() {
    ::sigaction(SIGINT, &previous_int_, nullptr);
    ::sigaction(SIGTERM, &previous_term_, nullptr);
  }
  InterruptNote(const InterruptNote&) = delete;
  InterruptNote& operator=(const InterruptNote&) = delete;

 private:
  struct sigaction previous_int_ {
  }, previous_term_{};
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A program run to its end with its output in `log`, which is read back.
struct Ran {
  int exit_code = -1;
  std::string output;
};

Ran run_logged(std::vector<std::string> argv, const std::string& directory, const std::string& log,
               std::vector<std::string> environment = {}) {
  std::vector<ChildJob> jobs{{std::move(argv), directory, log, -1, std::move(environment)}};
  run_jobs(jobs, 1);
  Ran ran;
  ran.exit_code = jobs.front().exit_code;
  try {
    ran.output = read_file_if_present(log, std::size_t(64) << 20).value_or("");
  } catch (const FileError& error) {
    ran.output = error.what();
  }
  return ran;
}

bool interrupted(int exit_code) {
  return signal_seen || exit_code == 130 || exit_code == 143;
}

// The folder a history works in: its options resolved to absolute paths, the machine, the recipe.
struct HistoryPlace {
  std::string repository;  // the top of the work tree
  std::string out, cache, config;
  std::string scratch;  // out/.git-output.log: what git printed for the last query
  std::string here;     // where the commits' convlab runs, as `convlab run` would here
  HistoryMachine machine;
  BuildRecipe recipe;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool commit_id_line(const std::string& line) {
  return line.size() == 40 && std::all_of(line.begin(), line.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

Ran git(const HistoryPlace& place, std::vector<std::string> argv) {
  Ran ran = run_logged(std::move(argv), place.repository, place.scratch);
  fs::remove(place.scratch);
  return ran;
}

// The commits COMMITS names, oldest first, each once, thinned by --every.
std::vector<HistoryCommit> selected_commits(const HistoryPlace& place,
                                            const HistoryRunOptions& options) {
  std::vector<std::string> ids;
  for (const auto& part : parse_commit_selection(options.commits).parts) {
    const Ran ran = git(place, part_ids_argv(part));
    if (ran.exit_code != 0)
      throw HistoryError("git cannot read " + (part.range ? part.from + ".." + part.to : part.to) +
                         " in " + place.repository + ": " + log_tail(ran.output, 3));
    for (const auto& line : lines_of(ran.output))
      if (commit_id_line(line)) ids.push_back(line);
  }
  ids = every_nth(unique_in_order(ids), options.every);
  if (ids.empty()) throw HistoryError("COMMITS: names no commit (an empty range?)");
  const Ran facts = git(place, commit_facts_argv(ids));
  if (facts.exit_code != 0) throw HistoryError("git show failed: " + log_tail(facts.output, 3));
  std::vector<HistoryCommit> commits;
  for (const auto& line : lines_of(facts.output))
    if (line.find('\x1f') != std::string::npos) commits.push_back(commit_from_show_line(line));
  if (commits.size() != ids.size())
    throw HistoryError("git show named " + std::to_string(commits.size()) + " of " +
                       std::to_string(ids.size()) + " commits");
  // Measured oldest first, whatever the order they were named in.
  std::stable_sort(commits.begin(), commits.end(),
                   [](const HistoryCommit& a, const HistoryCommit& b) { return a.time < b.time; });
  return commits;
}

// This host, as records name it (store/machine.hpp), and a folder name for it.
HistoryMachine this_machine() {
  RunBlock here;
  here.host = host_facts();
  Record record;
  record.machine = machine_from_run(here, Family::cpu);
  std::string name;
  for (const char c : record.machine->hostname)
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  if (name.empty()) name = "host";
  const std::string key = host_key(record);
  return {name.substr(0, 40) + "-" + sha256_hex(key).substr(0, 8), machine_label(record, false),
          key};
}

// The CMake arguments of this build (the CMakeCache.txt beside this executable), the user's after.
std::vector<std::string> recipe_args(const HistoryRunOptions& options) {
  std::vector<std::string> args;
  if (options.inherit_cmake_args) {
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    const fs::path cache = self.parent_path() / "CMakeCache.txt";
    if (!error && fs::is_regular_file(cache))
      args = inherited_cmake_args(read_file(cache.string(), std::size_t(16) << 20));
    else
      args = {"-DCMAKE_BUILD_TYPE=Release"};
    args = with_ccache(std::move(args), program_available("ccache"));
  }
  args.insert(args.end(), options.cmake_args.begin(), options.cmake_args.end());
  return args;
}

std::string absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

std::string default_cache(const std::string& repository) {
  const char* variable = std::getenv("CONVLAB_HISTORY_DIR");
  if (variable != nullptr && *variable != '\0') return absolute(variable);
  return repository + "/build/history";
}

HistoryPlace place_of(const HistoryRunOptions& options, const std::string& experiment) {
  HistoryPlace place;
  place.here = fs::current_path().string();
  place.config = absolute(options.config_path);
  place.out = absolute(options.out.empty() ? "outputs/history_" + experiment : options.out);
  create_folders(place.out);
  place.scratch = place.out + "/.git-output.log";
  place.repository = absolute(options.repository);
  const Ran top = git(place, {"git", "rev-parse", "--show-toplevel"});
  const auto lines = lines_of(top.output);
  if (top.exit_code != 0 || lines.empty())
    throw HistoryError("--repo " + options.repository + ": not in a git repository (" +
                       log_tail(top.output, 2) + ")");
  place.repository = lines.back();
  place.cache = options.cache.empty() ? default_cache(place.repository) : absolute(options.cache);
  create_folders(place.cache);
  place.machine = this_machine();
  place.recipe.cmake_args = recipe_args(options);
  place.recipe.jobs =
      options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  return place;
}

// The index of the folder, or a new one; a folder of another experiment is refused.
HistoryIndex index_for(const HistoryPlace& place, const std::string& experiment,
                       const HistoryRunOptions& options) {
  HistoryIndex index;
  if (holds_history(place.out)) {
    index = read_history_index(place.out);
    if (index.experiment != experiment)
      throw HistoryError(place.out + "/" + kHistoryIndexFile + ": a history of '" +
                         index.experiment + "', not of '" + experiment + "'; give another --out");
  }
  index.experiment = experiment;
  index.config_path = options.config_path;
  index.repository = place.repository;
  index.cmake_args = place.recipe.cmake_args;
  return index;
}

struct Built {
  bool ok = false;
  bool cached = false;
  std::string reason;
  double seconds = 0.0;
};

// A worktree of the commit at its folder: a folder left by an interrupted `git worktree add`, or
// one that holds another commit, is made again.
std::optional<std::string> ensure_worktree(const HistoryPlace& place, const std::string& commit,
                                           const std::string& log) {
  const std::string folder = worktree_folder(place.cache, commit);
  if (fs::exists(folder)) {
    const Ran head = run_logged({"git", "rev-parse", "HEAD"}, folder, log);
    const auto lines = lines_of(head.output);
    if (head.exit_code == 0 && !lines.empty() && lines.back() == commit &&
        fs::exists(fs::path(folder) / ".git"))
      return std::nullopt;
    fs::remove_all(folder);
  }
  git(place, {"git", "worktree", "prune"});
  const Ran added = run_logged(worktree_add_argv(folder, commit), place.repository, log);
  if (added.exit_code != 0) return "git worktree add failed: " + log_tail(added.output, 6);
  return std::nullopt;
}

std::optional<BuildStamp> stamp_of(const HistoryPlace& place, const std::string& commit) {
  const std::string path = build_folder(place.cache, commit) + "/" + kBuildStampFile;
  try {
    const auto text = read_file_if_present(path, 1 << 20);
    return text ? build_stamp_from_text(*text) : std::nullopt;
  } catch (const FileError&) {
    return std::nullopt;
  }
}

// The commit's convlab: from the cache when its stamp says it was built with this recipe (a
// failure too, unless --retry-failed), else configured and built, its log in `log`.
Built build_commit(const HistoryPlace& place, const std::string& commit, const std::string& log,
                   bool retry_failed) {
  const std::string digest = recipe_digest(place.recipe);
  if (const auto stamp = stamp_of(place, commit); stamp && stamp->recipe == digest) {
    const bool usable = stamp->built && fs::is_regular_file(built_executable(place.cache, commit));
    if (usable || (!stamp->built && !retry_failed))
      return {stamp->built, true, stamp->reason, stamp->seconds};
  }
  const auto start = Clock::now();
  Built built;
  if (const auto failed = ensure_worktree(place, commit, log)) {
    built.reason = *failed;
    built.seconds = seconds_since(start);
    return built;  // not stamped: the worktree is the cache's trouble, not the commit's
  }
  const std::string source = worktree_folder(place.cache, commit);
  const std::string build = build_folder(place.cache, commit);
  create_folders(build);
  const std::string build_log = build + "/convlab-history-build.log";
  Ran ran = run_logged(configure_argv(place.recipe, source, build), source, build_log);
  std::string output = ran.output;
  if (ran.exit_code == 0) {
    ran = run_logged(build_argv(place.recipe, build), source, build_log);
    output += ran.output;
  }
  write_file(log, output, WriteTarget::owned);
  if (interrupted(ran.exit_code)) return {false, false, "interrupted", seconds_since(start)};
  built.ok = ran.exit_code == 0 && fs::is_regular_file(built_executable(place.cache, commit));
  built.seconds = seconds_since(start);
  if (!built.ok)
    built.reason = ran.exit_code == 0 ? "the build made no convlab executable"
                                      : "the build failed:\n" + log_tail(output, 12);
  write_file(build + "/" + kBuildStampFile,
             build_stamp_text({digest, built.ok, built.reason, built.seconds}), WriteTarget::owned);
  return built;
}

// "27 ok, 3 failed" of the results the commit's convlab wrote; HistoryError when it wrote none
// this convlab can read.
std::size_t failed_points(const std::string& results) {
  ResultsDocument document;
  try {
    document = load_results_document(results);
  } catch (const std::exception& error) {
    throw HistoryError(std::string("its results cannot be read by this convlab: ") + error.what());
  }
  std::size_t failed = 0;
  for (const Record* record : latest_points(document)) failed += record->status == Status::failed;
  return failed;
}

// Runs the commit's convlab on the config into its folder and says how it ended.
void run_commit(const HistoryPlace& place, CommitRun& run) {
  const std::string folder = place.out + "/" + run.folder();
  const auto start = Clock::now();
  const Ran ran =
      run_logged({built_executable(place.cache, run.commit), "run", place.config, "--out", folder},
                 place.here, folder + "/run.log");
  run.run_seconds = seconds_since(start);
  if (interrupted(ran.exit_code)) {
    run.outcome = CommitOutcome::interrupted;
    run.reason = "interrupted; convlab history run again resumes it";
    return;
  }
  if (ran.exit_code != 0 && ran.exit_code != 1) {
    run.outcome = CommitOutcome::run_failed;
    run.reason = "its convlab exited with status " + std::to_string(ran.exit_code) + ":\n" +
                 log_tail(ran.output, 8);
    return;
  }
  try {
    const std::size_t failed = failed_points(place.out + "/" + run.results());
    run.outcome =
        failed > 0 || ran.exit_code == 1 ? CommitOutcome::points_failed : CommitOutcome::ok;
    if (run.outcome == CommitOutcome::points_failed)
      run.reason = std::to_string(failed) + " points failed (their records say why)";
  } catch (const HistoryError& error) {
    run.outcome = CommitOutcome::run_failed;
    run.reason = error.what();
  }
}

bool done_before(const CommitRun* run, bool retry_failed) {
  if (run == nullptr || run->outcome == CommitOutcome::interrupted) return false;
  const bool failed =
      run->outcome == CommitOutcome::build_failed || run->outcome == CommitOutcome::run_failed;
  return !(failed && retry_failed);
}

std::string outcome_words(const CommitRun& run) {
  std::string words = to_string(run.outcome);
  if (!run.reason.empty()) words += ": " + run.reason.substr(0, run.reason.find('\n'));
  return words;
}

// Builds and runs one commit; false when interrupted.
bool measure_commit(const HistoryPlace& place, HistoryIndex& index, const HistoryCommit& commit,
                    const HistoryRunOptions& options, const std::string& counter) {
  CommitRun run;
  run.commit = commit.id;
  run.machine = place.machine;
  const std::string folder = place.out + "/" + run.folder();
  create_folders(folder);
  std::cerr << "convlab history: " << counter << " " << commit.id.substr(0, 12) << " "
            << commit.subject << "\n";
  const Built built = build_commit(place, commit.id, folder + "/build.log", options.retry_failed);
  run.build_cached = built.cached;
  run.build_seconds = built.seconds;
  if (built.reason == "interrupted" || signal_seen) return false;
  if (!built.ok) {
    run.outcome = CommitOutcome::build_failed;
    run.reason = built.reason;
  } else {
    if (const double seconds = cpu_calibration_budget(); seconds > 0)
      run.calibration = calibrate_cpu(seconds);
    run_commit(place, run);
    if (signal_seen) return false;  // the resume runs it again; its convlab kept what it measured
  }
  run.finished = utc_timestamp();
  index.record(run);
  write_history_index(place.out, index);
  std::cerr << "  "
            << (built.cached ? "build cached"
                             : "built in " + format_number(built.seconds, 3) + " s")
            << (run.calibration ? "; " + calibration_words(*run.calibration) : "")
            << (built.ok ? "; ran in " + format_number(run.run_seconds, 3) + " s" : "") << ": "
            << outcome_words(run) << "\n";
  return run.outcome != CommitOutcome::interrupted;
}

}  // namespace

int run_history(const HistoryRunOptions& options) {
  const InterruptNote note_interrupts;
  signal_seen = 0;
  const std::string experiment = load_config_for_command(options.config_path).config.name;
  const HistoryPlace place = place_of(options, experiment);
  HistoryIndex index = index_for(place, experiment, options);
  const std::vector<HistoryCommit> commits = selected_commits(place, options);
  index.add_commits(commits);
  write_history_index(place.out, index);
  std::size_t failed = 0;
  for (std::size_t i = 0; i < commits.size(); ++i) {
    const std::string counter =
        "[" + std::to_string(i + 1) + "/" + std::to_string(commits.size()) + "]";
    const CommitRun* earlier = index.run_of(commits[i].id, place.machine.folder);
    if (done_before(earlier, options.retry_failed)) {
      std::cerr << "convlab history: " << counter << " " << commits[i].id.substr(0, 12)
                << " done before: " << outcome_words(*earlier) << "\n";
    } else if (!measure_commit(place, index, commits[i], options, counter)) {
      std::cerr << "convlab history: interrupted; run the same command again to resume\n";
      return 130;
    }
    failed += index.run_of(commits[i].id, place.machine.folder)->outcome != CommitOutcome::ok;
  }
  std::cout << place.out << ": " << commits.size() << " commits of " << experiment << " on "
            << place.machine.label << ", " << failed << " not ok\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace convlab
