#include "run/slurm_script.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "store/results_file.hpp"

extern char** environ;

namespace convlab {
namespace {

namespace fs = std::filesystem;

// sbatch reads #SBATCH lines itself, splitting at blanks and without a shell: only plain words.
const std::regex kDirectiveWord("[A-Za-z0-9._/+,=@:~-]+");

std::string directive_value(const std::string& option, const std::string& value) {
  if (!std::regex_match(value, kDirectiveWord))
    throw RunArgumentError(option + " '" + value +
                           "': a SLURM #SBATCH line cannot hold it; use letters, digits and "
                           "._/+,=@:~- only");
  return value;
}

std::string time_value(const std::string& value) {
  static const std::regex time_limit("([0-9]+-)?[0-9]+(:[0-9]+){0,2}|UNLIMITED|unlimited|infinite");
  if (!std::regex_match(value, time_limit))
    throw RunArgumentError("--time '" + value +
                           "': expected a SLURM time limit: minutes, MM:SS, HH:MM:SS, D-HH, "
                           "D-HH:MM or D-HH:MM:SS");
  return value;
}

// The #SBATCH lines both jobs share: where they run and for how long.
std::string placement_lines(const SlurmSettings& settings) {
  std::string lines;
  if (!settings.partition.empty())
    lines += "#SBATCH --partition=" + directive_value("--partition", settings.partition) + "\n";
  if (!settings.account.empty())
    lines += "#SBATCH --account=" + directive_value("--account", settings.account) + "\n";
  if (!settings.time.empty()) lines += "#SBATCH --time=" + time_value(settings.time) + "\n";
  return lines;
}

void write_script(const std::string& path, const std::string& text) {
  {
    std::ofstream file(path, std::ios::trunc);
    file << text;
    if (!file) throw ResultsFileError(path + ": cannot write (" + std::strerror(errno) + ")");
  }
  ::chmod(path.c_str(), 0755);
}

std::string shards_script(const SlurmJobFacts& facts, const SlurmScripts& scripts) {
  const SlurmSettings& s = facts.settings;
  const std::string n = std::to_string(s.shards);
  std::string run = shell_quoted(facts.convlab) + " run " + shell_quoted(facts.config) +
                    " --shard \"${SLURM_ARRAY_TASK_ID}/" + n + "\" --out " +
                    shell_quoted(facts.out_dir);
  if (!facts.filter.empty()) run += " --filter " + shell_quoted(facts.filter);
  if (s.gpus_per_task > 1) run += " --devices all";
  std::ostringstream text;
  text << "#!/bin/bash\n"
       << "# convlab: the sweep '" << facts.name << "' as a SLURM array job of " << n
       << " shards, written by `convlab slurm`.\n"
       << "#\n"
       << "# Array task I runs `convlab run CONFIG --shard I/" << n
       << " --out DIR`: the I-th part of the plan, cut by\n"
       << "# estimated cost without splitting a problem (image, kernel, border, output), so "
          "every speedup\n"
       << "# pairs records of one node. Each task writes a file of its own, "
          "DIR/shards/shard-I-of-"
       << n << ".json,\n"
       << "# so the tasks share no file and need no lock on the shared file system. The last "
          "task to\n"
       << "# complete its shard merges every shard into DIR/results.json; merge.sbatch, "
          "submitted to run\n"
       << "# after every task succeeded, merges again and names any point still missing.\n"
       << "#\n"
       << "# Submit both with " << scripts.submit << ".\n"
       << "# To run one shard again (a task cancelled or failed), submit its index only:\n"
       << "#   sbatch --array=I " << scripts.shards << "\n"
       << "# then `convlab merge DIR`. Run again on the same node, a shard measures only the "
          "points\n"
       << "# it has no record of; on another node it measures them all there (records of two "
          "nodes are\n"
       << "# kept apart).\n"
       << "#\n"
       << "#SBATCH --job-name=" << directive_value("config name", "convlab-" + facts.name) << "\n"
       << "#SBATCH --array=0-" << s.shards - 1 << "\n"
       << "#SBATCH --ntasks=1\n";
  if (s.cpus_per_task > 0) text << "#SBATCH --cpus-per-task=" << s.cpus_per_task << "\n";
  if (s.gpus_per_task > 0) text << "#SBATCH --gpus-per-task=" << s.gpus_per_task << "\n";
  text << placement_lines(s) << "#SBATCH --output=" << directive_value("--out", scripts.logs)
       << "/shard-%a-of-" << n << ".%A.log\n"
       << "\n"
       << "cd " << shell_quoted(facts.workdir) << " || exit 2\n"
       << "# scancel and time limits send SIGTERM: convlab then keeps every finished point and "
          "exits.\n"
       << run << " &\n"
       << "child=$!\n"
       << "trap 'kill -TERM \"$child\" 2>/dev/null' TERM INT\n"
       << "wait \"$child\"\n"
       << "status=$?\n"
       << "while kill -0 \"$child\" 2>/dev/null; do wait \"$child\"; status=$?; done\n"
       << "# 1: the shard ran to its end and recorded a failed point (its record says why); the "
          "task\n"
       << "# counts as done, so the merge job still runs and reports it.\n"
       << "[ \"$status\" -eq 1 ] && status=0\n"
       << "exit \"$status\"\n";
  return text.str();
}

std::string merge_script(const SlurmJobFacts& facts, const SlurmScripts& scripts) {
  std::ostringstream text;
  text << "#!/bin/bash\n"
       << "# convlab: merges the shards of '" << facts.name << "' into " << facts.out_dir
       << "/results.json, written by\n"
       << "# `convlab slurm`. submit.sh submits it with --dependency=afterok on the array job; "
          "it is\n"
       << "# cancelled when a task fails (--kill-on-invalid-dep), and `convlab merge` then names "
          "what is\n"
       << "# missing and the command that measures it.\n"
       << "#\n"
       << "#SBATCH --job-name="
       << directive_value("config name", "convlab-" + facts.name + "-merge") << "\n"
       << "#SBATCH --ntasks=1\n"
       << "#SBATCH --kill-on-invalid-dep=yes\n"
       << placement_lines(facts.settings)
       << "#SBATCH --output=" << directive_value("--out", scripts.logs) << "/merge.%j.log\n"
       << "\n"
       << "cd " << shell_quoted(facts.workdir) << " || exit 2\n"
       << "exec " << shell_quoted(facts.convlab) << " merge " << shell_quoted(facts.out_dir)
       << "\n";
  return text.str();
}

std::string submit_script(const SlurmJobFacts& facts, const SlurmScripts& scripts) {
  std::ostringstream text;
  text << "#!/bin/sh\n"
       << "# convlab: submits the array job of the " << facts.settings.shards << " shards of '"
       << facts.name << "' and the merge job that waits\n"
       << "# for it (what `convlab slurm --submit` does); run it on the cluster's login node.\n"
       << "set -eu\n"
       << "array=$(sbatch --parsable " << shell_quoted(scripts.shards) << ")\n"
       << "array=${array%%;*}\n"
       << "merge=$(sbatch --parsable --dependency=\"afterok:$array\" "
       << shell_quoted(scripts.merge) << ")\n"
       << "merge=${merge%%;*}\n"
       << "echo \"array job $array (" << facts.settings.shards
       << " shards), merge job $merge (after every shard succeeded)\"\n"
       << "echo \"follow them with: squeue -j $array,$merge; logs in \""
       << shell_quoted(scripts.logs) << "\n";
  return text.str();
}

// Runs `program args`, returns its stdout; throws with its output when it fails.
std::string output_of(const std::vector<std::string>& command) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> argv;
  for (const auto& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (error != 0) {
    ::close(pipe_fds[0]);
    throw std::runtime_error(command[0] + ": cannot start (" + std::strerror(error) + ")");
  }
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(command[0] + " refused: " + output);
  return output;
}

std::string job_id_of(const std::string& parsable) {
  // sbatch --parsable prints "id" or "id;cluster".
  std::string id = parsable.substr(0, parsable.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("sbatch printed no job id: " + parsable);
  return id;
}

}  // namespace

SlurmScripts write_slurm_scripts(const SlurmJobFacts& facts) {
  SlurmScripts scripts;
  scripts.folder = facts.out_dir + "/slurm";
  scripts.shards = scripts.folder + "/shards.sbatch";
  scripts.merge = scripts.folder + "/merge.sbatch";
  scripts.submit = scripts.folder + "/submit.sh";
  scripts.logs = scripts.folder + "/logs";
  // Everything is checked before anything is written.
  const std::string shards = shards_script(facts, scripts);
  const std::string merge = merge_script(facts, scripts);
  const std::string submit = submit_script(facts, scripts);
  const std::size_t most = std::max<std::size_t>(1, facts.problem_groups);
  if (static_cast<std::size_t>(facts.settings.shards) > most)
    throw RunArgumentError("--shards " + std::to_string(facts.settings.shards) + ": the plan has " +
                           std::to_string(facts.problem_groups) + " problem group" +
                           (facts.problem_groups == 1 ? "" : "s") +
                           " (the points of one input, kernel, border and output run in one "
                           "shard), so at most " +
                           std::to_string(most) + " shard" + (most == 1 ? "" : "s"));
  std::error_code error;
  fs::create_directories(scripts.logs, error);
  if (error) throw ResultsFileError(scripts.logs + ": cannot create (" + error.message() + ")");
  write_script(scripts.shards, shards);
  write_script(scripts.merge, merge);
  write_script(scripts.submit, submit);
  return scripts;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (folder.empty()) continue;
    const std::string candidate = folder + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

SubmittedJobs submit_slurm_jobs(const SlurmScripts& scripts, const std::string& sbatch) {
  SubmittedJobs jobs;
  jobs.array_id = job_id_of(output_of({sbatch, "--parsable", scripts.shards}));
  jobs.merge_id = job_id_of(
      output_of({sbatch, "--parsable", "--dependency=afterok:" + jobs.array_id, scripts.merge}));
  return jobs;
}

}  // namespace convlab
