// convlab's side of a kernel host (kernel_host.hpp): the processes that run users' kernels, so that
// a kernel that crashes, aborts, calls exit, corrupts its CUDA context, never returns or leaves
// something running costs only its own points.
//
// Each user implementation has a host of its own, started at its first point and reused by all its
// points; a host that ended is started again for the next point, and points prepared on it before
// are prepared again on the new one. At most max_live_kernel_hosts_per_family() hosts of a family
// run at once (the one asked least recently is ended to start another), and a host that loaded
// max_artifacts_per_kernel_host() variants is started afresh before it loads another. A host is a
// keeper (kernel_host_keeper.hpp: its own process group, a child subreaper, dies with convlab
// however convlab ends) above a server (its own process group, where the kernels run). Only the
// host last asked something may run: a request to another host, or a call of any point that does
// not run in a host (measure/repetitions.cpp), stops its server's process group first (SIGSTOP), so
// a thread or child a kernel left running takes no CPU from another kernel's timing; it runs again
// only while its own implementation is prepared or called. When the run has no more points of the
// implementation, on a timeout, a crash, or when convlab ends, the keeper kills every process below
// it. What the host prints goes through a pipe this process forwards to its standard error, so
// nothing a kernel starts holds convlab's own output open.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "impl/family.hpp"
#include "user_kernels/kernel_contract.hpp"
#include "user_kernels/process_tree.hpp"

namespace convlab {

// A request the host could not answer: it ended (with the signal or status in words), timed out,
// or answered with an error. what() is the reason a failed record gives.
class KernelHostError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class KernelHost {
 public:
  explicit KernelHost(Family family);
  ~KernelHost();
  KernelHost(const KernelHost&) = delete;
  KernelHost& operator=(const KernelHost&) = delete;

  // Sends a request and waits at most `seconds` (negative: for ever) for the answer; starts the
  // host first when none runs. Throws KernelHostError; a host that timed out is ended, one that
  // answered with an error in the cuda family is ended too (its context may be unusable).
  // `limit` is the point's time limit a timeout names.
  nlohmann::json request(const nlohmann::json& body, const std::vector<int>& fds, double seconds,
                         double limit);
  // Counts the hosts started: a point prepared under another generation is prepared again.
  int generation() const { return generation_; }
  bool running() const { return keeper_ > 0; }
  Family family() const { return family_; }
  // When it was last asked something, on a clock of this process's requests.
  std::uint64_t last_request() const { return last_request_; }
  // Notes that a point of the compiled variant `sha256` is prepared next; a host that loaded
  // max_artifacts_per_kernel_host() others is ended first, and starts afresh at the next request.
  void admit_artifact(const std::string& sha256);
  // Ends the host and every process below it, and waits for them.
  void stop();
  // Stops the host that may run now, if any (stop_running_kernel_host).
  static void freeze_the_running_one();

 private:
  void start(double seconds);
  void claim();   // stops the host that ran before, if another, and lets this one run
  void thaw();    // SIGCONT to the server's process group, when it is stopped
  void freeze();  // SIGSTOP to it, between requests
  [[noreturn]] void fail(const std::string& reason);
  Family family_;
  pid_t keeper_ = -1;  // the process started here; its process group
  pid_t server_ = -1;  // the process running the kernels; its process group
  int socket_ = -1;
  int generation_ = 0;
  bool frozen_ = false;
  std::uint64_t last_request_ = 0;
  std::set<std::string> artifacts_;  // the variants loaded by this generation
};

// At most this many hosts of one family run at once: starting another ends the one asked least
// recently (its points are prepared again on a new host if they are called again).
std::size_t max_live_kernel_hosts_per_family();
// The compiled variants one host loads before it is started afresh.
std::size_t max_artifacts_per_kernel_host();

// The host named `name` (one per user implementation) in this process, of `family`.
KernelHost& kernel_host(const std::string& name, Family family);
// Stops (SIGSTOP, until its next request) the kernel host that may run now, so that nothing its
// kernels left running takes CPU from what comes next; called before every call of a point that
// does not run in a kernel host.
void stop_running_kernel_host();
// Ends the host named `name`, when it has one running: its points are done.
void end_kernel_host(const std::string& name);
// Ends every host now, from a thread that is about to end the process (SIGINT, SIGTERM): the
// servers' process groups are killed and the keepers asked to kill whatever else is below them;
// waits a little for the keepers. Takes no lock a request holds.
void end_kernel_hosts_now();

// The program a kernel host runs: this executable (`convlab kernel-host`), or $CONVLAB_KERNEL_HOST
// (for processes that are not convlab, such as the tests).
std::string kernel_host_program();

// The declarations of a compiled .c/.cpp, read by a kernel host (`convlab kernel-host --describe`)
// so that no user code runs in this process: constants convlab_* and whether convlab_convolve is
// defined; `error` says why they could not be read (the library does not load, the loading was
// killed by a signal, which it names).
struct LibraryDeclarations {
  DeclaredInts ints;
  std::vector<std::string> entries;
  std::string error;
};
LibraryDeclarations describe_shared_library(const std::string& path);

}  // namespace convlab
