#include <iostream>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "app/run_summary.hpp"
#include "config/config.hpp"
#include "config/config_error.hpp"
#include "core/file_io.hpp"
#include "run/devices.hpp"
#include "run/interrupt.hpp"
#include "run/runner.hpp"
#include "run/schedule.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

const char* kRunUsage = R"(usage: convlab run CONFIG [options]

Runs every point of the config (images x kernels x borders x outputs x implementation
parameters), verifies each output against the reference and writes outputs/<name>/results.json;
every finished point is kept (in results.journal until the run ends or is stopped). Points
already measured with the same build on the same machine are kept, not re-run.

options:
  --out DIR        write DIR/results.json instead of outputs/<name>/results.json
  --filter EXPR    run only matching points, e.g. 'implementation=openmp,kernel.size>=7'
                   (clauses: field=a|b, field!=v, field<v, <=, >, >=, field~text;
                   see docs/config.md)
  --force          re-run points that already have a result
  --dry-run        print the plan, the points that will be skipped and why, those the results
                   file holds already ('0 new points (744 measured)'), and the estimated cost
                   of the new ones; run nothing
  --device N       CUDA device to use (default 0)
  --devices all|0,1,...
                   one worker process per CUDA device: the CUDA points of a problem all on one
                   device, spread by estimated cost; then the CPU points in this process alone.
                   With --dry-run, the split is shown without checking the devices
  --shard I/N      run the I-th of N parts of the plan (0-based: 0/N ... N-1/N), cut by estimated
                   cost without splitting a problem; writes DIR/shards/shard-I-of-N.json, and
                   DIR/results.json once every shard is done (convlab merge; docs/scale-out.md)
  --max-points N   stop after running N points (the rest can be resumed later)
  --table          end with every point's row (median, CV, speedup, verdict) instead of the
                   fastest implementation of each problem (convlab show --best; convlab show
                   DIR prints every row at any time)
  -q, --quiet      no progress and no summary table (a failed point is still named)
  -v, --verbose    one line per point with repetitions, median and CV, also on a terminal;
                   and the time of each phase, as --phases prints it
  --phases         print where the time went when the run ends: image, reference, prepare,
                   timing, verify, record and other seconds per problem, and the run's totals
                   (each device worker its own; always recorded in results.json run.phases)
  --worker K       (used by --devices) run as the K-th device worker

exit status: 0 every point ok or skipped, 1 a point failed, 2 bad config or arguments, or a
results file that could not be read or written (every finished point is kept)
)";

bool take_value(const Arguments& args, size_t& i, std::string& value) {
  if (i + 1 >= args.size()) {
    std::cerr << "convlab run: " << args[i] << " needs a value\n";
    return false;
  }
  value = args[++i];
  return true;
}

bool parse_integer(const std::string& option, const std::string& text, long& value) {
  try {
    size_t used = 0;
    value = std::stol(text, &used);
    if (used == text.size() && value >= 0) return true;
  } catch (const std::exception&) {
  }
  std::cerr << "convlab run: " << option << " needs a non-negative integer, got '" << text << "'\n";
  return false;
}

bool parse_option_value(const std::string& option, const std::string& text, RunOptions& options) {
  std::string error;
  if (option == "--shard") {
    options.shard = parse_shard(text, &error);
    if (options.shard) return true;
  } else if (option == "--devices") {
    options.devices = parse_devices(text, &error);
    if (options.devices) return true;
  }
  std::cerr << "convlab run: " << option << " " << text << ": " << error << "\n";
  return false;
}

// Options that cannot go together, refused before the config is read.
bool options_agree(const RunOptions& options, bool device_given) {
  const char* problem = nullptr;
  if (options.devices && device_given)
    problem = "--device and --devices cannot be combined (--devices 3 runs on device 3 alone)";
  else if (options.devices && options.max_points >= 0)
    problem = "--max-points cannot be combined with --devices";
  else if (options.worker >= 0 && !options.devices)
    problem = "--worker is given by --devices to its workers";
  if (problem) std::cerr << "convlab run: " << problem << "\n";
  return problem == nullptr;
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
    std::cerr << error.what() << "\n";
    return 2;
  } catch (const ResultsFileError& error) {
    std::cerr << "convlab " << command << ": " << error.what() << "\n";
    return 2;
  } catch (const FileError& error) {
    std::cerr << "convlab " << command << ": " << error.what() << "\n";
    return 2;
  } catch (const RunArgumentError& error) {
    std::cerr << "convlab " << command << ": " << error.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "convlab " << command << ": " << options.config_path << ": out of memory\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "convlab " << command << ": " << options.config_path << ": " << error.what()
              << "\n";
    return 2;
  }
}

int run_command(const Arguments& args, const Arguments& full_argv) {
  RunOptions options;
  options.argv = full_argv;
  bool device_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string value;
    long number = 0;
    if (arg == "--help" || arg == "-h") {
      std::cout << kRunUsage;
      return 0;
    } else if (arg == "--out") {
      if (!take_value(args, i, options.out_dir)) return 2;
      if (options.out_dir.empty()) {
        std::cerr << "convlab run: --out needs a folder, got ''\n";
        return 2;
      }
    } else if (arg == "--filter") {
      if (!take_value(args, i, value)) return 2;
      std::string error;
      options.filter = parse_point_filter(value, &error);
      if (!options.filter) {
        std::cerr << "convlab run: --filter: " << error << "\n";
        return 2;
      }
    } else if (arg == "--quiet" || arg == "-q") {
      options.verbosity = Verbosity::quiet;
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbosity = Verbosity::verbose;
    } else if (arg == "--phases") {
      options.phases = true;
    } else if (arg == "--table") {
      options.table = true;
    } else if (arg == "--force") {
      options.force = true;
    } else if (arg == "--dry-run") {
      options.dry_run = true;
    } else if (arg == "--device") {
      if (!take_value(args, i, value) || !parse_integer(arg, value, number)) return 2;
      options.cuda_device = static_cast<int>(number);
      device_given = true;
    } else if (arg == "--shard" || arg == "--devices") {
      if (!take_value(args, i, value) || !parse_option_value(arg, value, options)) return 2;
    } else if (arg == "--worker") {
      if (!take_value(args, i, value) || !parse_integer(arg, value, number)) return 2;
      options.worker = static_cast<int>(number);
    } else if (arg == "--max-points") {
      if (!take_value(args, i, value) || !parse_integer(arg, value, number)) return 2;
      options.max_points = number;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "convlab run: unknown option '" << arg << "'\n" << kRunUsage;
      return 2;
    } else if (options.config_path.empty()) {
      options.config_path = arg;
    } else {
      std::cerr << "convlab run: only one CONFIG, got '" << options.config_path << "' and '" << arg
                << "'\n";
      return 2;
    }
  }
  if (options.config_path.empty()) {
    std::cerr << kRunUsage;
    return 2;
  }
  if (!options_agree(options, device_given)) return 2;
  watch_for_interrupts();  // before any thread starts, so every thread leaves the signals to it
  return run_loaded_config(options, "run");
}

}  // namespace convlab
