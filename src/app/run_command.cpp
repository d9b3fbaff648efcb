#include <climits>
#include <iostream>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "app/run_end_summary.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "core/file_io.hpp"
#include "core/message_text.hpp"
#include "run/devices.hpp"
#include "run/interrupt.hpp"
#include "run/runner.hpp"
#include "run/schedule.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

CommandLine run_command_line(RunOptions& options, bool& device_given) {
  CommandLine line(
      "run",
      {{},
       R"(Runs every point of the config (images x kernels x borders x outputs x implementation
parameters), verifies each output against the reference and writes outputs/<name>/results.json;
every finished point is kept (in results.journal until the run ends or is stopped). Points
already measured with the same build on the same machine are kept, not re-run.
)",
       "",
       "0 every point ok or skipped, 1 a point failed, 2 bad config or "
       "arguments, or a results file that could not be read or written "
       "(every finished point is kept)"});
  line.positional("CONFIG", options.config_path)
      .value("--out", "DIR", "write DIR/results.json instead of outputs/<name>/results.json",
             non_empty_into(options.out_dir))
      .value("--filter", "EXPR",
             "run only matching points, e.g. 'implementation=openmp,kernel.size>=7' (clauses: "
             "field=a|b, field!=v, field<v, <=, >, >=, field~text; see docs/config.md)",
             filter_into(options.filter))
      .flag("--force", "re-run points that already have a result", options.force)
      .flag("--dry-run",
            "print the plan, the points that will be skipped and why, those the results file "
            "holds already ('0 new points (744 measured)'), and the estimated cost of the new "
            "ones; run nothing",
            options.dry_run)
      .value("--device", "N", "CUDA device to use (default 0)",
             [&](const std::string& text) {
               options.cuda_device = static_cast<int>(parse_whole_number(text, 0, INT_MAX));
               device_given = true;
             })
      .value("--devices", "all|0,1,...",
             "one worker process per CUDA device, each taking the next problem (all its CUDA "
             "points) when it is free, largest first, preferring the image it holds; then the CPU "
             "points in this process alone. With --dry-run, the cost model's forecast of it is "
             "shown without checking the devices",
             parsed_into(options.devices, parse_devices))
      .value("--shard", "I/N",
             "run the I-th of N parts of the plan (0-based: 0/N ... N-1/N), cut by estimated cost "
             "without splitting a problem; writes DIR/shards/shard-I-of-N.json, and "
             "DIR/results.json once every shard is done (convlab merge; docs/scale-out.md)",
             parsed_into(options.shard, parse_shard))
      .value("--max-points", "N", "stop after running N points (the rest can be resumed later)",
             whole_number_into(options.max_points, 0, LONG_MAX))
      .flag("--table",
            "end with every point's row (median, CV, speedup, verdict) instead of the fastest "
            "implementation of each problem (convlab show --best; convlab show DIR prints every "
            "row at any time)",
            options.table)
      .flag("-q, --quiet", "no progress and no summary table (a failed point is still named)",
            [&](const std::string&) { options.verbosity = Verbosity::quiet; })
      .flag("-v, --verbose",
            "one line per point with repetitions, median and CV, also on a terminal; and the time "
            "of each phase, as --phases prints it",
            [&](const std::string&) { options.verbosity = Verbosity::verbose; })
      .flag("--phases",
            "print where the time went when the run ends: image, reference, prepare, timing, "
            "verify, record and other seconds per problem, and the run's totals (each device "
            "worker its own; always recorded in results.json run.phases)",
            options.phases)
      .value("--worker", "K", "(used by --devices) run as the K-th device worker",
             whole_number_into(options.worker, 0, INT_MAX))
      .value("--hand-out", "FD",
             "(used by --devices) take problems one at a time from the socket FD",
             whole_number_into(options.hand_out_fd, 3, INT_MAX));
  return line;
}

// Options that cannot go together, refused before the config is read: the reason, or null.
const char* options_disagree(const RunOptions& options, bool device_given) {
  const char* problem = nullptr;
  if (options.devices && device_given)
    problem = "--device and --devices cannot be combined (--devices 3 runs on device 3 alone)";
  else if (options.devices && options.max_points >= 0)
    problem = "--max-points cannot be combined with --devices";
  else if (options.worker >= 0 && !options.devices)
    problem = "--worker is given by --devices to its workers";
  else if (options.hand_out_fd >= 0 && options.worker < 0)
    problem = "--hand-out is given by --devices to its workers, with --worker";
  return problem;
}

}  // namespace

int run_loaded_config(const RunOptions& options, const std::string& command) {
  try {
    LoadedConfig loaded = load_config_for_command(options.config_path);
    RunOptions with_summary = options;
    with_summary.summary =
        run_summary_on_stdout(options.table ? SummaryRows::all : SummaryRows::best);
    return run_experiment(with_summary, std::move(loaded.config), std::move(loaded.plan));
  } catch (const ConfigError& error) {
    std::cerr << bounded_message(error.what()) << "\n";
    return 2;
  } catch (const ResultsFileError& error) {
    return report_command_error(command, error);
  } catch (const FileError& error) {
    return report_command_error(command, error);
  } catch (const RunArgumentError& error) {
    return report_command_error(command, error);
  } catch (const std::bad_alloc&) {
    std::cerr << "convlab " << command << ": " << shortened_path(options.config_path)
              << ": out of memory\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab " << command << ": " << shortened_path(options.config_path) << ": "
              << bounded_message(error.what()) << "\n";
    return 2;
  }
}

int run_command(const Arguments& args, const Arguments& full_argv) {
  RunOptions options;
  options.argv = full_argv;
  bool device_given = false;
  const CommandLine line = run_command_line(options, device_given);
  if (const auto status = line.parse(args)) return *status;
  if (const auto status = line.refuse_non_utf8(args)) return *status;
  if (const char* problem = options_disagree(options, device_given)) return line.refuse(problem);
  watch_for_interrupts();  // before any thread starts, so every thread leaves the signals to it
  return run_loaded_config(options, "run");
}

}  // namespace convlab
