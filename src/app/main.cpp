// convlab: reproducible 2D convolution experiments from YAML configs.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "app/commands.hpp"
#include "app/thread_pinning.hpp"
#include "core/standard_output.hpp"
#include "run/kernel_host.hpp"

namespace {

const char* kUsage = R"(usage: convlab <command> [options]

commands:
  run CONFIG       run an experiment and write outputs/<name>/results.json
                   (--shard I/N: one part of it; --devices: one worker per GPU)
  merge DIR        fold the shard files of DIR/shards into DIR/results.json
  slurm CONFIG     write (and --submit) a SLURM array job of shards and its merge job
  validate CONFIG  check a config and print its plan size, without running
  list             implementations with their axes, kernels, borders and outputs
  schema           the JSON Schema of the config language (docs/config.schema.json)
  show DIR         print the summary of DIR/results.json, running nothing; with --best,
                   the fastest implementation and configuration of every problem
  gallery DIR      write the gallery pictures of DIR/results.json again (from saved outputs)
  export RESULTS   results.json -> TSV, gnuplot scripts, LaTeX tables, report section;
                   with --format csv|md|tsv one flat row per record (or the winners)
  compare A B      compare two results point by point (exit 1 on a slowdown)
  search RESULTS   replay search strategies against a full grid measured before
  notebook         every experiment as an HTML page, and an index (outputs/notebook/)
  report DIR       the report of that experiment alone: DIR/report.pdf
  watch CONFIG     on every save of CONFIG, run its new points and make its page again
                   (--serve: update the page open in a browser)
  version          version, commit, build type, compiler, optional parts (also --version)

Run `convlab <command> --help` for the options of a command.
)";

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
    std::cout << kUsage;
    return argc < 2 ? 2 : 0;
  }
  const std::string command = full[1];
  const Arguments args(full.begin() + 2, full.end());
  try {
    if (command == "--version" || command == "version") return version_command(args);
    if (command == "show") return show_command(args);
    if (command == "run") return run_command(args, full);
    if (command == "merge") return merge_command(args);
    if (command == "slurm") return slurm_command(args, full);
    if (command == "validate") return validate_command(args);
    if (command == "list") return list_command(args);
    if (command == "schema") return schema_command(args);
    if (command == "gallery") return gallery_command(args);
    if (command == "export") return export_command(args);
    if (command == "compare") return compare_command(args);
    if (command == "search") return search_command(args);
    if (command == "notebook") return notebook_command(args);
    if (command == "report") return report_command(args);
    if (command == "watch") return watch_command(args, full);
    // Not for users: the process a run starts to run users' own kernels in (impl/user).
    if (command == "kernel-host") return run_kernel_host(args);
  } catch (const std::bad_alloc&) {
    std::cerr << "convlab " << command << (args.empty() ? "" : " " + args[0])
              << ": out of memory\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab " << command << (args.empty() ? "" : " " + args[0]) << ": "
              << error.what() << "\n";
    return 2;
  }
  std::cerr << "convlab: unknown command '" << command << "'\n" << kUsage;
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
