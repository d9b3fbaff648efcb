#include "store/results_merge.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "store/machine.hpp"

namespace convlab {

using json = nlohmann::json;

// The device is left out: a new measurement of a point on another GPU of the same model in the
// same host replaces the earlier one, as a re-run on one device does.
std::string point_on_machine(const Record& record) {
  return record.point_id + "|" + machine_model_key(record);
}

void refuse_repeated_points(const std::vector<Record>& records, const std::string& path) {
  std::unordered_map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].point_id.empty()) continue;  // files of versions before point ids
    const auto [earlier, inserted] = first.emplace(point_on_machine(records[i]), i);
    if (inserted) continue;
    throw ResultsFileError(path + ": records[" + std::to_string(earlier->second) +
                           "] and records[" + std::to_string(i) + "]: point_id " +
                           records[i].point_id.substr(0, 16) +
                           " twice, measured on the same machine; a results file holds one "
                           "record of a point per machine (docs/results-schema.md)");
  }
}

RecordMerger::RecordMerger(std::vector<Record>& records) : records_(records) {
  for (size_t i = 0; i < records_.size(); ++i) index(i);
}

void RecordMerger::index(size_t position) {
  // The first record of a key or point is the one a newer measurement replaces.
  by_key_.emplace(records_[position].key, position);
  by_point_.emplace(point_on_machine(records_[position]), position);
}

void RecordMerger::add_or_replace(Record record) {
  std::optional<size_t> position;
  if (auto key = by_key_.find(record.key); key != by_key_.end())
    position = key->second;
  else if (auto point = by_point_.find(point_on_machine(record)); point != by_point_.end())
    position = point->second;
  if (!position) {
    records_.push_back(std::move(record));
    index(records_.size() - 1);
    return;
  }
  const Record& earlier = records_[*position];
  if (auto key = by_key_.find(earlier.key); key != by_key_.end() && key->second == *position)
    by_key_.erase(key);
  if (auto point = by_point_.find(point_on_machine(earlier));
      point != by_point_.end() && point->second == *position)
    by_point_.erase(point);
  records_[*position] = std::move(record);
  by_key_[records_[*position].key] = *position;
  by_point_[point_on_machine(records_[*position])] = *position;
}

ResultsFolding::ResultsFolding(ResultsFile& into, std::string into_path)
    : into_(into), into_path_(std::move(into_path)), records_(into.records) {
  for (size_t i = 0; i < into_.runs.size(); ++i) run_by_id_[into_.runs[i].id] = i;
}

void ResultsFolding::fold(ResultsFile from, const std::string& from_path) {
  const std::string name = from.experiment.value("name", "");
  const std::string earlier = into_.experiment.value("name", "");
  if (!earlier.empty() && !name.empty() && earlier != name)
    throw ResultsFileError(from_path + ": experiment.name: '" + name + "', but " + into_path_ +
                           " holds experiment '" + earlier + "'");
  if (!name.empty()) into_.experiment = std::move(from.experiment);
  for (auto& run : from.runs) {
    const auto found = run_by_id_.find(run.id);
    if (found != run_by_id_.end()) {
      into_.runs[found->second] = std::move(run);
      continue;
    }
    run_by_id_[run.id] = into_.runs.size();
    into_.runs.push_back(std::move(run));
  }
  for (auto& record : from.records) records_.add_or_replace(std::move(record));
  for (auto& entry : from.gallery) {
    const auto same =
        std::find_if(into_.gallery.begin(), into_.gallery.end(), [&](const json& earlier_entry) {
          return earlier_entry.value("image", "") == entry.value("image", "") &&
                 earlier_entry.value("kernel", "") == entry.value("kernel", "") &&
                 earlier_entry.value("border", "") == entry.value("border", "");
        });
    if (same != into_.gallery.end())
      *same = std::move(entry);
    else
      into_.gallery.push_back(std::move(entry));
  }
}

void ResultsFolding::finish() {
  keep_referenced_runs(into_.runs, into_.records, {});
  run_by_id_.clear();
  for (size_t i = 0; i < into_.runs.size(); ++i) run_by_id_[into_.runs[i].id] = i;
}

void keep_referenced_runs(std::vector<RunBlock>& runs, const std::vector<Record>& records,
                          const std::set<std::string>& keep) {
  std::set<std::string> referenced = keep;
  for (const auto& record : records) referenced.insert(record.run_id);
  std::vector<RunBlock> kept;
  for (auto& run : runs)
    if (referenced.count(run.id) > 0) kept.push_back(std::move(run));
  runs = std::move(kept);
}

}  // namespace convlab
