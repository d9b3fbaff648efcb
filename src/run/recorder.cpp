#include "run/recorder.hpp"

#include "measure/provenance.hpp"

namespace convlab {

Recorder::Recorder(ResultsStore store, const std::string& experiment_name,
                   const std::vector<std::string>& read_only)
    : store_(std::move(store)) {
  results_ = store_.read();
  const std::string earlier = results_.experiment.value("name", "");
  if (!earlier.empty() && earlier != experiment_name)
    throw ResultsFileError(store_.results_path() + ": holds experiment '" + earlier + "', not '" +
                           experiment_name + "'; choose another --out");
  index_records();
  for (const auto& path : read_only)
    for (auto& record : read_results(path).records)
      if (record.status == Status::ok) read_only_records_[record.key] = std::move(record);
}

void Recorder::fold_leftover_journal() {
  if (!store_.has_journal()) return;
  results_ = store_.compact();
  index_records();
}

void Recorder::begin(RunBlock run, nlohmann::json experiment) {
  run_ = std::move(run);
  experiment_ = std::move(experiment);
}

void Recorder::set_part(PartBlock part) {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  pending_part_ = std::move(part);
}

void Recorder::set_phases(RunPhases phases) {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  run_.phases = std::move(phases);
}

bool Recorder::has_ok_record(const std::string& key) {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  const auto existing = record_index_.find(key);
  if (existing != record_index_.end())
    return results_.records[existing->second].status == Status::ok;
  return read_only_records_.count(key) > 0;
}

const Record* Recorder::record(const std::string& key) const {
  if (auto found = record_index_.find(key); found != record_index_.end())
    return &results_.records[found->second];
  if (auto found = read_only_records_.find(key); found != read_only_records_.end())
    return &found->second;
  return nullptr;
}

// Appends the record to the journal, flushed to disk: the same work whatever the number of points
// done.
void Recorder::store(Record record) {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  std::vector<JournalLine> lines = opening_lines();
  lines.push_back({JournalLine::Kind::record, to_json(record)});
  for (auto& entry : pending_gallery_) lines.push_back({JournalLine::Kind::gallery, entry});
  store_.append(lines);
  pending_gallery_.clear();
  remember(record);
  ++points_done_;
}

void Recorder::draw_gallery(
    const std::function<std::vector<nlohmann::json>(const ResultsFile&)>& build) {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  for (auto& entry : build(results_)) pending_gallery_.push_back(std::move(entry));
}

void Recorder::finish() {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  run_.finished = utc_timestamp();
  compact();
}

void Recorder::fold_after_error() {
  const std::lock_guard<std::mutex> lock(write_mutex_);
  try {
    if (written_) compact();
  } catch (const ResultsFileError&) {
  }
}

std::size_t Recorder::interrupt() {
  write_mutex_.lock();
  if (written_) {
    run_.interrupted = utc_timestamp();
    compact();
  }
  return points_done_.load();
}

std::vector<JournalLine> Recorder::opening_lines() {
  std::vector<JournalLine> lines;
  if (!written_) {
    written_ = true;
    lines = {{JournalLine::Kind::experiment, experiment_}, {JournalLine::Kind::run, to_json(run_)}};
  }
  if (pending_part_) {
    lines.push_back({JournalLine::Kind::part, to_json(*pending_part_)});
    pending_part_.reset();
  }
  return lines;
}

// Appends the run block as it is now and folds the journal into the file, with the derived
// metrics computed once over the whole file. Called with write_mutex_ held.
void Recorder::compact() {
  const bool first = !written_;
  std::vector<JournalLine> lines = opening_lines();
  if (!first) lines.push_back({JournalLine::Kind::run, to_json(run_)});
  for (auto& entry : pending_gallery_) lines.push_back({JournalLine::Kind::gallery, entry});
  pending_gallery_.clear();
  store_.append(lines);
  results_ = store_.compact();
  index_records();
}

void Recorder::index_records() {
  record_index_.clear();
  for (std::size_t i = 0; i < results_.records.size(); ++i)
    record_index_[results_.records[i].key] = i;
}

void Recorder::remember(const Record& record) {
  if (const auto found = record_index_.find(record.key); found != record_index_.end()) {
    results_.records[found->second] = record;
    return;
  }
  record_index_[record.key] = results_.records.size();
  results_.records.push_back(record);
}

}  // namespace convlab
