#include "gallery/gallery_select.hpp"

#include <algorithm>
#include <map>

namespace convlab {
namespace {

// The newest record of each point (implementation, params, output) of one image, kernel and
// border; records of other machines or earlier runs of the same point give way to it.
std::vector<const Record*> latest_points(const std::vector<Record>& records,
                                         const GalleryQuery& query) {
  std::map<std::string, const Record*> latest;
  for (const Record& record : records) {
    if (record.image.name != query.image || record.kernel.name != query.kernel ||
        record.border != query.border)
      continue;
    const std::string point =
        record.implementation + "|" + record.params.dump() + "|" + record.output;
    const Record*& kept = latest[point];
    if (!kept || record.run_id >= kept->run_id) kept = &record;
  }
  std::vector<const Record*> points;
  for (const Record& record : records)  // in file order
    for (const auto& [point, kept] : latest)
      if (kept == &record) points.push_back(kept);
  return points;
}

// The config's implementation first, then the ones after it, then the ones before it.
std::vector<std::string> fallback_order(const GalleryQuery& query) {
  const auto& order = query.implementation_order;
  auto chosen = std::find(order.begin(), order.end(), query.implementation);
  if (chosen == order.end()) {
    std::vector<std::string> all{query.implementation};
    all.insert(all.end(), order.begin(), order.end());
    return all;
  }
  std::vector<std::string> rotated(chosen, order.end());
  rotated.insert(rotated.end(), order.begin(), chosen);
  return rotated;
}

std::string why_not_shown(const std::vector<const Record*>& points, const GalleryQuery& query,
                          const std::string& output,
                          const std::function<bool(const std::string&)>& available) {
  for (const Record* record : points) {
    if (record->implementation != query.implementation || record->output != output) continue;
    if (record->status == Status::skipped) return "skipped: " + record->reason;
    if (record->status == Status::failed) return "failed: " + record->reason;
    if (!record->saved_output) return "saved no output";
    if (!available(record->saved_output->file))
      return "its output file " + record->saved_output->file + " is missing";
  }
  return "has no " + output + " point";
}

std::vector<IdenticalCount> count_identical(const std::vector<const Record*>& points,
                                            const GallerySource& source) {
  std::vector<IdenticalCount> counts;
  for (const Record* shown : points) {
    if (shown->implementation != source.implementation || shown->params != source.params ||
        shown->status != Status::ok || !shown->saved_output)
      continue;
    IdenticalCount count{shown->output, 0, 0};
    for (const Record* other : points) {
      if (other->output != shown->output || other->status == Status::skipped) continue;
      ++count.ran;
      if (other->status == Status::ok && other->saved_output &&
          other->saved_output->sha256 == shown->saved_output->sha256)
        ++count.identical;
    }
    counts.push_back(count);
  }
  return counts;
}

}  // namespace

GalleryChoice choose_gallery_source(const std::vector<Record>& records, const GalleryQuery& query,
                                    const std::function<bool(const std::string&)>& available) {
  const std::vector<const Record*> points = latest_points(records, query);
  GalleryChoice choice;
  for (const std::string& output : query.outputs) {
    for (const std::string& implementation : fallback_order(query)) {
      for (const Record* record : points) {
        if (record->implementation != implementation || record->output != output ||
            record->status != Status::ok || !record->saved_output ||
            !available(record->saved_output->file))
          continue;
        choice.source = GallerySource{implementation,
                                      record->params,
                                      output,
                                      record->key,
                                      record->saved_output->file,
                                      record->saved_output->sha256};
        break;
      }
      if (choice.source) break;
    }
    if (!choice.source) continue;
    if (choice.source->implementation != query.implementation)
      choice.fallback =
          query.implementation + " " + why_not_shown(points, query, output, available);
    choice.identical = count_identical(points, *choice.source);
    break;
  }
  return choice;
}

}  // namespace convlab
