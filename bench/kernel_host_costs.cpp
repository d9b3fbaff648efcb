// What a kernel host costs convlab, timed directly on this machine's CPUs (docs/own-kernels.md,
// "What is isolated, and how"): starting a host (a fork and exec of convlab for the keeper, a fork
// for the server, its hello), a request's round trip (a request the server answers without work),
// stopping and continuing it (SIGSTOP to the server's process group and each of its threads, then
// SIGCONT, as when another implementation's point is called between two of its own), and ending
// it (the keeper kills what is below it and is reaped).
//
//   convlab_kernel_host_costs CONVLAB [ROUNDS]
//   convlab_kernel_host_costs build/convlab 200
//
// Prints one line per figure: the median, 10th and 90th percentile over ROUNDS (default 100; the
// round trips and stops 20 times as many). A note, not a test: the numbers depend on the machine
// and on what else it is doing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/stopwatch.hpp"
#include "user_kernels/kernel_host_client.hpp"

namespace {

using convlab::KernelHost;
using convlab::Stopwatch;

const nlohmann::json kNoWork{{"op", "release"}, {"id", 0}};  // answered at once

void print(const char* what, std::vector<double> us) {
  std::sort(us.begin(), us.end());
  const auto at = [&](double q) { return us[static_cast<std::size_t>(q * (us.size() - 1))]; };
  std::printf("%-46s median %9.1f us   p10 %9.1f us   p90 %9.1f us   (%zu times)\n", what, at(0.5),
              at(0.1), at(0.9), us.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: convlab_kernel_host_costs CONVLAB [ROUNDS]\n");
    return 2;
  }
  ::setenv("CONVLAB_KERNEL_HOST", argv[1], 1);
  const int rounds = argc == 3 ? std::max(5, std::atoi(argv[2])) : 100;
  std::vector<double> start, end, trip, stop_continue, stop_only;
  try {
    for (int r = 0; r < rounds; ++r) {
      KernelHost host(convlab::Family::cpu);
      Stopwatch clock;
      host.request(kNoWork, {}, 30, 30);  // starts it: spawn, exec, fork, hello, one request
      start.push_back(clock.elapsed_ms() * 1000);
      for (int i = 0; i < 20; ++i) {
        clock.restart();
        host.request(kNoWork, {}, 30, 30);
        trip.push_back(clock.elapsed_ms() * 1000);
        clock.restart();
        convlab::stop_running_kernel_host();  // what calling one of convlab's own does first
        stop_only.push_back(clock.elapsed_ms() * 1000);
        clock.restart();
        host.request(kNoWork, {}, 30, 30);  // continued, then asked
        stop_continue.push_back(clock.elapsed_ms() * 1000);
      }
      clock.restart();
      host.stop();
      end.push_back(clock.elapsed_ms() * 1000);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "convlab_kernel_host_costs: %s\n", error.what());
    return 1;
  }
  print("host start (to its first answer)", start);
  print("request round trip (a running host)", trip);
  print("stop (SIGSTOP, every thread stopped)", stop_only);
  print("round trip of a stopped host (continue + ask)", stop_continue);
  print("host end (keeper kills all below, reaped)", end);
  return 0;
}
