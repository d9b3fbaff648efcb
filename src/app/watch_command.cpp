// convlab watch: edit, save, see. The config and the kernel sources it names are watched with
// inotify (core/file_watch.hpp); on every save the config is checked as `convlab run` checks it,
// the points of the new config not measured yet are run through the same journal and resume as
// `convlab run` (a saved source changes the ids of its implementation's points only, so those run
// again), and the experiment's notebook page is made again after every finished point, the cells
// whose content changed since the save marked. A bad config, or a kernel that does not compile, is
// shown at the top of the page above the last good results. With --serve the page is served and
// updated in the open browser as points finish (server-sent events).
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>

#include "app/child_processes.hpp"
#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "app/file_writes.hpp"
#include "app/live_channel.hpp"
#include "app/notebook_pages.hpp"
#include "app/run_summary.hpp"
#include "config/config_error.hpp"
#include "config/user_kernel_entry.hpp"
#include "config/yaml_load.hpp"
#include "core/file_io.hpp"
#include "core/file_watch.hpp"
#include "core/sha256.hpp"
#include "html/html_text.hpp"
#include "html/index_page.hpp"
#include "notebook/notebook_builder.hpp"
#include "run/interrupt.hpp"
#include "run/kernel_compilation.hpp"
#include "run/observers.hpp"
#include "run/runner.hpp"
#include "store/results_file.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

struct WatchOptions {
  std::string config_path;
  std::string out_dir;
  NotebookPlace place;
  bool serve = false;
  int port = 0;
  std::string bind_address = "127.0.0.1";
  bool quiet = false;
  Arguments argv;
};

// A page render at most this often while points finish; the last one of a sweep always.
constexpr double kMinSecondsBetweenRenders = 0.2;

// Thrown out of a sweep when the config or a source is saved again while it runs: the points it
// finished are in the results file (the run folds its journal on the way out), and the new config
// starts.
struct SavedDuringSweep {
  std::vector<std::string> files;
};

// What the top of the page says went wrong: the config, or a kernel the config names.
enum class WatchError { none, config, compile };

// "a.yaml", "a.yaml and k.cu", "a.yaml, k.cu and t.cu".
std::string files_words(const std::vector<std::string>& files) {
  std::string words;
  for (size_t i = 0; i < files.size(); ++i)
    words += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
  return words;
}

class Watcher : public RunObserver {
 public:
  Watcher(const WatchOptions& options, LiveChannel& channel, FileWatch& files)
      : options_(options), channel_(channel), files_(files) {
    fs::create_directories(options_.place.out);
    katex_ = write_assets(options_.place.out);
    gnuplot_ = program_available("gnuplot");
    if (!gnuplot_)
      std::cerr << "convlab watch: gnuplot not found: figures are left out; "
                   "scripts/install-deps.sh notebook installs it\n";
    generator_ = generator_words();
    read_saved_config();  // the first save's: the page's name is announced before it
    read_for_next_save_ = true;
  }

  // One save: check, run what is new, show it. False when the config was saved again during the
  // sweep, which then stopped: the new config is to be taken at once.
  bool on_save() {
    baseline_ = last_digests_;
    if (!read_for_next_save_) read_saved_config();
    read_for_next_save_ = false;
    follow_sources();
    if (!saved_) {
      show_error(WatchError::config, read_error_);
      return true;
    }
    std::optional<LoadedConfig> loaded;
    try {
      loaded = load_config_for_command(*saved_);
    } catch (const ConfigError& error) {
      show_error(WatchError::config, error.what());
      return true;
    } catch (const std::exception& error) {
      show_error(WatchError::config, options_.config_path + ": " + error.what());
      return true;
    }
    if (!error_.empty()) channel_.publish("error", {{"page", page_}, {"message", ""}});
    error_.clear();
    error_kind_ = WatchError::none;
    out_dir_ = options_.out_dir.empty() ? "outputs/" + loaded->config.name : options_.out_dir;
    page_config_ = std::make_shared<const ExperimentConfig>(
        experiment_config(*saved_, loaded->config, loaded->plan));
    render(std::nullopt);
    RunOptions run;
    run.config_path = options_.config_path;
    run.out_dir = out_dir_;
    run.argv = options_.argv;
    run.verbosity = options_.quiet ? Verbosity::quiet : Verbosity::normal;
    run.observers = {this};
    run.summary = run_summary_on_stdout(SummaryRows::best);
    bool finished = true;
    try {
      run_experiment(run, std::move(loaded->config), std::move(loaded->plan));
    } catch (const SavedDuringSweep& saved) {
      finished = false;
      std::cerr << "\nconvlab watch: " << files_words(saved.files)
                << " saved during the sweep: its finished points are kept; taking the new "
                << (saved.files == std::vector<std::string>{options_.config_path} ? "config"
                                                                                  : "files")
                << "\n";
    } catch (const KernelsDoNotCompile& error) {
      // The config is good: the page shows it as it is, and what the compiler said.
      stop_quietly_when_interrupted();
      show_error(WatchError::compile, error.what());
      return true;
    } catch (const ConfigError& error) {
      std::cerr << error.what() << "\n";  // an image that cannot be made: what ran is kept
    } catch (const std::exception& error) {
      std::cerr << "convlab watch: " << options_.config_path << ": " << error.what() << "\n";
    }
    stop_quietly_when_interrupted();
    if (!finished) return false;
    render(std::nullopt);
    say_waiting();
    return true;
  }

  void recorded(const std::vector<IdentifiedPoint>&, const ProgressSnapshot& where) override {
    if (std::vector<std::string> saved = files_.saved(); !saved.empty())
      throw SavedDuringSweep{std::move(saved)};
    const bool last = where.done >= where.total;
    if (!last && since_render_.time_since_epoch().count() != 0 &&
        seconds_since(since_render_) < kMinSecondsBetweenRenders)
      return;
    render(LiveProgress{where.done, where.total, where.eta_seconds});
  }

  // Ctrl-C outside a run: nothing is being written.
  void stop_quietly_when_interrupted() const {
    set_interrupt_handler([this] {
      return "stopped watching" +
             (out_dir_.empty() ? std::string() : "; results kept in " + out_dir_ + "/results.json");
    });
  }

  void say_waiting() const {
    if (options_.quiet) return;
    const size_t sources = files_.files().size() - 1;
    std::cerr << "convlab watch: waiting for " << options_.config_path
              << (sources == 0   ? std::string()
                  : sources == 1 ? " or its kernel source"
                                 : " or one of its " + std::to_string(sources) + " kernel sources")
              << " to be saved"
              << (page_.empty() ? "" : " (page " + (options_.place.out / page_).string() + ")")
              << "\n";
  }

  // The page file of the experiment: the one made last, else the one the config names (as
  // written, when it does not load), else the config file's.
  std::string page() const {
    if (!page_.empty()) return page_;
    return html_id(experiment_name_as_written()) + ".html";
  }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point when) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - when).count();
  }

  // The save's one read of the config: every use of it in the save takes it from saved_. One that
  // cannot be read leaves saved_ empty and says why in read_error_.
  void read_saved_config() {
    saved_.reset();
    try {
      saved_ = read_config(options_.config_path);
      read_error_.clear();
    } catch (const ConfigError& error) {
      read_error_ = error.what();
    } catch (const std::exception& error) {
      read_error_ = options_.config_path + ": " + error.what();
    }
  }

  // The config and the sources it names now; a config that is not YAML names the ones before.
  void follow_sources() {
    if (!saved_) return;
    const auto sources = named_kernel_sources(*saved_);
    if (!sources) return;
    std::vector<std::string> files{options_.config_path};
    files.insert(files.end(), sources->begin(), sources->end());
    for (const std::string& problem : files_.watch(files))
      std::cerr << "convlab watch: " << problem << "\n";
  }

  // The experiment's name as the config writes it, read even when the config does not load;
  // else the config file's name.
  std::string experiment_name_as_written() const {
    try {
      const YAML::Node root = saved_ ? YAML::Load(saved_->text) : YAML::Node();
      if (root.IsMap() && root["name"] && root["name"].IsScalar()) {
        const std::string name = root["name"].Scalar();
        // Only a name the config may have names a results folder.
        if (std::regex_match(name, std::regex("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"))) return name;
      }
    } catch (const std::exception&) {
      // Not YAML at all: the file's name stands for the experiment.
    }
    return html_id(fs::path(options_.config_path).stem().string());
  }

  // A config that does not load is shown above the results of the config the last run recorded;
  // a kernel that does not compile above those of the config on disk, which is fine. Before any
  // good save, the results are those of the folder the config's name gives, when they exist;
  // otherwise the page holds the error and the config as written.
  void show_error(WatchError kind, const std::string& text) {
    error_ = text;
    error_kind_ = kind;
    std::cerr << text << "\nconvlab watch: nothing run; the page keeps the last good results\n";
    if (out_dir_.empty())
      out_dir_ =
          options_.out_dir.empty() ? "outputs/" + experiment_name_as_written() : options_.out_dir;
    if (page_.empty()) page_ = page();
    channel_.publish("error", {{"page", page_}, {"message", text}, {"label", error_label(kind)}});
    if (!has_results()) render_without_results();
    render(std::nullopt, /*last_good_config=*/kind == WatchError::config);
    say_waiting();
  }

  bool has_results() const {
    return !out_dir_.empty() && (fs::exists(fs::path(out_dir_) / "results.json") ||
                                 fs::exists(fs::path(out_dir_) / "results.journal"));
  }

  // A config that never loaded and has no results: a page with the error cell and the config as
  // written, so that the served URL shows what is wrong rather than nothing.
  void render_without_results() {
    try {
      if (!saved_) throw std::runtime_error(read_error_);
      const ExperimentNotebook notebook = config_notebook(experiment_name_as_written(), *saved_);
      PageContext context;
      context.generator = generator_;
      context.katex = katex_;
      LivePage live;
      live.served_as = channel_.serving() ? page_ : "";
      (error_kind_ == WatchError::compile ? live.compile_error : live.config_error) = error_;
      context.live = live;
      const ExperimentPage written = experiment_page(notebook, context);
      const bool changed = write_if_changed(options_.place.out / page_, written.html);
      last_digests_ = written.digests;
      write_index_when_missing(notebook, page_, "");
      channel_.publish("page", {{"page", page_}, {"changed", changed}, {"error", error_}});
    } catch (const std::exception& error) {
      std::cerr << "convlab watch: the page of " << options_.config_path
                << " could not be made: " << error.what() << "\n";
    }
  }

  static std::string error_label(WatchError kind) {
    return kind == WatchError::compile ? kCompileErrorLabel : kConfigErrorLabel;
  }

  // Makes the page again (nothing when no results exist yet) and tells the open pages.
  void render(const std::optional<LiveProgress>& progress, bool last_good_config = false) {
    // A first run has its journal before results.json.
    if (!has_results()) return;
    try {
      ExperimentLoad load;
      load.with_journal = true;
      load.config_read = page_config_;
      // The figures of the last run's copy, as the file on disk does not load; the page shows
      // that file as written (nothing of a file that cannot be read).
      if (last_good_config)
        load.invalid_config = saved_.value_or(ConfigFile{options_.config_path, "", sha256_hex("")});
      const Experiment e = load_experiment(out_dir_, options_.place, load);
      auto figures = gnuplot_ ? draw_figures({&e}, options_.place.out)
                              : std::map<const Experiment*, std::vector<FigureWork>>{};
      PageSettings settings;
      settings.generator = generator_;
      settings.katex = katex_;
      LivePage live;
      live.served_as = channel_.serving() ? e.file : "";
      live.previous_digests = baseline_;
      live.progress = progress;
      (error_kind_ == WatchError::compile ? live.compile_error : live.config_error) = error_;
      settings.live = live;
      const WrittenPage written = write_experiment_page(e, figures[&e], options_.place, settings);
      for (const std::string& failure : written.page.figure_errors)
        std::cerr << "convlab watch: " << failure << "; the page shows the error in its place\n";
      page_ = e.file;
      last_digests_ = written.page.digests;
      write_index_when_missing(e.notebook, e.file,
                               e.figure_files.empty() ? "" : e.figure_files.front());
      nlohmann::json event{{"page", e.file}, {"changed", written.page.changed}};
      if (progress)
        event["progress"] = {
            {"done", progress->done}, {"total", progress->total}, {"eta_s", progress->eta_seconds}};
      if (!error_.empty()) event["error"] = error_;
      channel_.publish("page", event);
    } catch (const std::exception& error) {
      std::cerr << "convlab watch: the page of " << out_dir_
                << " could not be made: " << error.what() << "\n";
    }
    since_render_ = std::chrono::steady_clock::now();
  }

  // A notebook folder of its own has no index yet: one naming this experiment, so that the page's
  // link to the index leads somewhere (`make notebook` writes the whole one).
  void write_index_when_missing(const ExperimentNotebook& notebook, const std::string& file,
                                const std::string& headline) const {
    const fs::path index = options_.place.out / "index.html";
    if (fs::exists(index)) return;
    IndexContext context;
    context.generator = generator_;
    context.katex = katex_;
    write_if_changed(index, index_page({{&notebook, file, headline, "", 0}}, context));
  }

  const WatchOptions& options_;
  LiveChannel& channel_;
  FileWatch& files_;
  bool katex_ = false, gnuplot_ = false;
  std::string generator_;
  std::string out_dir_, page_, error_;
  WatchError error_kind_ = WatchError::none;
  std::map<std::string, std::string> baseline_, last_digests_;
  std::optional<ConfigFile> saved_;  // the config as this save read it
  std::string read_error_;           // why it could not be read
  bool read_for_next_save_ = false;  // saved_ was read for the save to come (the first)
  std::shared_ptr<const ExperimentConfig> page_config_;  // of the last save that loaded
  std::chrono::steady_clock::time_point since_render_{};
};

CommandLine watch_command_line(WatchOptions& options, bool& bind_given) {
  CommandLine line(
      "watch",
      {{},
       R"(Watches CONFIG and the kernel sources it names (`source:` entries) and, on every save, checks the
config as `convlab run` does, runs the points of the new config that are not measured yet (into
the same results file, kept per build and machine as by `convlab run`: editing the title or a
figure runs no point, adding a kernel size runs that size's points only, saving a kernel source
compiles it and runs that implementation's points only) and makes the experiment's notebook page
again after every finished point, the cells that changed since the save marked. A config that
does not load, or a kernel that does not compile, is shown in the terminal and at the top of the
page, above the last good results. Waiting for a save uses no CPU (inotify). Ctrl-C stops it as
it stops `convlab run`: every finished point is kept.
)",
       "",
       "130 after Ctrl-C (143 after SIGTERM), 2 bad arguments or a CONFIG "
       "whose folder cannot be watched"});
  OptionSpec serve;
  serve.name = "--serve";
  serve.value_name = "PORT";
  serve.value_optional = true;
  serve.help =
      "serve the notebook folder over HTTP and update the open page as points finish; PORT 0 or "
      "none: a free port. The URL printed at start carries a random token that every request "
      "needs (docs/notebook.md)";
  serve.store = [&](const std::string& port) {
    options.serve = true;
    if (port.empty()) return;
    if (port.size() > 5 || std::stol(port) > 65535)
      throw ArgumentValueError("a port is 0 to 65535");
    options.port = std::stoi(port);
  };
  line.positional("CONFIG", options.config_path)
      .value("--out", "DIR", "the results folder (default outputs/<name>)",
             non_empty_into(options.out_dir))
      .value("--notebook", "DIR", "where the page goes (default outputs/notebook)",
             [&](const std::string& text) {
               if (text.empty()) throw ArgumentValueError("cannot be empty");
               options.place.out = text;
             })
      .option(serve)
      .value("--bind", "ADDR", "the address to serve on (default 127.0.0.1, this machine only)",
             [&](const std::string& text) {
               non_empty_into(options.bind_address)(text);
               bind_given = true;
             })
      .flag("-q, --quiet", "no progress and no summary table", options.quiet);
  return line;
}

}  // namespace

int watch_command(const Arguments& args, const Arguments& full_argv) {
  WatchOptions options;
  options.argv = full_argv;
  bool bind_given = false;
  const CommandLine line = watch_command_line(options, bind_given);
  if (const auto status = line.parse(args)) return *status;
  if (const auto status = line.refuse_non_utf8(args)) return *status;
  if (bind_given && !options.serve)
    return line.refuse("--bind is the address of --serve, which is not given");
  watch_for_interrupts();  // before any thread starts, so every thread leaves the signals to it
  try {
    if (!fs::is_regular_file(options.config_path)) {
      std::cerr << "convlab watch: " << options.config_path << ": no such file\n";
      return 2;
    }
    FileWatch files(options.config_path);
    fs::create_directories(options.place.out);
    std::unique_ptr<LiveChannel> channel = open_live_channel(
        {options.serve, options.bind_address, options.port, options.place.out.string()});
    Watcher watcher(options, *channel, files);
    watcher.stop_quietly_when_interrupted();
    channel->announce(watcher.page());
    for (;;) {
      if (watcher.on_save())
        files.wait_for_save();
      else
        files.wait_until_quiet();
    }
  } catch (const LiveChannelError& error) {
    std::cerr << "convlab watch: " << error.what() << "\n";
  } catch (const FileError& error) {
    std::cerr << "convlab watch: " << error.what() << "\n";
  } catch (const fs::filesystem_error& error) {
    std::cerr << "convlab watch: " << error.what() << "\n";
  }
  return 2;
}

}  // namespace convlab
