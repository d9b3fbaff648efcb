// The device-workers backend of `convlab run --devices`: one worker process per CUDA device
// measures CUDA problem groups, each into a file of its own (store/part_files.hpp), while this
// process hands the groups out one at a time as workers become free (run/hand_out_session.hpp;
// with CONVLAB_HAND_OUT=fixed, each worker measures a part split before the run,
// run/schedule.hpp spread_over_devices); every point of a problem on one device. Their files are
// then folded into the results file, and this process measures the CPU units alone, so that no
// CPU point shares the machine with another point. The device loop stands outside the points:
// each worker is an ordinary in-process run on its device, with its own slice of the CPUs for its
// host work (run/worker_cpus.hpp: whole cores of the CPUs this process was started on).
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "impl/cuda/device_facts.hpp"
#include "measure/cpu_topology.hpp"
#include "run/backend.hpp"
#include "run/hand_out_session.hpp"
#include "run/interrupt.hpp"
#include "run/local_run.hpp"
#include "run/observers.hpp"
#include "run/phase_report.hpp"
#include "run/worker_cpus.hpp"
#include "store/part_files.hpp"
#include "store/results_file.hpp"
#include "store/results_merge.hpp"

extern char** environ;

namespace convlab {
namespace {

namespace fs = std::filesystem;

struct Worker {
  int position = 0, device = 0;
  pid_t pid = -1;
  int status = 0;  // exit status, or 128 + the signal that ended it
};

// A worker's end of its hand-out socket, as the worker sees it.
constexpr int kWorkerHandOutFd = 3;

// The command line of worker `position`: the run's own options, plus --worker (and --hand-out
// when its problem groups are handed out).
std::vector<std::string> worker_arguments(const RunJob& job, int position, bool hand_out) {
  const RunOptions& options = *job.options;
  std::vector<std::string> args{own_executable(), "run", options.config_path, "--out",
                                job.target.out_dir};
  if (options.filter) args.insert(args.end(), {"--filter", options.filter->text});
  if (options.force) args.push_back("--force");
  if (options.shard)
    args.insert(args.end(), {"--shard", std::to_string(options.shard->index) + "/" +
                                            std::to_string(options.shard->count)});
  if (options.verbosity == Verbosity::quiet) args.push_back("--quiet");
  if (options.verbosity == Verbosity::verbose) args.push_back("--verbose");
  if (options.phases) args.push_back("--phases");
  std::string devices;
  for (int device : job.devices) devices += (devices.empty() ? "" : ",") + std::to_string(device);
  args.insert(args.end(), {"--devices", devices, "--worker", std::to_string(position)});
  if (hand_out) args.insert(args.end(), {"--hand-out", std::to_string(kWorkerHandOutFd)});
  return args;
}

// The environment of a worker: this process's, with OMP_PLACES naming the worker's cores when
// convlab pins OpenMP (run/worker_cpus.hpp).
std::vector<std::string> worker_environment(const WorkerCpus& slice) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  if (slice.places.empty()) return environment;
  const auto set = [&](const std::string& name, const std::string& value) {
    environment.erase(
        std::remove_if(environment.begin(), environment.end(),
                       [&](const std::string& e) { return e.rfind(name + "=", 0) == 0; }),
        environment.end());
    environment.push_back(name + "=" + value);
  };
  set("OMP_PLACES", slice.places);
  set("OMP_PROC_BIND", "close");
  set("OMP_NUM_THREADS", std::to_string(slice.threads));
  return environment;
}

// The NUMA node of each device's GPU, -1 where unknown.
std::vector<int> gpu_nodes(const std::vector<int>& devices) {
  std::vector<int> nodes;
  for (int device : devices) nodes.push_back(pci_numa_node(cuda_pci_bus_id(device)));
  return nodes;
}

// A child inherits the affinity of the thread that starts it: this thread takes the worker's CPUs
// for the moment of the spawn.
class AffinityForChild {
 public:
  explicit AffinityForChild(const std::vector<int>& cpus) {
    if (cpus.empty() || ::sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus)
      if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
    changed_ = ::sched_setaffinity(0, sizeof set, &set) == 0;
  }
  ~AffinityForChild() {
    if (changed_) ::sched_setaffinity(0, sizeof saved_, &saved_);
  }
  AffinityForChild(const AffinityForChild&) = delete;
  AffinityForChild& operator=(const AffinityForChild&) = delete;

 private:
  cpu_set_t saved_{};
  bool changed_ = false;
};

// `hand_out_end`: this process's descriptor of the worker's socket end (-1: none), given to the
// worker as kWorkerHandOutFd.
pid_t spawn(const std::vector<std::string>& args, const WorkerCpus& slice, int hand_out_end) {
  const std::vector<std::string> environment = worker_environment(slice);
  const AffinityForChild affinity(slice.cpus);
  std::vector<char*> argv, envp;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  for (const auto& entry : environment) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  // The signals this process blocks for its watcher (run/interrupt.hpp) are unblocked in the
  // worker, which sets up its own.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  if (hand_out_end >= 0) posix_spawn_file_actions_adddup2(&files, hand_out_end, kWorkerHandOutFd);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &files, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  if (error != 0)
    throw std::runtime_error("cannot start a device worker (" + args[0] +
                             "): " + std::strerror(error));
  return pid;
}

}  // namespace

WorkerFiles fold_worker_files(const RunTarget& target) {
  WorkerFiles found;
  const std::vector<std::string> names = worker_file_names(target.folder, target.file_name);
  if (names.empty()) return found;
  const std::string folder = workers_folder(target.folder);
  target.store().update([&](ResultsFile& results) {
    ResultsFolding folding(results, target.path());
    for (const auto& name : names) {
      const std::string path = folder + "/" + name;
      ResultsFile part = read_results(path);
      if (part.part) {
        const auto& p = *part.part;
        for (std::size_t i = 0; i < p.points.size() && i < p.keys.size(); ++i)
          found.key_of_digest[p.points[i]] = p.keys[i];
      }
      for (const auto& run : part.runs) {
        found.run_ids.insert(run.id);
        found.runs.push_back(run);
      }
      folding.fold(std::move(part), path);
    }
    folding.finish();
  });
  std::error_code error;
  for (const auto& name : names)
    for (const char* extension : {".json", ".journal", ".lock"})
      fs::remove(fs::path(folder) / fs::path(name).replace_extension(extension), error);
  fs::remove(folder, error);  // only when empty
  return found;
}

namespace {

// Waits for the workers while a SIGINT or SIGTERM handler may ask them to stop: the handler
// hands the signal on and waits until the workers are reaped and their files folded. The state
// is shared with the handler, which may still run when the wait is over.
class WorkerWait {
 public:
  WorkerWait(std::vector<Worker>& workers, const RunTarget& target)
      : workers_(workers), target_(target), state_(std::make_shared<State>()) {
    for (const auto& worker : workers_) state_->pids.push_back(worker.pid);
    state_->results_path = target.path();
    state_->workers_folder = workers_folder(target.folder);
    set_interrupt_handler([state = state_] { return state->on_interrupt(); });
  }
  ~WorkerWait() { clear_interrupt_handler(); }
  WorkerWait(const WorkerWait&) = delete;
  WorkerWait& operator=(const WorkerWait&) = delete;

  // Waits for every worker (serving the hand-out meanwhile, when there is one), then folds their
  // files.
  WorkerFiles wait_and_fold(HandOutSession* hand_out) {
    std::size_t left = 0;
    for (const auto& worker : workers_) left += worker.pid > 0;
    while (left > 0) {
      if (hand_out) {
        hand_out->serve(kServeMilliseconds);
        for (auto& worker : workers_) {
          int status = 0;
          if (worker.pid > 0 && ::waitpid(worker.pid, &status, WNOHANG) == worker.pid) {
            reaped(worker, status);
            --left;
            hand_out->ended(worker.position, worker.device, worker.status, interrupted());
          }
        }
        continue;
      }
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (auto& worker : workers_)
        if (worker.pid == pid) {
          reaped(worker, status);
          --left;
        }
    }
    if (hand_out) hand_out->finish();
    WorkerFiles files = fold_worker_files(target_);
    std::unique_lock<std::mutex> lock(state_->mutex);
    state_->folded = true;
    state_->changed.notify_all();
    // An interrupt's handler now reports and ends the process.
    state_->changed.wait(lock, [this] { return !state_->interrupted; });
    return files;
  }

 private:
  // How long the hand-out waits for a worker's message before it looks for ended workers.
  static constexpr int kServeMilliseconds = 100;

  void reaped(Worker& worker, int status) {
    worker.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    state_->reaped(worker.pid);
    worker.pid = -1;
  }

  bool interrupted() const {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->interrupted;
  }

  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<pid_t> pids;  // -1 once reaped
    bool interrupted = false, folded = false;
    std::string results_path, workers_folder;

    void reaped(pid_t pid) {
      const std::lock_guard<std::mutex> lock(mutex);
      for (auto& p : pids)
        if (p == pid) p = -1;
    }

    std::string on_interrupt() {
      std::unique_lock<std::mutex> lock(mutex);
      interrupted = true;
      for (pid_t pid : pids)
        if (pid > 0) ::kill(pid, SIGTERM);
      changed.wait_for(lock, std::chrono::minutes(5), [this] { return folded; });
      return std::string("interrupted: the device workers stopped") +
             (folded ? "; their points are kept in " + results_path + "; run again to resume"
                     : "; their files are kept in " + workers_folder +
                           " and folded in when the run is started again");
    }
  };

  std::vector<Worker>& workers_;
  const RunTarget& target_;
  std::shared_ptr<State> state_;
};

}  // namespace

BackendTraits DeviceWorkersBackend::traits() const {
  BackendTraits traits;
  traits.name = "device workers";
  traits.parallel = true;
  traits.folder_lock = false;  // each worker writes a file of its own; this process folds them
  return traits;
}

int DeviceWorkersBackend::execute(const RunJob& job) {
  fold_worker_files(job.target);
  const int count = static_cast<int>(job.devices.size());
  std::string warning;
  const HandOutPolicy hand_out_policy_here = hand_out_policy(&warning);
  if (!warning.empty()) std::cerr << "convlab run: " << warning << "\n";
  warning.clear();
  const WorkerCpuPolicy policy = worker_cpu_policy(&warning);
  if (!warning.empty()) std::cerr << "convlab run: " << warning << "\n";
  const std::vector<WorkerCpus> slices = worker_cpu_slices(
      policy, count,
      policy == WorkerCpuPolicy::cores ? gpu_nodes(job.devices) : std::vector<int>{});
  std::unique_ptr<HandOutSession> hand_out;
  std::vector<int> worker_of_unit;
  if (hand_out_policy_here == HandOutPolicy::fixed) {
    worker_of_unit = spread_over_devices(job.schedule, count);
  } else {
    hand_out = std::make_unique<HandOutSession>(job);
    if (hand_out->empty()) hand_out.reset();
  }
  std::vector<Worker> workers;
  for (int position = 0; position < count; ++position) {
    if (!hand_out && (worker_of_unit.empty() ||
                      units_of_worker(job.schedule, worker_of_unit, position).units.empty()))
      continue;
    // Fewer problem groups than devices: the devices beyond them are not opened.
    if (hand_out && !hand_out->worth_starting(position)) {
      hand_out->not_started(position);
      continue;
    }
    Worker worker;
    worker.position = position;
    worker.device = job.devices[position];
    const int end = hand_out ? hand_out->worker_end(position) : -1;
    if (hand_out && end < 0)
      throw std::runtime_error(std::string("cannot make a socket for a device worker: ") +
                               std::strerror(errno));
    try {
      worker.pid =
          spawn(worker_arguments(job, position, hand_out != nullptr), slices[position], end);
    } catch (...) {
      if (hand_out) hand_out->started(position);
      throw;
    }
    if (hand_out) hand_out->started(position);
    workers.push_back(worker);
  }
  WorkerFiles files;
  {
    WorkerWait wait(workers, job.target);
    files = wait.wait_and_fold(hand_out.get());
  }
  hand_out.reset();
  set_interrupt_handler([&job] {
    return "interrupted between the device workers and the CPU points; results kept in " +
           job.target.path() + "; run again to resume";
  });

  int status = 0;
  for (const auto& worker : workers) {
    if (worker.status == 0 || worker.status == 1) {
      status = std::max(status, worker.status);
      continue;
    }
    std::cerr << "convlab run: the worker of CUDA device " << worker.device << " ended with status "
              << worker.status << "; what it measured is kept in " << job.target.path() << "\n";
    status = 2;
  }

  RunJob cpu_job = job;
  cpu_job.schedule.units.clear();
  for (const auto& unit : job.schedule.units)
    if (!unit.gpu) cpu_job.schedule.units.push_back(unit);
  LocalOutcome cpu;
  if (!cpu_job.schedule.units.empty()) cpu = run_locally(cpu_job);
  clear_interrupt_handler();

  // The summary: every point of the job in schedule order, the CUDA ones from the folded file.
  const ResultsFile results = read_results(job.target.path());
  std::map<std::string, const Record*> by_key;
  for (const auto& record : results.records) by_key[record.key] = &record;
  std::map<std::string, const Record*> cpu_rows;
  for (const auto& row : cpu.rows) cpu_rows[row.key] = &row;
  std::vector<Record> rows;
  RunCounts counts = cpu.counts;
  std::size_t next_cpu_key = 0;
  for (std::size_t u = 0; u < job.schedule.units.size(); ++u) {
    const WorkUnit& unit = job.schedule.units[u];
    for (std::size_t i : unit.points) {
      if (!unit.gpu) {
        if (next_cpu_key < cpu.keys.size())
          if (auto found = cpu_rows.find(cpu.keys[next_cpu_key++]); found != cpu_rows.end())
            rows.push_back(*found->second);
        continue;
      }
      const auto key = files.key_of_digest.find((*job.plan)[i].digest);
      const auto record =
          key == files.key_of_digest.end() ? by_key.end() : by_key.find(key->second);
      if (record == by_key.end()) {
        ++counts.not_run;
        continue;
      }
      rows.push_back(*record->second);
      if (files.run_ids.count(record->second->run_id) == 0)
        ++counts.kept;
      else if (record->second->status == Status::ok)
        ++counts.ran;
      else if (record->second->status == Status::skipped)
        ++counts.skipped;
      else
        ++counts.failed;
    }
  }
  const int records = records_status(rows);
  if (job.options->verbosity != Verbosity::quiet && job.options->summary)
    job.options->summary(RunEnd{std::move(rows), cpu.run, counts, job.target.path(), files.runs});
  if (job.options->phases || job.options->verbosity == Verbosity::verbose)
    print_worker_phases(files.runs, std::cerr);
  return std::max(status, records);
}

}  // namespace convlab
