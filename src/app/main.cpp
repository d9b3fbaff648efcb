// convlab: reproducible 2D convolution experiments from YAML configs.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "app/commands.hpp"
#include "app/thread_pinning.hpp"
#include "core/closest_name.hpp"
#include "core/message_text.hpp"
#include "core/standard_output.hpp"
#include "user_kernels/kernel_host.hpp"
#include "user_kernels/nvrtc_compile.hpp"

namespace {

// Memory set aside for the way out of an allocation failure: the first failure releases it and
// throws std::bad_alloc, so that unwinding (destructors of large JSON and YAML trees allocate
// work lists) and the error message have room, and convlab exits 2 with a message instead of
// terminating.
char* emergency_reserve = nullptr;

void release_reserve_and_fail() {
  delete[] emergency_reserve;
  emergency_reserve = nullptr;
  std::set_new_handler(nullptr);
  throw std::bad_alloc();
}

// The command's exit code; what it printed is checked by main.
int run_convlab(int argc, char** argv) {
  using namespace convlab;
  const Arguments full(argv, argv + argc);
  if (argc < 2 || full[1] == "--help" || full[1] == "-h" || full[1] == "help") {
    std::cout << commands_usage();
    return argc < 2 ? 2 : 0;
  }
  const std::string command = full[1] == "--version" ? "version" : full[1];
  const Arguments args(full.begin() + 2, full.end());
  try {
    for (const CommandEntry& entry : command_table())
      if (entry.name == command) return entry.run(args, full);
    // Not for users: the process a run starts to run users' own kernels in (user_kernels).
    if (command == "kernel-host") return run_kernel_host(args);
    // Not for users either: NVRTC's process, bounded in time and memory (user_kernels).
    if (command == "nvrtc-compile") return run_nvrtc_compile_command(args);
  } catch (const std::bad_alloc&) {
    std::cerr << "convlab " << command << (args.empty() ? "" : " " + shortened_path(args[0]))
              << ": out of memory\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab " << command << (args.empty() ? "" : " " + shortened_path(args[0]))
              << ": " << bounded_message(error.what()) << "\n";
    return 2;
  }
  std::vector<std::string> names;
  for (const CommandEntry& entry : command_table()) names.push_back(entry.name);
  const std::string closest = closest_name(command, names);
  std::cerr << "convlab: unknown command '" << clipped(command, 64) << "'"
            << (closest.empty() ? "" : " (did you mean '" + closest + "'?)") << "\n"
            << commands_usage();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  convlab::pin_openmp_threads(argv);  // may re-execute: before anything else
  emergency_reserve = new (std::nothrow) char[16 << 20];
  std::set_new_handler(release_reserve_and_fail);
  convlab::use_checked_standard_output();
  const int status = run_convlab(argc, argv);
  // Output that did not arrive is a failure, whatever the command made of its work.
  if (const auto error = convlab::finish_standard_output()) {
    std::cerr << "convlab" << (argc > 1 ? std::string(" ") + argv[1] : std::string())
              << ": standard output: " << *error << "\n";
    return 2;
  }
  return status;
}
