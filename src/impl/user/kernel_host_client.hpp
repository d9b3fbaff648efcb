// convlab's side of a kernel host (kernel_host.hpp): the process that runs users' kernels, so
// that a kernel that crashes, aborts, calls exit, corrupts its CUDA context or never returns costs
// only its own point. One host per family and CUDA device serves the points of every user
// implementation of the run; a host that ended is started again for the next point, and points
// prepared on it before are prepared again on the new one.
#pragma once

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "impl/family.hpp"
#include "impl/user/kernel_contract.hpp"

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
  // host first when none runs. Throws KernelHostError; a host that timed out is killed, one that
  // answered with an error in the cuda family is stopped (its context may be unusable).
  // `limit` is the point's time limit a timeout names.
  nlohmann::json request(const nlohmann::json& body, const std::vector<int>& fds, double seconds,
                         double limit);
  // Counts the hosts started: a point prepared under another generation is prepared again.
  int generation() const { return generation_; }
  bool running() const { return pid_ > 0; }
  void stop();

 private:
  void start();
  [[noreturn]] void fail(const std::string& reason);
  Family family_;
  pid_t pid_ = -1;
  int socket_ = -1;
  int generation_ = 0;
};

// The host of `family` for this process.
KernelHost& kernel_host(Family family);

// The program a kernel host runs: this executable (`convlab kernel-host`), or $CONVLAB_KERNEL_HOST
// (for processes that are not convlab, such as the tests).
std::string kernel_host_program();

// The declarations of a compiled .c/.cpp, read by a kernel host (`convlab kernel-host --describe`)
// so that no user code runs in this process: constants convlab_* and whether convlab_convolve is
// defined; `error` says why they could not be read (the library does not load, the host crashed).
struct LibraryDeclarations {
  DeclaredInts ints;
  std::vector<std::string> entries;
  std::string error;
};
LibraryDeclarations describe_shared_library(const std::string& path);

// "was killed by signal 11 (Segmentation fault)", "exited with status 3": a wait status in words.
std::string wait_status_words(int status);

}  // namespace convlab
