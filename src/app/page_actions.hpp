// What the served page of `convlab watch --serve` may ask for, once the server admitted the request
// (serve/action_requests.hpp: token, Host, Origin, CSRF token, size): the files of the experiment
// it may edit with their text on disk, saving one of them, stopping the sweep, measuring points
// again, a query on the results the page shows, a new experiment. The page never names a path: a
// file is named by its key (config, source-1, ..., discussion), which this side maps to the file
// the experiment names now, so that nothing but the experiment's own config, kernel sources and
// discussion is ever written. Every save prints one line in the terminal.
//
// The watch loop (app/watch_command.cpp) tells it the experiment's files after each read of the
// config, and takes the requests that are not saves (stop, measure again, a new experiment); a save
// is a file written on disk like any editor's, which the watch sees as it sees every save.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve/action_requests.hpp"

namespace convlab {

// A file of the experiment the page may edit.
struct EditableFile {
  std::string key;       // "config", "source-N", "discussion": how the page names it
  std::string path;      // where it is on disk, as the watch reads it
  std::string language;  // yaml, c, cpp, cuda or markdown: the editor's highlighting
};

// The experiment the watch follows now.
struct EditableExperiment {
  std::string name;
  std::string page;  // its page file, e.g. live.html
  std::vector<EditableFile> files;
  std::string configs_folder;      // where a new experiment's config goes
  std::string discussions_folder;  // and its discussion
  // The editor's folder relative to the pages (app/editor_assets.hpp), or why there is none.
  std::string editor_assets, editor_missing;
};

// A query evaluated on the results the page shows: {"kind": "value", ...} or {"kind": "table",
// ...}; throws std::runtime_error with the message the page shows.
using QueryEvaluation = std::function<nlohmann::json(const std::string& query)>;

// The largest file the page may save, and the most points one request measures again.
inline constexpr std::size_t kMaxEditableBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxPointsMeasuredAgain = 256;

class PageActions {
 public:
  // `wake` ends the watch loop's wait for a save (core/file_watch.hpp FileWatch::wake).
  explicit PageActions(std::function<void()> wake);

  // The server's handler; called on its threads.
  ActionAnswer handle(const ActionRequest& request);

  // --- the watch loop's side ---
  void set_experiment(EditableExperiment experiment);
  void set_query_evaluation(QueryEvaluation evaluate);
  void set_running(bool running);
  bool stop_requested() const { return stop_.load(); }
  void clear_stop() { stop_ = false; }
  // The point ids (record.point_id) asked to be measured again since the last call.
  std::vector<std::string> take_measure_requests();
  // The config of a new experiment made from the page, to be watched from now on.
  std::optional<std::string> take_new_experiment();
  bool has_new_experiment() const;

 private:
  ActionAnswer files() const;
  ActionAnswer save(const nlohmann::json& body);
  ActionAnswer stop();
  ActionAnswer measure(const nlohmann::json& body);
  ActionAnswer query(const nlohmann::json& body) const;
  ActionAnswer new_experiment(const nlohmann::json& body);
  std::optional<EditableFile> file_of(const std::string& key) const;

  std::function<void()> wake_;
  mutable std::mutex mutex_;  // guards everything below but the atomics
  std::mutex save_mutex_;     // one save at a time: the check against the disk and the write
  EditableExperiment experiment_;
  QueryEvaluation evaluate_;
  std::vector<std::string> measure_;
  std::optional<std::string> new_config_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> running_{false};
};

}  // namespace convlab
