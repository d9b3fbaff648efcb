// convlab watch: edit, save, see. The config and the kernel sources it names are watched with
// inotify (core/file_watch.hpp); on every save the config is checked as `convlab run` checks it,
// the points of the new config not measured yet are run through the same journal and resume as
// `convlab run` (a saved source changes the ids of its implementation's points only, so those run
// again), and the experiment's notebook page is made again after every finished point, the cells
// whose content changed since the save marked. A bad config, or a kernel that does not compile, is
// shown at the top of the page above the last good results. With --serve the page is served and
// updated in the open browser as points finish (server-sent events), and it is where the
// experiment is written and run (app/page_actions.hpp): its config, kernel sources and discussion
// are edited and saved there, a sweep is stopped, a point measured again, the results queried and
// a new experiment made. The loop here takes those requests between saves.
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "app/commands.hpp"
#include "app/config_loading.hpp"
#include "app/editor_assets.hpp"
#include "app/live_channel.hpp"
#include "app/notebook_pages.hpp"
#include "app/page_actions.hpp"
#include "app/run_end_summary.hpp"
#include "config/config_error.hpp"
#include "config/user_kernel_entry.hpp"
#include "config/yaml_load.hpp"
#include "core/child_processes.hpp"
#include "core/file_io.hpp"
#include "core/file_watch.hpp"
#include "core/sha256.hpp"
#include "html/html_text.hpp"
#include "html/index_page.hpp"
#include "notebook/notebook_builder.hpp"
#include "notebook/query_cell.hpp"
#include "plan/plan.hpp"
#include "query/record_queries.hpp"
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

// Thrown out of a sweep when the page asked to stop it: the points it finished are kept.
struct StoppedFromPage {};

// What the top of the page says went wrong: the config, or a kernel the config names.
enum class WatchError { none, config, compile };

// The results the page shows, for the queries of its query cells (answered on the server's
// threads while the watch goes on).
class ShownResults {
 public:
  struct Snapshot {
    std::shared_ptr<const Experiment> experiment;
    std::vector<DerivedColumn> derived;
  };
  void set(Snapshot snapshot) {
    std::lock_guard<std::mutex> lock(mutex_);
    snapshot_ = std::move(snapshot);
  }
  Snapshot get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return snapshot_;
  }

 private:
  mutable std::mutex mutex_;
  Snapshot snapshot_;
};

nlohmann::json evaluate_query(const ShownResults& shown, const std::string& query) {
  const ShownResults::Snapshot snapshot = shown.get();
  if (!snapshot.experiment) throw std::runtime_error("there are no results to ask yet");
  const Experiment& e = *snapshot.experiment;
  const ResultsDocument& results =
      e.notebook.derived_results ? *e.notebook.derived_results : e.results;
  const ValueContext context{latest_ok_points(results), latest_points(results), snapshot.derived};
  const QueryCell cell = query_cell(query, results, context, "query", 1);
  nlohmann::json answer{
      {"query", cell.query}, {"title", cell.title}, {"insert", discussion_text_of(cell)}};
  if (cell.is_table()) {
    answer["kind"] = "table";
    answer["columns"] = cell.table.columns;
    answer["rows"] = cell.table.rows;
    answer["strong"] = cell.strong;  // the fastest, set in bold
    answer["notes"] = cell.notes;
  } else {
    answer["kind"] = "value";
    answer["value"] = cell.value;
    answer["number"] = cell.number ? nlohmann::json(*cell.number) : nlohmann::json();
  }
  return answer;
}

// The highlighting a kernel source gets in the page's editor, by its extension.
std::string source_language(const std::string& path) {
  const std::string extension = fs::path(path).extension().string();
  if (extension == ".cu" || extension == ".cuh") return "cuda";
  if (extension == ".c" || extension == ".h") return "c";
  return "cpp";
}

// The lines of an error that name a line of one of the page's files (file:line[:column]: ...), as
// the page marks them in its editors; a compiler that names its private copy of a source
// (kernel_compiler.hpp) names it by the same file name.
nlohmann::json error_marks(const std::string& text, const std::vector<EditableFile>& files) {
  static const std::regex located(R"(^\s*([^\s:]+):([0-9]+)(?::([0-9]+))?:)");
  nlohmann::json marks = nlohmann::json::array();
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line) && marks.size() < 100;) {
    std::smatch found;
    if (!std::regex_search(line, found, located)) continue;
    const fs::path named(found[1].str());
    for (const EditableFile& file : files) {
      const fs::path path(file.path);
      if (named.lexically_normal() != path.lexically_normal() &&
          named.filename() != path.filename())
        continue;
      marks.push_back({{"key", file.key},
                       {"line", std::stoi(found[2].str())},
                       {"column", found[3].matched ? std::stoi(found[3].str()) : 0},
                       {"text", line}});
      break;
    }
  }
  return marks;
}

// "a.yaml", "a.yaml and k.cu", "a.yaml, k.cu and t.cu".
std::string files_words(const std::vector<std::string>& files) {
  std::string words;
  for (size_t i = 0; i < files.size(); ++i)
    words += (i == 0 ? "" : i + 1 == files.size() ? " and " : ", ") + files[i];
  return words;
}

class Watcher : public RunObserver {
 public:
  Watcher(const WatchOptions& options, LiveChannel& channel, FileWatch& files, PageActions* actions)
      : options_(options), channel_(channel), files_(files), actions_(actions) {
    fs::create_directories(options_.place.out);
    katex_ = write_assets(options_.place.out);
    if (!program_available("gnuplot"))
      std::cerr << "convlab watch: gnuplot not found: figures are left out; "
                   "scripts/install-deps.sh notebook installs it\n";
    generator_ = generator_words();
    if (actions_) {
      editor_missing_ = write_editor_assets(options_.place.out);
      if (!editor_missing_.empty()) std::cerr << "convlab watch: " << editor_missing_ << "\n";
    }
    read_saved_config();  // the first save's: the page's name is announced before it
    read_for_next_save_ = true;
    if (actions_)
      actions_->set_query_evaluation(
          [shown = shown_](const std::string& query) { return evaluate_query(*shown, query); });
  }

  // One save: check, run what is new, show it. False when the config was saved again during the
  // sweep, which then stopped: the new config is to be taken at once.
  bool on_save() {
    baseline_ = last_digests_;
    if (!read_for_next_save_) read_saved_config();
    read_for_next_save_ = false;
    follow_sources();
    tell_the_page_its_files();
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
    if (!has_results()) {
      if (page_.empty()) page_ = page();
      render_without_results();  // the page is there, with its config, before the first point
    }
    render(std::nullopt);
    return sweep(std::move(*loaded), /*force=*/false);
  }

  // The points of these ids (record.point_id) measured again, as `convlab run --force` on them
  // alone: the latest record of each is the new one. False when a save stopped it.
  bool measure_again(const std::vector<std::string>& ids) {
    const std::set<std::string> wanted(ids.begin(), ids.end());
    std::set<std::string> digests;
    if (const auto shown = shown_->get().experiment)
      for (const Record& record : shown->results.file.records)
        if (wanted.count(record.point_id)) digests.insert(record.description().digest());
    if (!saved_ || !error_.empty()) {
      std::cerr << "convlab watch: nothing measured again: the config or a kernel has an error\n";
      return true;
    }
    std::optional<LoadedConfig> loaded;
    try {
      loaded = load_config_for_command(*saved_);
    } catch (const std::exception& error) {
      std::cerr << "convlab watch: nothing measured again: " << error.what() << "\n";
      return true;
    }
    std::vector<Point> again;
    for (const Point& point : loaded->plan)
      if (digests.count(point.digest)) again.push_back(point);
    if (again.empty()) {
      std::cerr << "convlab watch: nothing measured again: the config as saved has none of the "
                << ids.size() << " points the page named\n";
      return true;
    }
    std::cerr << "convlab watch: the page asked to measure " << again.size()
              << (again.size() == 1 ? " point" : " points") << " again\n";
    baseline_ = last_digests_;
    loaded->plan = std::move(again);
    return sweep(std::move(*loaded), /*force=*/true);
  }

  // Runs the plan of `loaded` (the points without a record, or all of them with `force`), the page
  // made again as points finish. False when the config or a source was saved during the sweep,
  // which then stopped: the new config is to be taken at once.
  bool sweep(LoadedConfig loaded, bool force) {
    RunOptions run;
    run.config_path = options_.config_path;
    run.out_dir = out_dir_;
    run.argv = options_.argv;
    run.force = force;
    run.verbosity = options_.quiet ? Verbosity::quiet : Verbosity::normal;
    run.observers = {this};
    run.summary = run_summary_on_stdout(SummaryRows::best);
    bool finished = true;
    rendered_in_sweep_ = false;
    running(true);
    try {
      run_experiment(run, std::move(loaded.config), std::move(loaded.plan));
    } catch (const StoppedFromPage&) {
      std::cerr << "\nconvlab watch: stopped from the page: its finished points are kept\n";
    } catch (const SavedDuringSweep& saved) {
      finished = false;
      std::cerr << "\nconvlab watch: " << files_words(saved.files)
                << " saved during the sweep: its finished points are kept; taking the new "
                << (saved.files == std::vector<std::string>{options_.config_path} ? "config"
                                                                                  : "files")
                << "\n";
    } catch (const KernelsDoNotCompile& error) {
      // The config is good: the page shows it as it is, and what the compiler said.
      running(false);
      stop_quietly_when_interrupted();
      show_error(WatchError::compile, error.what());
      return true;
    } catch (const ConfigError& error) {
      std::cerr << error.what() << "\n";  // an image that cannot be made: what ran is kept
    } catch (const std::exception& error) {
      std::cerr << "convlab watch: " << options_.config_path << ": " << error.what() << "\n";
    }
    running(false);
    stop_quietly_when_interrupted();
    if (!finished) return false;
    render(std::nullopt);
    say_waiting();
    return true;
  }

  void recorded(const std::vector<IdentifiedPoint>&, const ProgressSnapshot& where) override {
    if (std::vector<std::string> saved = files_.saved(); !saved.empty())
      throw SavedDuringSweep{std::move(saved)};
    if (actions_ && actions_->stop_requested()) throw StoppedFromPage{};
    const bool last = where.done >= where.total;
    // The first new result of a sweep is shown at once: it answers the save.
    const bool first = !rendered_in_sweep_;
    if (!last && !first && since_render_.time_since_epoch().count() != 0 &&
        seconds_since(since_render_) < kMinSecondsBetweenRenders)
      return;
    rendered_in_sweep_ = true;
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
    const size_t sources = sources_.size();
    std::cerr << "convlab watch: waiting for " << options_.config_path
              << (sources == 0   ? std::string()
                  : sources == 1 ? " or its kernel source"
                                 : " or one of its " + std::to_string(sources) + " kernel sources")
              << " to be saved" << (actions_ ? ", or for the page" : "")
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
  // With --serve the discussion is watched too, since the page edits it (and so may any editor).
  void follow_sources() {
    if (!saved_) return;
    const auto sources = named_kernel_sources(*saved_);
    if (!sources) return;
    sources_ = *sources;
    std::vector<std::string> files{options_.config_path};
    files.insert(files.end(), sources->begin(), sources->end());
    if (actions_) {
      // The folders the page writes the discussion and the sources into, so that a first one
      // written there is seen.
      std::error_code ignored;
      fs::create_directories(fs::path(discussion_path()).parent_path(), ignored);
      for (const std::string& source : *sources)
        if (!fs::path(source).parent_path().empty())
          fs::create_directories(fs::path(source).parent_path(), ignored);
      files.push_back(discussion_path());
    }
    for (const std::string& problem : files_.watch(files))
      std::cerr << "convlab watch: " << problem << "\n";
  }

  std::string discussion_path() const {
    return (options_.place.discussions / (html_id(experiment_name_as_written()) + ".md"))
        .generic_string();
  }

  // The files the page may edit, as the config names them now, and their hashes on disk, so that
  // an open page sees a file saved by another editor (and a conflict with its unsaved edits).
  void tell_the_page_its_files() {
    if (!actions_) return;
    EditableExperiment experiment;
    experiment.name = experiment_name_as_written();
    experiment.page = page();
    experiment.files.push_back({"config", options_.config_path, "yaml"});
    for (size_t i = 0; i < sources_.size(); ++i)
      experiment.files.push_back(
          {"source-" + std::to_string(i + 1), sources_[i], source_language(sources_[i])});
    experiment.files.push_back({"discussion", discussion_path(), "markdown"});
    experiment.configs_folder = fs::path(options_.config_path).parent_path().generic_string();
    experiment.discussions_folder = options_.place.discussions.generic_string();
    if (editor_missing_.empty())
      experiment.editor_assets = kEditorAssets;
    else
      experiment.editor_missing = editor_missing_;
    nlohmann::json hashes = nlohmann::json::object();
    for (const EditableFile& file : experiment.files) {
      try {
        const auto text = read_file_if_present(file.path, kMaxEditableBytes, Links::refuse);
        hashes[file.key] = text ? sha256_hex(*text) : "";
      } catch (const FileError&) {
        hashes[file.key] = nullptr;
      }
    }
    files_of_page_ = experiment.files;
    actions_->set_experiment(std::move(experiment));
    channel_.publish("files", {{"page", page()}, {"files", hashes}});
  }

  void running(bool now) {
    if (!actions_) return;
    actions_->clear_stop();
    actions_->set_running(now);
    channel_.publish("run", {{"page", page()}, {"running", now}});
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
    channel_.publish("error", {{"page", page_},
                               {"message", text},
                               {"label", error_label(kind)},
                               {"marks", error_marks(text, files_of_page_)}});
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
      const bool changed = write_file_if_changed(options_.place.out / page_, written.html);
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
      Experiment e = load_experiment(out_dir_, options_.place, load);
      auto figures = draw_figures({&e}, options_.place.out);
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
      shown_->set(
          {std::make_shared<const Experiment>(std::move(e)),
           page_config_ ? page_config_->declarations.derive : std::vector<DerivedColumn>{}});
      channel_.publish("page", event);
      if (discussion_error_ && error_.empty())
        channel_.publish("error", {{"page", page_}, {"message", ""}});
      discussion_error_ = false;
    } catch (const ResultsError& error) {
      // A value or a placement of the discussion: the page keeps what it showed, with the error.
      const std::string text = error.what();
      std::cerr << text << "\nconvlab watch: the page keeps what it showed\n";
      discussion_error_ = true;
      const bool of_discussion = text.rfind(discussion_path() + ":", 0) == 0;
      channel_.publish("error", {{"page", page()},
                                 {"message", text},
                                 {"label", of_discussion ? kDiscussionErrorLabel : "error"},
                                 {"marks", error_marks(text, files_of_page_)}});
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
    context.live = channel_.serving();  // a new experiment is made from it
    write_file_if_changed(index, index_page({{&notebook, file, headline, "", 0}}, context));
  }

  const WatchOptions& options_;
  LiveChannel& channel_;
  FileWatch& files_;
  PageActions* actions_;  // null: the page is not served
  std::shared_ptr<ShownResults> shown_ = std::make_shared<ShownResults>();
  std::vector<std::string> sources_;         // the kernel sources the config names
  std::vector<EditableFile> files_of_page_;  // what the page edits, for the marks of errors
  bool discussion_error_ = false;            // the last render stopped at the discussion
  std::string editor_missing_;               // why the page has no CodeMirror, if it has none
  bool rendered_in_sweep_ = false;           // the sweep's first point made the page
  bool katex_ = false;
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

// Saves, and between them what the page asks for, until it makes a new experiment (which the
// caller then watches instead).
void watch_until_another(Watcher& watcher, FileWatch& files, PageActions& actions) {
  for (;;) {
    if (!watcher.on_save()) {
      files.wait_until_quiet();
      continue;
    }
    for (;;) {
      if (!files.wait_for_save().empty()) break;
      if (actions.has_new_experiment()) return;
      const std::vector<std::string> again = actions.take_measure_requests();
      if (!again.empty() && !watcher.measure_again(again)) {
        files.wait_until_quiet();
        break;
      }
    }
  }
}

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
    PageActions actions([&files] { files.wake(); });
    LiveChannelOptions live{options.serve, options.bind_address, options.port,
                            options.place.out.string(), nullptr};
    if (options.serve)
      live.actions = [&actions](const ActionRequest& request) { return actions.handle(request); };
    std::unique_ptr<LiveChannel> channel = open_live_channel(live);
    for (;;) {  // one experiment, until the page makes a new one
      Watcher watcher(options, *channel, files, options.serve ? &actions : nullptr);
      watcher.stop_quietly_when_interrupted();
      channel->announce(watcher.page());
      watch_until_another(watcher, files, actions);
      const std::string next = *actions.take_new_experiment();
      std::cerr
          << "convlab watch: now watching " << next << ", made from the page (page "
          << (options.place.out / (html_id(fs::path(next).stem().string()) + ".html")).string()
          << ")\n";
      options.config_path = next;
      files.watch({next});
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
