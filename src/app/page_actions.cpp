#include "app/page_actions.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <utility>

#include "app/experiment_template.hpp"
#include "core/file_io.hpp"
#include "core/sha256.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

ActionAnswer answer(int status, const json& body) {
  return {status, body.dump(), ""};
}

ActionAnswer refusal(int status, const std::string& why) {
  return answer(status, {{"error", why}});
}

// The text of a file as the page edits it: nullopt when nothing is there. A link, a FIFO, a device
// or a file over the size limit is refused (FileError) rather than read.
std::optional<std::string> disk_text(const std::string& path) {
  return read_file_if_present(path, kMaxEditableBytes, Links::refuse);
}

std::string short_hash(const std::string& sha256) {
  return sha256.substr(0, 12);
}

// Whether `path` lies in the folder the watch runs in (the project), its links resolved: a config
// may name a source anywhere, but the page writes only the project's own files.
bool within_project(const std::string& path) {
  std::error_code error;
  const fs::path root = fs::canonical(fs::current_path(), error);
  const fs::path file = fs::weakly_canonical(fs::absolute(path), error);
  if (error) return false;
  auto r = root.begin();
  auto f = file.begin();
  for (; r != root.end(); ++r, ++f)
    if (f == file.end() || *r != *f) return false;
  return true;
}

bool is_point_id(const std::string& id) {
  static const std::regex hex("[0-9a-f]{16,64}");
  return std::regex_match(id, hex);
}

}  // namespace

PageActions::PageActions(std::function<void()> wake) : wake_(std::move(wake)) {}

void PageActions::set_experiment(EditableExperiment experiment) {
  std::lock_guard<std::mutex> lock(mutex_);
  experiment_ = std::move(experiment);
}

void PageActions::set_query_evaluation(QueryEvaluation evaluate) {
  std::lock_guard<std::mutex> lock(mutex_);
  evaluate_ = std::move(evaluate);
}

void PageActions::set_running(bool running) {
  running_ = running;
}

std::vector<std::string> PageActions::take_measure_requests() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(measure_, {});
}

std::optional<std::string> PageActions::take_new_experiment() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(new_config_, std::nullopt);
}

bool PageActions::has_new_experiment() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return new_config_.has_value();
}

std::optional<EditableFile> PageActions::file_of(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const EditableFile& file : experiment_.files)
    if (file.key == key) return file;
  return std::nullopt;
}

ActionAnswer PageActions::handle(const ActionRequest& request) {
  const bool post = request.method == "POST";
  if (request.name == "files") {
    if (post) return {405, json{{"error", "the files are read with GET"}}.dump(), "GET"};
    return files();
  }
  static const std::vector<std::string> posted{"save", "stop", "measure", "query", "new"};
  if (std::find(posted.begin(), posted.end(), request.name) == posted.end())
    return refusal(404, "no action '" + request.name + "'");
  if (!post) return {405, json{{"error", request.name + " is a POST"}}.dump(), "POST"};
  json body;
  try {
    body = json::parse(request.body);
  } catch (const json::exception&) {
    return refusal(400, "the body is not JSON");
  }
  if (!body.is_object()) return refusal(400, "the body is not a JSON object");
  if (request.name == "save") return save(body);
  if (request.name == "stop") return stop();
  if (request.name == "measure") return measure(body);
  if (request.name == "query") return query(body);
  return new_experiment(body);
}

ActionAnswer PageActions::files() const {
  EditableExperiment experiment;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    experiment = experiment_;
  }
  json files = json::array();
  for (const EditableFile& file : experiment.files) {
    json entry{{"key", file.key}, {"path", file.path}, {"language", file.language}};
    try {
      const auto text = disk_text(file.path);
      entry["exists"] = text.has_value();
      entry["text"] = text.value_or("");
      entry["sha256"] = text ? sha256_hex(*text) : "";
    } catch (const FileError& error) {
      entry["problem"] = error.what();  // shown in its cell; the page cannot save it
    }
    files.push_back(std::move(entry));
  }
  return answer(
      200, {{"experiment", experiment.name},
            {"page", experiment.page},
            {"running", running_.load()},
            {"files", files},
            {"editor", experiment.editor_assets.empty() ? json() : json(experiment.editor_assets)},
            {"editor_missing", experiment.editor_missing},
            {"max_bytes", kMaxEditableBytes}});
}

// Writes the file the key names when the disk still holds what the page's text started from
// (`base`, the sha256 the page was given, empty for a file that was not there); else 409 with
// what the disk holds now, so that the page shows both and loses neither.
ActionAnswer PageActions::save(const json& body) {
  if (!body.contains("key") || !body["key"].is_string() || !body.contains("text") ||
      !body["text"].is_string() || !body.contains("base") || !body["base"].is_string())
    return refusal(400, "a save names the file's key, its text and the sha256 it started from");
  const auto file = file_of(body["key"].get<std::string>());
  if (!file)
    return refusal(404, "this experiment has no file '" + body["key"].get<std::string>() + "'");
  if (!within_project(file->path))
    return refusal(403, file->path + ": outside the folder convlab watch runs in; the page "
                                     "writes only the project's own files");
  const std::string& text = body["text"].get_ref<const std::string&>();
  if (text.size() > kMaxEditableBytes)
    return refusal(413, file->path + ": the page saves files of at most " +
                            std::to_string(kMaxEditableBytes) + " bytes");
  std::lock_guard<std::mutex> lock(save_mutex_);
  try {
    const auto now = disk_text(file->path);
    const std::string now_sha = now ? sha256_hex(*now) : "";
    if (now_sha != body["base"].get<std::string>())
      return answer(409, {{"error", file->path + " changed on disk since the page read it"},
                          {"conflict", true},
                          {"exists", now.has_value()},
                          {"text", now.value_or("")},
                          {"sha256", now_sha}});
    const fs::path folder = fs::path(file->path).parent_path();
    if (!now && !folder.empty()) fs::create_directories(folder);
    write_file(file->path, text, WriteTarget::owned);
  } catch (const FileError& error) {
    return refusal(422, error.what());
  } catch (const fs::filesystem_error& error) {
    return refusal(422, error.what());
  }
  const std::string sha = sha256_hex(text);
  std::cerr << "convlab watch: the page saved " << file->path << " (" << text.size()
            << " bytes, sha256 " << short_hash(sha) << ")" << std::endl;
  return answer(200, {{"key", file->key}, {"sha256", sha}});
}

ActionAnswer PageActions::stop() {
  const bool running = running_.load();
  if (running) {
    stop_ = true;
    std::cerr << "convlab watch: the page asked to stop the sweep" << std::endl;
  }
  return answer(200, {{"stopping", running}});
}

ActionAnswer PageActions::measure(const json& body) {
  if (!body.contains("points") || !body["points"].is_array() || body["points"].empty())
    return refusal(400, "name the points to measure again by their point_id");
  if (body["points"].size() > kMaxPointsMeasuredAgain)
    return refusal(413, "at most " + std::to_string(kMaxPointsMeasuredAgain) +
                            " points are measured again at once");
  std::vector<std::string> ids;
  for (const json& id : body["points"]) {
    if (!id.is_string() || !is_point_id(id.get<std::string>()))
      return refusal(400, "a point is named by its point_id (hexadecimal digits)");
    ids.push_back(id.get<std::string>());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    measure_.insert(measure_.end(), ids.begin(), ids.end());
  }
  wake_();
  return answer(202, {{"queued", ids.size()}});
}

ActionAnswer PageActions::query(const json& body) const {
  if (!body.contains("query") || !body["query"].is_string())
    return refusal(400, "a query is a string");
  QueryEvaluation evaluate;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    evaluate = evaluate_;
  }
  if (!evaluate) return refusal(409, "there are no results to ask yet");
  try {
    return answer(200, evaluate(body["query"].get<std::string>()));
  } catch (const std::exception& error) {
    return refusal(422, error.what());
  }
}

// Writes a new experiment's config, discussion and (when asked) kernel from the templates, each
// where the project keeps them, and asks the watch to follow it. Nothing is overwritten.
ActionAnswer PageActions::new_experiment(const json& body) {
  if (!body.contains("name") || !body["name"].is_string())
    return refusal(400, "a new experiment needs a name");
  const std::string name = body["name"].get<std::string>();
  if (const std::string problem = experiment_name_problem(name); !problem.empty())
    return refusal(400, "'" + name + "': " + problem);
  const bool kernel = body.value("kernel", false);
  EditableExperiment current;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current = experiment_;
  }
  const NewExperimentFiles files =
      new_experiment_files(name, kernel, current.configs_folder, current.discussions_folder);
  std::lock_guard<std::mutex> lock(save_mutex_);
  for (const auto& [path, text] : files.texts)
    if (fs::exists(fs::symlink_status(path)))
      return refusal(409, path + " exists already; choose another name");
  try {
    for (const auto& [path, text] : files.texts) {
      const fs::path folder = fs::path(path).parent_path();
      if (!folder.empty()) fs::create_directories(folder);
      write_file(path, text, WriteTarget::owned);
      std::cerr << "convlab watch: the page wrote " << path << " (new experiment " << name << ")"
                << std::endl;
    }
  } catch (const std::exception& error) {
    return refusal(422, error.what());
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    new_config_ = files.config;
  }
  wake_();
  return answer(201, {{"config", files.config}, {"page", files.page}});
}

}  // namespace convlab
