#include "history/history_index.hpp"

#include <algorithm>
#include <filesystem>

#include "core/file_io.hpp"
#include "store/run_block.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;

constexpr std::pair<CommitOutcome, const char*> kOutcomeNames[] = {
    {CommitOutcome::ok, "ok"},
    {CommitOutcome::points_failed, "points_failed"},
    {CommitOutcome::build_failed, "build_failed"},
    {CommitOutcome::run_failed, "run_failed"},
    {CommitOutcome::interrupted, "interrupted"}};

// A history.json is small; a larger file is not one.
constexpr std::size_t kIndexBytesLimit = std::size_t(64) << 20;

// Reads the members of one object of the index, naming the key of a value of the wrong type.
class Fields {
 public:
  Fields(const json& object, std::string path, const std::string& file)
      : object_(object), path_(std::move(path)), file_(file) {
    if (!object_.is_object()) fail("", "is not an object");
  }

  std::string text(const char* key, bool required = true) const {
    const json* value = find(key, required);
    if (value == nullptr) return "";
    if (!value->is_string()) fail(key, "is not a string");
    return value->get<std::string>();
  }
  double number(const char* key) const {
    const json* value = find(key, false);
    if (value == nullptr) return 0.0;
    if (!value->is_number()) fail(key, "is not a number");
    return value->get<double>();
  }
  bool flag(const char* key) const {
    const json* value = find(key, false);
    if (value == nullptr) return false;
    if (!value->is_boolean()) fail(key, "is not true or false");
    return value->get<bool>();
  }
  const json& array(const char* key) const {
    static const json empty = json::array();
    const json* value = find(key, false);
    if (value == nullptr) return empty;
    if (!value->is_array()) fail(key, "is not a list");
    return *value;
  }
  const json* object(const char* key) const {
    const json* value = find(key, false);
    if (value != nullptr && !value->is_object()) fail(key, "is not an object");
    return value;
  }
  std::string child(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    const std::string where = key.empty() ? path_ : child(key.c_str());
    throw HistoryError(file_ + ": " + (where.empty() ? "the document" : where) + " " + why);
  }

 private:
  const json* find(const char* key, bool required) const {
    const auto found = object_.find(key);
    if (found == object_.end() || found->is_null()) {
      if (required) fail(key, "is missing");
      return nullptr;
    }
    return &*found;
  }

  const json& object_;
  std::string path_;
  const std::string& file_;
};

CpuCalibration calibration_from(const Fields& fields) {
  CpuCalibration calibration;
  calibration.threads = static_cast<int>(fields.number("threads"));
  calibration.copy_bytes_per_s = fields.number("copy_bytes_per_s");
  calibration.fma_per_s = fields.number("fma_per_s");
  calibration.seconds = fields.number("seconds");
  return calibration;
}

json to_json(const CommitRun& run) {
  json j{{"commit", run.commit},
         {"machine",
          {{"folder", run.machine.folder}, {"label", run.machine.label}, {"key", run.machine.key}}},
         {"outcome", to_string(run.outcome)},
         {"reason", run.reason},
         {"build_cached", run.build_cached},
         {"build_seconds", run.build_seconds},
         {"run_seconds", run.run_seconds},
         {"finished", run.finished},
         {"results", run.results()}};
  if (run.calibration) j["calibration"] = to_json(*run.calibration);
  return j;
}

// A folder name read from the index must stay one folder inside the history.
bool plain_folder_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

CommitRun run_from(const Fields& fields, const std::string& file) {
  CommitRun run;
  run.commit = fields.text("commit");
  if (!plain_folder_name(run.commit)) fields.fail("commit", "is not a commit id");
  const json* machine = fields.object("machine");
  if (machine == nullptr) fields.fail("machine", "is missing");
  const Fields machine_fields(*machine, fields.child("machine"), file);
  run.machine = {machine_fields.text("folder"), machine_fields.text("label", false),
                 machine_fields.text("key", false)};
  if (!plain_folder_name(run.machine.folder)) machine_fields.fail("folder", "is not a folder name");
  const auto outcome = commit_outcome_named(fields.text("outcome"));
  if (!outcome)
    fields.fail("outcome", "is not ok, points_failed, build_failed, run_failed or interrupted");
  run.outcome = *outcome;
  run.reason = fields.text("reason", false);
  run.build_cached = fields.flag("build_cached");
  run.build_seconds = fields.number("build_seconds");
  run.run_seconds = fields.number("run_seconds");
  run.finished = fields.text("finished", false);
  if (const json* calibration = fields.object("calibration"))
    run.calibration = calibration_from(Fields(*calibration, fields.child("calibration"), file));
  return run;
}

}  // namespace

const char* to_string(CommitOutcome outcome) {
  for (const auto& [value, name] : kOutcomeNames)
    if (value == outcome) return name;
  return "ok";
}

std::optional<CommitOutcome> commit_outcome_named(const std::string& name) {
  for (const auto& [value, known] : kOutcomeNames)
    if (name == known) return value;
  return std::nullopt;
}

std::string CommitRun::folder() const {
  return "machines/" + machine.folder + "/" + commit;
}

std::string CommitRun::results() const {
  return folder() + "/results.json";
}

std::optional<std::size_t> HistoryIndex::commit_index(const std::string& id) const {
  for (std::size_t i = 0; i < commits.size(); ++i)
    if (commits[i].id == id) return i;
  return std::nullopt;
}

const CommitRun* HistoryIndex::run_of(const std::string& commit,
                                      const std::string& machine_folder) const {
  for (const CommitRun& run : runs)
    if (run.commit == commit && run.machine.folder == machine_folder) return &run;
  return nullptr;
}

void HistoryIndex::add_commits(const std::vector<HistoryCommit>& more) {
  for (const HistoryCommit& commit : more)
    if (!commit_index(commit.id)) commits.push_back(commit);
  std::stable_sort(commits.begin(), commits.end(),
                   [](const HistoryCommit& a, const HistoryCommit& b) { return a.time < b.time; });
}

void HistoryIndex::record(const CommitRun& run) {
  for (CommitRun& existing : runs)
    if (existing.commit == run.commit && existing.machine.folder == run.machine.folder) {
      existing = run;
      return;
    }
  runs.push_back(run);
}

json to_json(const HistoryIndex& index) {
  json commits = json::array();
  for (const HistoryCommit& commit : index.commits)
    commits.push_back({{"commit", commit.id},
                       {"subject", commit.subject},
                       {"date", commit.date},
                       {"time", commit.time}});
  json runs = json::array();
  for (const CommitRun& run : index.runs) runs.push_back(to_json(run));
  return {{"convlab_history", index.version},
          {"experiment", index.experiment},
          {"config", index.config_path},
          {"repository", index.repository},
          {"cmake_args", index.cmake_args},
          {"commits", commits},
          {"runs", runs}};
}

HistoryIndex history_index_from_json(const json& j, const std::string& file) {
  const Fields top(j, "", file);
  HistoryIndex index;
  if (top.number("convlab_history") != kHistoryIndexVersion)
    top.fail("convlab_history", "is not " + std::to_string(kHistoryIndexVersion) +
                                    " (a history of another version of convlab)");
  index.experiment = top.text("experiment");
  index.config_path = top.text("config");
  index.repository = top.text("repository", false);
  const json& args = top.array("cmake_args");
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_string()) top.fail("cmake_args[" + std::to_string(i) + "]", "is not a string");
    index.cmake_args.push_back(args[i].get<std::string>());
  }
  const json& commits = top.array("commits");
  for (std::size_t i = 0; i < commits.size(); ++i) {
    const Fields commit(commits[i], "commits[" + std::to_string(i) + "]", file);
    HistoryCommit read{commit.text("commit"), commit.text("subject", false),
                       commit.text("date", false), static_cast<long long>(commit.number("time"))};
    if (!plain_folder_name(read.id)) commit.fail("commit", "is not a commit id");
    index.commits.push_back(read);
  }
  const json& runs = top.array("runs");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CommitRun run = run_from(Fields(runs[i], "runs[" + std::to_string(i) + "]", file), file);
    if (!index.commit_index(run.commit))
      throw HistoryError(file + ": runs[" + std::to_string(i) + "].commit " + run.commit +
                         " is not one of the history's commits");
    index.runs.push_back(std::move(run));
  }
  return index;
}

bool holds_history(const std::string& dir) {
  return std::filesystem::is_regular_file(std::filesystem::path(dir) / kHistoryIndexFile);
}

HistoryIndex read_history_index(const std::string& dir) {
  const std::string file = (std::filesystem::path(dir) / kHistoryIndexFile).string();
  std::optional<std::string> text;
  try {
    text = read_file_if_present(file, kIndexBytesLimit);
  } catch (const FileError& error) {
    throw HistoryError(error.what());
  }
  if (!text) throw HistoryError(file + ": no such file (convlab history run makes it)");
  json j;
  try {
    j = json::parse(*text);
  } catch (const json::exception& error) {
    throw HistoryError(file + ": not JSON: " + error.what());
  }
  return history_index_from_json(j, file);
}

void write_history_index(const std::string& dir, const HistoryIndex& index) {
  write_file((std::filesystem::path(dir) / kHistoryIndexFile).string(),
             to_json(index).dump(1) + "\n", WriteTarget::owned);
}

}  // namespace convlab
