#include "store/shard_records.hpp"

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/sha256.hpp"
#include "plan/plan.hpp"
#include "store/machine.hpp"

namespace convlab {
namespace {

// Where a record is: file and index.
struct RecordAt {
  std::size_t file = 0;
  std::size_t index = 0;
};

std::string key_of(const std::vector<ShardRecords>& files, const RecordAt& at) {
  return *files[at.file].file + ": records[" + std::to_string(at.index) + "]";
}

std::string point_words(const Record& record) {
  return "point " + record.point_id.substr(0, 16) + " (" + record.implementation + ")";
}

// The shard that plans each point, by digest, among the files read.
std::unordered_map<std::string, int> planning_shards(const std::vector<ShardRecords>& files) {
  std::unordered_map<std::string, int> planned_by;
  for (const auto& file : files)
    for (const auto& digest : file.results->part->points)
      planned_by.emplace(digest, file.results->part->shard->index);
  return planned_by;
}

class ForeignRecords {
 public:
  explicit ForeignRecords(const std::vector<ShardRecords>& files)
      : files_(files), planned_by_(planning_shards(files)) {}

  void check() {
    for (std::size_t f = 0; f < files_.size(); ++f) {
      const auto& points = files_[f].results->part->points;
      const std::unordered_set<std::string> planned(points.begin(), points.end());
      const auto& records = files_[f].results->records;
      for (std::size_t i = 0; i < records.size(); ++i) check_record({f, i}, planned);
    }
  }

  std::vector<std::string> drop() {
    std::vector<std::string> lines;
    for (std::size_t f = 0; f < files_.size(); ++f) {
      auto& records = files_[f].results->records;
      std::vector<Record> kept;
      kept.reserve(records.size());
      for (std::size_t i = 0; i < records.size(); ++i) {
        const auto refused = refused_.find({f, i});
        if (refused == refused_.end())
          kept.push_back(std::move(records[i]));
        else
          lines.push_back(key_of(files_, {f, i}) + ": " + refused->second + "; not merged");
      }
      records = std::move(kept);
    }
    return lines;
  }

 private:
  void check_record(const RecordAt& at, const std::unordered_set<std::string>& planned) {
    const Record& record = files_[at.file].results->records[at.index];
    const std::string digest = record.description().digest();
    if (planned.count(digest) == 0) {
      const auto other = planned_by_.find(digest);
      refuse(at, point_words(record) + " is not one its shard plans (" +
                     (other == planned_by_.end()
                          ? std::string("no shard file here plans it")
                          : "shard " + std::to_string(other->second) + " plans it") +
                     ")");
      return;
    }
    const std::string point = record.point_id + "|" + machine_model_key(record);
    const std::string values = sha256_hex(to_json(record).dump());
    const auto [first, inserted] = first_of_point_.emplace(point, First{at, values, false});
    if (inserted || (first->second.values == values && !first->second.differs)) return;
    // Two measurements of one point on one machine that differ: which one is real cannot be told.
    first->second.differs = true;
    const RecordAt earlier = first->second.at;
    refuse(at, point_words(record) + " is also in " + key_of(files_, earlier) +
                   ", measured on the same machine, with other values");
    if (!refused_.count({earlier.file, earlier.index}))
      refuse(earlier, point_words(record) + " is also in " + key_of(files_, at) +
                          ", measured on the same machine, with other values");
  }

  void refuse(const RecordAt& at, const std::string& why) {
    refused_.emplace(std::make_pair(at.file, at.index), why);
  }

  struct First {
    RecordAt at;
    std::string values;  // sha256 of the record's JSON
    bool differs;        // another record of the point and machine has other values
  };

  const std::vector<ShardRecords>& files_;
  const std::unordered_map<std::string, int> planned_by_;
  std::unordered_map<std::string, First> first_of_point_;
  // Why each record left out is, by file and index.
  std::map<std::pair<std::size_t, std::size_t>, std::string> refused_;
};

}  // namespace

std::vector<std::string> drop_foreign_records(const std::vector<ShardRecords>& files) {
  ForeignRecords check(files);
  check.check();
  return check.drop();
}

}  // namespace convlab
