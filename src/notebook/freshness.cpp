#include "notebook/freshness.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "core/sha256.hpp"
#include "core/shell_quote.hpp"
#include "plan/search_points.hpp"
#include "store/record.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json& resolved_config(const ResultsDocument& results) {
  static const json none = json::object();
  return results.latest_run ? results.latest_run->resolved_config : none;
}

// The resolved config without the hashes of the kernel sources it names: an edited source is told
// apart, by name (changed_sources), and the config's file may not have changed at all.
json without_source_hashes(json resolved) {
  if (resolved.contains("implementations") && resolved["implementations"].is_object())
    for (auto& [name, entry] : resolved["implementations"].items())
      if (entry.is_object() && entry.contains("source")) entry.erase("sha256");
  return resolved;
}

// The recorded resolved config without what does not change a measurement.
json measured_settings(json resolved) {
  for (const char* key : {"title", "description", "derive", "figures", "tables"})
    resolved.erase(key);
  return without_source_hashes(std::move(resolved));
}

// What identifies a point across runs and builds: its description without the parts a later
// version may spell differently, and the version of a user's kernel (the points of an edited
// source are not measured).
std::string point_identity(json description, const std::string& source_version) {
  description.erase("family");
  if (description.contains("kernel")) description["kernel"].erase("separable");
  return description.dump() + source_version;
}

constexpr size_t kUnmeasuredExamples = 10;

// A search's records, whatever variants it chose: counted by what they share with its point.
std::string search_identity(PointDescription description) {
  description.params = json::object();
  return point_identity(description.to_json(), description.source_version);
}

// "annealing seed 1 of tunable | noise-4096 | gaussian7 | replicate | u8: 12 variants to go"
std::string search_words(const PointDescription& point, std::size_t missing) {
  return point.search->strategy + " seed " + std::to_string(point.search->seed) + " of " +
         point.implementation + " | " + point.image.name + " | " + point.kernel.name + " | " +
         point.border + " | " + point.output + ": " + std::to_string(missing) +
         (missing == 1 ? " variant" : " variants") + " to go";
}

void count_unmeasured(const ResultsDocument& results, const ExperimentConfig& loaded,
                      Freshness& freshness) {
  std::set<std::string> recorded;
  std::map<std::string, std::size_t> searched;  // a search's variants measured
  for (const Record& record : results.file.records) {
    const PointDescription point = record.description();
    recorded.insert(point_identity(point.to_json(), point.source_version));
    if (point.search) ++searched[search_identity(point)];
  }
  freshness.unmeasured_known = true;
  freshness.planned_points = 0;
  for (const Point& point : loaded.plan) {
    const PointDescription& description = point.description;
    std::size_t missing = 0;
    if (point.search) {
      // A search bounded by time alone is measured once it has measured anything.
      const std::size_t planned = search_budget(*loaded.config, point).value_or(1);
      const auto found = searched.find(search_identity(description));
      const std::size_t measured = found == searched.end() ? 0 : found->second;
      freshness.planned_points += planned;
      missing = planned > measured ? planned - measured : 0;
    } else {
      ++freshness.planned_points;
      missing = !recorded.count(point_identity(point.described, description.source_version));
    }
    if (missing == 0) continue;
    freshness.unmeasured_points += missing;
    if (freshness.unmeasured_examples.size() < kUnmeasuredExamples)
      freshness.unmeasured_examples.push_back(point.search ? search_words(description, missing)
                                                           : description.label());
  }
}

// What changed in a config whose file differs from the one the run recorded, in words.
void assess_config_change(const ResultsDocument& results, const ExperimentConfig& loaded,
                          Freshness& freshness) {
  const std::string& config_path = loaded.file.path;
  const std::optional<Config>& config = loaded.config;
  if (!config) {
    freshness.measured_settings_changed = true;
    freshness.change_words = config_path +
                             " changed since these results were measured and cannot be read now (" +
                             loaded.load_error + ").";
    return;
  }
  // Comments, key order and spacing are not the config's content: a file whose resolved form is
  // the recorded one has not changed.
  if (without_source_hashes(config->resolved) == without_source_hashes(resolved_config(results))) {
    freshness.config_changed = false;
    return;
  }
  std::vector<std::string> changed;
  const json now = measured_settings(config->resolved);
  const json then = measured_settings(resolved_config(results));
  for (auto it = now.begin(); it != now.end(); ++it)
    if (!then.contains(it.key()) || then[it.key()] != it.value()) changed.push_back(it.key());
  for (auto it = then.begin(); it != then.end(); ++it)
    if (!now.contains(it.key())) changed.push_back(it.key());
  if (changed.empty()) {
    freshness.change_words =
        "The config's text (description, figures or tables) was edited after this run; the "
        "measured settings are unchanged.";
    return;
  }
  freshness.measured_settings_changed = true;
  std::string keys;
  for (const auto& key : changed) keys += (keys.empty() ? "" : ", ") + key;
  freshness.change_words = config_path + " changed since these results were measured: " + keys +
                           " differ from the settings the run recorded. The numbers are of the "
                           "recorded settings.";
}

// The first file a source includes that is not what the run compiled (relative to its folder).
std::string changed_include(const KernelSourceText& source, const fs::path& folder) {
  for (const IncludedText& included : source.includes)
    if (sha256_file_hex((folder / included.path).lexically_normal().string()) != included.sha256)
      return included.path;
  return "";
}

// The kernel sources the run compiled that the config still names, against their files now.
void assess_sources(const ResultsDocument& results, const ExperimentConfig& loaded,
                    Freshness& freshness) {
  if (!results.latest_run) return;
  const std::string folder = fs::path(loaded.file.path).parent_path().string();
  const auto& named = loaded.kernel_sources;
  std::string words;
  for (const KernelSourceText& source : results.latest_run->sources) {
    const fs::path written(source.path);
    const std::string on_disk = written.is_absolute() || folder.empty()
                                    ? source.path
                                    : (fs::path(folder) / written).lexically_normal().string();
    if (named && std::find(named->begin(), named->end(), on_disk) == named->end()) continue;
    const std::string now = sha256_file_hex(on_disk);
    const std::string included = changed_include(source, fs::path(on_disk).parent_path());
    if (now == source.sha256 && included.empty()) continue;
    freshness.changed_sources.push_back(source.path);
    words += (words.empty() ? "" : " ") + source.path +
             (now.empty()            ? " is gone since the run."
              : now != source.sha256 ? " changed since the run."
                                     : " includes " + included + ", which changed since the run.");
  }
  if (words.empty()) return;
  words += freshness.changed_sources.size() == 1
               ? " The numbers are of the source the run compiled."
               : " The numbers are of the sources the run compiled.";
  // A note that only the config's text was edited gives way to what makes the results stale.
  freshness.change_words =
      freshness.measured_settings_changed ? freshness.change_words + " " + words : words;
  freshness.measured_settings_changed = true;
}

}  // namespace

std::optional<std::string> config_to_read(const std::optional<std::string>& requested,
                                          const ResultsDocument& results, const std::string& name) {
  if (!requested || *requested != "auto") return requested;
  const std::string recorded = results.latest_run ? results.latest_run->config_path : "";
  // The recorded path comes from a results file too: only a YAML file's is followed, so that a
  // results file naming another file of the machine does not put that file's text on a page.
  const std::string extension = fs::path(recorded).extension().string();
  if ((extension == ".yaml" || extension == ".yml") && fs::exists(recorded)) return recorded;
  // The name comes from a results file: only a plain file name may point into configs/.
  const bool plain =
      !name.empty() && name[0] != '.' && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
  const std::string by_name = "configs/" + name + ".yaml";
  if (plain && fs::exists(by_name)) return by_name;
  return std::nullopt;
}

Freshness assess_freshness(const ResultsDocument& results, const ExperimentConfig* config) {
  Freshness freshness;
  for (const RunBlock& run : results.measuring_runs())
    freshness.unknown_commit |= !(run.git && run.git->commit);
  if (!config) {
    freshness.config_gone = true;
    return freshness;
  }
  freshness.update_command = "make experiment CONFIG=" + shell_word(config->file.path);
  const std::string recorded = results.latest_run ? results.latest_run->config_sha256 : "";
  freshness.config_changed = !recorded.empty() && config->file.sha256 != recorded;
  if (config->config) count_unmeasured(results, *config, freshness);
  if (freshness.config_changed) assess_config_change(results, *config, freshness);
  assess_sources(results, *config, freshness);
  return freshness;
}

}  // namespace convlab
