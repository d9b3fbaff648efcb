// Users' kernels kept apart (docs/own-kernels.md, "What is isolated"): what one kernel leaves
// behind (a thread still writing or spinning, an input made writable, a child process) never
// reaches another kernel's points, and nothing a run started outlives it, however it ends. The
// kernels are C files written here and run through `convlab run` on small generated images.
//
// This test process makes itself a child subreaper while a run goes on, so that every process the
// run leaves behind comes back to it instead of to init, and finds them through the kernel's own
// lists of children (/proc/PID/task/TID/children), which convlab does not read; it kills what it
// finds when the test ends, whatever happened.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "user_kernels/kernel_host_client.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using testing::read_text;
using testing::write_text;

// ---------------------------------------------------------------------------------- the kernels

// A correct convolution, for every border and output, as a C function the kernels call.
const char* const kConvolve = R"(
static void convolve(const convlab_problem* p) {
  const int r = p->ksize / 2;
  const long long values = (long long)p->width * p->height * p->channels;
  for (long long i = 0; i < values; ++i) {
    const int c = (int)(i % p->channels);
    const int x = (int)(i / p->channels % p->width);
    const int y = (int)(i / p->channels / p->width);
    float sum = 0.f;
    for (int k = 0; k < p->ksize * p->ksize; ++k) {
      const int sy = convlab_border_index(y + k / p->ksize - r, p->height, p->border);
      const int sx = convlab_border_index(x + k % p->ksize - r, p->width, p->border);
      if (sy >= 0 && sx >= 0)
        sum += p->weights[k] * p->in[sy * p->in_pitch + (long long)sx * p->channels + c];
    }
    convlab_store(p->out, i, p->output, sum);
  }
}
)";

// A C kernel: `top` at file scope, then the entry point running `before`, the convolution and
// `after`.
std::string c_kernel(const std::string& top, const std::string& before,
                     const std::string& after = "") {
  return "#define _GNU_SOURCE\n#include <convlab/kernel.h>\n#include <errno.h>\n#include "
         "<fcntl.h>\n#include <pthread.h>\n#include <stdint.h>\n#include <stdio.h>\n#include "
         "<stdlib.h>\n#include <string.h>\n#include <sys/mman.h>\n#include <sys/prctl.h>\n#include "
         "<time.h>\n#include <unistd.h>\nCONVLAB_CONTRACT(1);\n" +
         std::string(kConvolve) + top + "\nCONVLAB_CPU_ENTRY(const convlab_problem* p) {\n" +
         before + "\n  convolve(p);\n" + after + "\n  return 0;\n}\n";
}

// A correct kernel, for the points after a misbehaving one.
const std::string kGoodKernel = c_kernel("", "");

// ------------------------------------------------------------------------------- the processes

bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z' &&
         text[close + 2] != 'X';
}

// The live processes below `root`, from each thread's list of children.
std::vector<pid_t> live_processes_below(pid_t root) {
  std::vector<pid_t> below;
  std::vector<pid_t> open{root};
  while (!open.empty()) {
    const pid_t parent = open.back();
    open.pop_back();
    std::error_code error;
    const fs::path tasks = "/proc/" + std::to_string(parent) + "/task";
    for (const auto& task : fs::directory_iterator(tasks, error)) {
      std::ifstream children(task.path() / "children");
      pid_t child = 0;
      while (children >> child) {
        open.push_back(child);
        if (alive(child)) below.push_back(child);
      }
    }
  }
  return below;
}

std::string command_line_of(pid_t pid) {
  std::string text = read_text("/proc/" + std::to_string(pid) + "/cmdline");
  for (char& c : text)
    if (c == '\0') c = ' ';
  return std::to_string(pid) + ": " + text;
}

std::string listed(const std::vector<pid_t>& pids) {
  std::vector<std::string> lines;
  for (pid_t pid : pids) lines.push_back(command_line_of(pid));
  return testing::joined(lines);
}

// While it lives, orphans of this process's descendants come back to it (PR_SET_CHILD_SUBREAPER);
// when it ends, every process still below is killed and reaped.
class Orphanage {
 public:
  Orphanage() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
  ~Orphanage() {
    for (int round = 0; round < 100; ++round) {
      const std::vector<pid_t> below = live_processes_below(::getpid());
      reap();
      if (below.empty()) break;
      for (pid_t pid : below) ::kill(pid, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    reap();
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  }
  Orphanage(const Orphanage&) = delete;
  Orphanage& operator=(const Orphanage&) = delete;

  static void reap() {
    int status = 0;
    while (::waitpid(-1, &status, WNOHANG) > 0) {
    }
  }

  // Waits at most `seconds` until no live process is left below this one; returns those left.
  static std::vector<pid_t> left_after(double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      reap();
      const std::vector<pid_t> below = live_processes_below(::getpid());
      if (below.empty() || Clock::now() > deadline) return below;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
};

// `convlab run CONFIG --quiet` as a child of this process, in `dir`, with the test's kernel cache;
// its standard output and error go to one pipe, read here.
class ConvlabRun {
 public:
  ConvlabRun(const fs::path& dir, const std::string& config) {
    int ends[2];
    EXPECT_EQ(::pipe2(ends, O_CLOEXEC), 0);
    std::vector<std::string> args{CONVLAB_EXECUTABLE, "run", config, "--quiet"};
    std::vector<std::string> environment{"CONVLAB_KERNEL_CACHE=" + (dir / "cache").string()};
    for (char** entry = environ; *entry != nullptr; ++entry)
      if (std::string(*entry).rfind("CONVLAB_KERNEL_CACHE=", 0) != 0)
        environment.emplace_back(*entry);
    std::vector<char*> argv, envp;
    for (auto& arg : args) argv.push_back(arg.data());
    for (auto& entry : environment) envp.push_back(entry.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);
    const std::string folder = dir.string();
    pid_ = ::fork();
    if (pid_ == 0) {
      if (::chdir(folder.c_str()) != 0) ::_exit(126);
      ::dup2(ends[1], STDOUT_FILENO);
      ::dup2(ends[1], STDERR_FILENO);
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    ::close(ends[1]);
    output_fd_ = ends[0];
  }
  ~ConvlabRun() {
    if (pid_ > 0 && !ended_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status_, 0);
    }
    if (output_fd_ >= 0) ::close(output_fd_);
  }
  ConvlabRun(const ConvlabRun&) = delete;
  ConvlabRun& operator=(const ConvlabRun&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& output() const { return output_; }

  // Reads its output until `done` holds (checked every 20 ms) or `seconds` pass; true if it held.
  template <typename Done>
  bool read_until(Done done, double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (!done()) {
      if (Clock::now() > deadline) return false;
      if (output_fd_ < 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      pollfd entry{output_fd_, POLLIN, 0};
      if (::poll(&entry, 1, 20) <= 0) continue;
      char chunk[4096];
      const ssize_t got = ::read(output_fd_, chunk, sizeof chunk);
      if (got > 0) {
        output_.append(chunk, static_cast<std::size_t>(got));
      } else if (got == 0) {
        ::close(output_fd_);
        output_fd_ = -1;
        eof_at_ = Clock::now();
      }
    }
    return true;
  }

  // Whether it has ended (reaped here, with its wait status and when it was seen ending).
  bool ended() {
    if (!ended_ && ::waitpid(pid_, &status_, WNOHANG) == pid_) {
      ended_ = true;
      ended_at_ = Clock::now();
    }
    return ended_;
  }
  bool wait(double seconds) {
    return read_until([this] { return ended(); }, seconds);
  }
  // Reads until the end of its output; false when the pipe is still open after `seconds`.
  bool read_to_eof(double seconds) {
    return read_until([this] { return output_fd_ < 0; }, seconds);
  }
  int status() const { return status_; }
  // Seconds between its end and the end of its output (its pipe's last writer gone).
  double eof_after_end() const {
    return std::chrono::duration<double>(eof_at_ - ended_at_).count();
  }

 private:
  pid_t pid_ = -1;
  int output_fd_ = -1;
  std::string output_;
  bool ended_ = false;
  int status_ = 0;
  Clock::time_point ended_at_, eof_at_;
};

// ---------------------------------------------------------------------------------- the tests

class KernelIsolation : public testing::DirectoryTest {
 protected:
  // Implementations in the order they run in each problem; four problems (two images, two
  // kernels), so that each implementation's points alternate with the others'.
  void write_config(const std::string& implementations, const std::string& measure = "") {
    write_text(dir_ / "c.yaml",
               "name: iso\n"
               "images: [{type: generated, sizes: [[40, 30], [24, 20]], channels: 3, seed: 4}]\n"
               "kernels: [{type: gaussian, size: 3}, {type: box, size: 5}]\n"
               "implementations:\n" +
                   implementations +
                   "measure: {warmup: 1, min_reps: 3, max_reps: 3, max_seconds: 0.05" + measure +
                   "}\n");
  }

  std::map<std::string, std::vector<json>> records_by_implementation() {
    std::map<std::string, std::vector<json>> by_name;
    const fs::path file = dir_ / "outputs/iso/results.json";
    EXPECT_TRUE(fs::exists(file)) << output_;
    if (!fs::exists(file)) return by_name;
    const json results = json::parse(read_text(file));
    for (const json& record : results["records"])
      by_name[record["implementation"]].push_back(record);
    return by_name;
  }

  // Runs the config to its end (at most two minutes); returns the run's exit status.
  int run_to_end() {
    ConvlabRun run(dir_, "c.yaml");
    const bool ended = run.wait(120);
    EXPECT_TRUE(ended) << "convlab run did not end within 120 s\n" << run.output();
    output_ = run.output();
    return ended && WIFEXITED(run.status()) ? WEXITSTATUS(run.status()) : -1;
  }

  // Every point of `implementation` verified.
  void expect_all_ok(const std::string& implementation, std::size_t points = 4) {
    const auto by_name = records_by_implementation();
    ASSERT_TRUE(by_name.count(implementation)) << output_;
    const std::vector<json>& records = by_name.at(implementation);
    EXPECT_EQ(records.size(), points);
    for (const json& record : records)
      EXPECT_EQ(record["status"], "ok") << implementation << ": " << record.dump() << "\n"
                                        << output_;
  }

  // A run stopped by `signal` while a kernel hangs (with a child and a grandchild that made a
  // session of its own and dropped its parent-death signal): it exits as convlab does on that
  // signal, and nothing it started is left running a few seconds later.
  void expect_nothing_outlives(int signal, int exit_status) {
    write_text(dir_ / "hangs.c", c_kernel(R"(
static void wait_for(const char* file) {
  for (int i = 0; i < 2000 && access(file, F_OK) != 0; ++i) usleep(1000);
})",
                                          R"(
  if (fork() == 0) { sleep(300); _exit(0); }
  if (fork() == 0) {
    if (fork() == 0) {
      setsid();
      prctl(PR_SET_PDEATHSIG, 0);
      close(open("escaped", O_CREAT | O_WRONLY, 0644));
      sleep(300);
      _exit(0);
    }
    _exit(0);
  }
  wait_for("escaped");
  close(open("hanging", O_CREAT | O_WRONLY, 0644));
  for (volatile unsigned long spin = 0;; ++spin) {
  })"));
    write_text(dir_ / "good.c", kGoodKernel);
    write_config("  good: {source: good.c}\n  hangs: {source: hangs.c}\n", ", timeout: 200");
    const Orphanage orphanage;
    ConvlabRun run(dir_, "c.yaml");
    ASSERT_TRUE(run.read_until([&] { return fs::exists(dir_ / "hanging") || run.ended(); }, 120))
        << "the kernel did not start hanging\n"
        << run.output();
    ASSERT_FALSE(run.ended()) << run.output();
    // convlab, the host and the kernel's two children at least: what is counted below is seen.
    ASSERT_GE(Orphanage::left_after(0).size(), 4u) << listed(Orphanage::left_after(0));
    ::kill(run.pid(), signal);
    ASSERT_TRUE(run.wait(30)) << "convlab did not end within 30 s of the signal\n" << run.output();
    if (signal == SIGKILL) {
      EXPECT_TRUE(WIFSIGNALED(run.status()) && WTERMSIG(run.status()) == SIGKILL);
    } else {
      EXPECT_TRUE(WIFEXITED(run.status()) && WEXITSTATUS(run.status()) == exit_status)
          << run.status() << "\n"
          << run.output();
    }
    const std::vector<pid_t> left = Orphanage::left_after(10);
    EXPECT_TRUE(left.empty()) << "still running 10 s after convlab ended:\n" << listed(left);
  }

  std::string output_;
};

// A kernel that leaves a thread writing zeros where its last output was (through /proc/self/mem,
// which does not fault once that memory is gone): the next kernel's output, were it mapped there
// in the same process, would be zeroed. The next kernel checks that its output stays as it wrote
// it while it sleeps 20 ms (time for the thread to run, on a busy machine too), and convlab
// verifies it. Each implementation has its own host, so nothing changes it.
TEST_F(KernelIsolation, ALeftoverThreadNeverWritesIntoTheNextKernelsOutput) {
  write_text(dir_ / "leaves.c", c_kernel(R"(
static void* volatile last_out;
static long long last_bytes;
static void* keep_writing(void* unused) {
  static unsigned char zeros[1 << 20];
  const int memory = open("/proc/self/mem", O_RDWR);
  for (;;) {
    void* at = last_out;
    const long long bytes = last_bytes < (long long)sizeof zeros ? last_bytes : (long long)sizeof zeros;
    if (at && pwrite(memory, zeros, (size_t)bytes, (off_t)(uintptr_t)at) < 0) usleep(10);
  }
  return unused;
})",
                                         "",
                                         R"(
  static int started;
  last_bytes = (long long)p->height * p->out_pitch;
  last_out = p->out;
  if (!started) {
    pthread_t thread;
    started = pthread_create(&thread, 0, keep_writing, 0) == 0;
  })"));
  write_text(dir_ / "checks.c", c_kernel("", "", R"(
  const size_t bytes = (size_t)(p->height * p->out_pitch);
  unsigned char* written = malloc(bytes);
  memcpy(written, p->out, bytes);
  const struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, 0);
  const int changed = memcmp(written, p->out, bytes) != 0;
  free(written);
  if (changed) {
    fprintf(stderr, "the output changed after the call wrote it\n");
    return 7;
  })"));
  write_config("  leaves: {source: leaves.c}\n  checks: {source: checks.c}\n");
  const Orphanage orphanage;
  run_to_end();
  expect_all_ok("checks");
}

// A kernel that leaves a thread spinning: while another kernel is called, the thread does not
// run (its host is stopped between its own requests), so it takes no CPU from that kernel's
// timing. The thread counts in a file; the next kernel fails its point when the count moves
// during its call.
TEST_F(KernelIsolation, ALeftoverThreadNeverRunsDuringAnotherKernelsCall) {
  const std::string counter = R"(
static volatile unsigned long* counter(void) {
  static volatile unsigned long* shared;
  if (!shared) {
    const int fd = open("ticks", O_RDWR | O_CREAT, 0644);
    if (ftruncate(fd, 4096) != 0) abort();
    shared = (volatile unsigned long*)mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  return shared;
}
static void busy_ms(double ms) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do clock_gettime(CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1e3 + (now.tv_nsec - start.tv_nsec) / 1e6 < ms);
})";
  write_text(dir_ / "spins.c", c_kernel(counter + R"(
static void* spin(void* unused) {
  for (;;) ++*counter();
  return unused;
})",
                                        R"(
  static int started;
  if (!started) {
    pthread_t thread;
    started = pthread_create(&thread, 0, spin, 0) == 0;
  })"));
  write_text(dir_ / "watches.c", c_kernel(counter, R"(
  busy_ms(2);
  const unsigned long before = *counter();
  busy_ms(10);
  const unsigned long after = *counter();
  if (after != before) {
    fprintf(stderr, "the count moved from %lu to %lu during the call\n", before, after);
    return 7;
  })"));
  write_config("  spins: {source: spins.c}\n  watches: {source: watches.c}\n");
  const Orphanage orphanage;
  run_to_end();
  expect_all_ok("watches");
  expect_all_ok("spins");  // it runs while it is called itself
}

// A kernel that makes its input writable with mprotect and zeroes it: the input is a sealed
// memfd, so mprotect fails with EACCES and the write faults; that kernel's points fail, and the
// next kernel reads the image as it is.
TEST_F(KernelIsolation, AnInputMadeWritableByMprotectCostsOnlyItsOwnPoints) {
  write_text(dir_ / "unseals.c", c_kernel("", R"(
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  const uintptr_t first = (uintptr_t)p->in & ~(page - 1);
  const uintptr_t end = (uintptr_t)p->in + (uintptr_t)(p->height * p->in_pitch);
  const int made = mprotect((void*)first, end - first, PROT_READ | PROT_WRITE);
  FILE* said = fopen("mprotect.txt", "w");
  fprintf(said, "%d %s", made, made == 0 ? "writable" : strerror(errno));
  fclose(said);
  memset((void*)p->in, 0, (size_t)(p->height * p->in_pitch));)"));
  write_text(dir_ / "good.c", kGoodKernel);
  write_config("  unseals: {source: unseals.c}\n  good: {source: good.c}\n");
  const Orphanage orphanage;
  run_to_end();
  EXPECT_EQ(read_text(dir_ / "mprotect.txt"), "-1 " + std::string(std::strerror(EACCES)));
  auto by_name = records_by_implementation();
  ASSERT_EQ(by_name["unseals"].size(), 4u) << output_;
  for (const json& record : by_name["unseals"]) {
    EXPECT_EQ(record["status"], "failed") << record.dump();
    EXPECT_NE(record.value("reason", "").find("signal 11"), std::string::npos) << record.dump();
  }
  expect_all_ok("good");
}

TEST_F(KernelIsolation, SigintDuringAHangingPointLeavesNoProcessBehind) {
  expect_nothing_outlives(SIGINT, 130);
}

TEST_F(KernelIsolation, SigtermDuringAHangingPointLeavesNoProcessBehind) {
  expect_nothing_outlives(SIGTERM, 143);
}

TEST_F(KernelIsolation, SigkillDuringAHangingPointLeavesNoProcessBehind) {
  expect_nothing_outlives(SIGKILL, 0);
}

// A kernel that forks a child sleeping 300 s: the run exits 0, the child is gone when convlab has
// ended, and a reader of convlab's output (`convlab run ... | tee`) sees its end at once.
TEST_F(KernelIsolation, AForkedChildEndsWithItsHostAndHoldsNoOutputOpen) {
  write_text(dir_ / "forks.c", c_kernel("", R"(
  static int forked;
  if (!forked) {
    forked = 1;
    if (fork() == 0) { sleep(300); _exit(0); }
  })"));
  write_config("  forks: {source: forks.c}\n");
  const Orphanage orphanage;
  ConvlabRun run(dir_, "c.yaml");
  ASSERT_TRUE(run.wait(120)) << run.output();
  const std::vector<pid_t> left = live_processes_below(::getpid());
  EXPECT_TRUE(left.empty()) << "still running when convlab had ended:\n" << listed(left);
  EXPECT_TRUE(run.read_to_eof(5)) << "convlab's output still open 5 s after it ended";
  if (run.read_to_eof(0)) {
    EXPECT_LT(run.eof_after_end(), 1.0);
  }
  ASSERT_TRUE(WIFEXITED(run.status()) && WEXITSTATUS(run.status()) == 0) << run.output();
  output_ = run.output();
  expect_all_ok("forks");
}

// Many implementations of many variants each: however many there are, no more than
// max_live_kernel_hosts_per_family() hosts run at once (each would hold a CUDA context on a GPU).
// Every call of the kernel counts the hosts its convlab runs now (the keepers among convlab's
// children) and notes the count; the hosts asked least recently are ended to make room, and their
// points, called again in the next problem, run on a new host.
TEST_F(KernelIsolation, ARunOverManyImplementationsAndVariantsKeepsFewHostsAlive) {
  const fs::path counts = dir_ / "counts";
  write_text(dir_ / "counts.c", c_kernel(R"(
static long parent_of(long pid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE* file = fopen(path, "r");
  if (!file) return -1;
  const size_t got = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[got] = 0;
  const char* close = strrchr(text, ')');
  long parent = -1;
  if (close) sscanf(close + 2, "%*c %ld", &parent);
  return parent;
}
static int is_kernel_host(long pid) {
  char path[64], text[256];
  snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
  FILE* file = fopen(path, "r");
  if (!file) return 0;
  const size_t got = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  for (size_t i = 0; i < got; ++i) if (text[i] == 0) text[i] = ' ';
  text[got] = 0;
  return strstr(text, "kernel-host --channel") != NULL;
}
#include <dirent.h>
static int live_hosts(void) {
  const long convlab = parent_of(getppid());  /* this server's keeper's parent */
  int hosts = 0;
  DIR* proc = opendir("/proc");
  for (struct dirent* entry; proc && (entry = readdir(proc));) {
    const long pid = atol(entry->d_name);
    if (pid > 0 && parent_of(pid) == convlab && is_kernel_host(pid)) ++hosts;
  }
  if (proc) closedir(proc);
  return hosts;
})",
                                         "  FILE* log = fopen(\"" + counts.string() +
                                             "\", \"a\");\n  if (log) { fprintf(log, \"%d %d\\n\", "
                                             "live_hosts(), VARIANT); fclose(log); }"));
  std::string implementations;
  const int kImplementations = 6;
  for (int i = 0; i < kImplementations; ++i)
    implementations += "  mine" + std::to_string(i) +
                       ": {source: counts.c, params: {VARIANT: [1, 2, 3, 4, 5, 6, 7, 8]}}\n";
  write_config(implementations);
  const Orphanage orphanage;
  EXPECT_EQ(run_to_end(), 0) << output_;
  for (int i = 0; i < kImplementations; ++i) expect_all_ok("mine" + std::to_string(i), 4 * 8);
  std::ifstream log(counts);
  int most = 0, calls = 0, hosts = 0, variant = 0;
  std::set<int> variants;
  while (log >> hosts >> variant) {
    most = std::max(most, hosts);
    variants.insert(variant);
    ++calls;
  }
  EXPECT_GE(calls, kImplementations * 8 * 4);  // every point called at least once
  EXPECT_EQ(variants.size(), 8u);
  // As many as allowed ran together (the count sees them), never more.
  EXPECT_EQ(most, static_cast<int>(max_live_kernel_hosts_per_family())) << output_;
  EXPECT_LT(max_live_kernel_hosts_per_family(), static_cast<std::size_t>(kImplementations));
  EXPECT_TRUE(Orphanage::left_after(10).empty());
}

// A library whose constructor aborts is reported with the signal named, as a crashing point is.
TEST_F(KernelIsolation, ALibraryThatAbortsWhenLoadedIsReportedWithItsSignal) {
  write_text(dir_ / "aborts.c", c_kernel(R"(
__attribute__((constructor)) static void refuse_to_load(void) {
  fputs("refusing to load\n", stderr);
  abort();
})",
                                         ""));
  write_config("  aborts: {source: aborts.c}\n");
  const Orphanage orphanage;
  const auto validate = testing::run_shell("CONVLAB_KERNEL_CACHE='" + (dir_ / "cache").string() +
                                               "' timeout -k 5 120 \"$CONVLAB\" validate c.yaml",
                                           dir_);
  EXPECT_EQ(validate.exit_code, 2) << validate.output;
  EXPECT_NE(validate.output.find("the loading was killed by signal 6 (Aborted)"), std::string::npos)
      << validate.output;
  EXPECT_NE(validate.output.find("refusing to load"), std::string::npos) << validate.output;
  EXPECT_EQ(validate.output.find("status 134"), std::string::npos) << validate.output;
}

}  // namespace
}  // namespace convlab
