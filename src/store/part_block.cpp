#include "store/part_block.hpp"

#include <stdexcept>

namespace convlab {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& problem) {
  throw std::invalid_argument(field + ": " + problem);
}

std::string text_at(const json& part, const char* key) {
  if (!part.contains(key)) return "";
  if (!part[key].is_string()) fail(key, "expected a string, got " + part[key].dump());
  return part[key].get<std::string>();
}

std::vector<std::string> texts_at(const json& part, const char* key) {
  std::vector<std::string> texts;
  if (!part.contains(key)) return texts;
  if (!part[key].is_array()) fail(key, "expected a list of strings");
  for (size_t i = 0; i < part[key].size(); ++i) {
    if (!part[key][i].is_string())
      fail(std::string(key) + "[" + std::to_string(i) + "]", "expected a string");
    texts.push_back(part[key][i].get<std::string>());
  }
  return texts;
}

int count_at(const json& object, const std::string& field, const char* key, int minimum) {
  if (!object.contains(key) || !object[key].is_number_integer() ||
      object[key].get<long long>() < minimum || object[key].get<long long>() > (1 << 30))
    fail(field + "." + key, "expected an integer of at least " + std::to_string(minimum));
  return object[key].get<int>();
}

}  // namespace

json to_json(const PartBlock& part) {
  json j{{"config_sha256", part.config_sha256},
         {"filter", part.filter},
         {"points", part.points},
         {"keys", part.keys}};
  if (part.shard) {
    j["shard"] = {{"index", part.shard->index}, {"count", part.shard->count}};
    j["partition"] = part.partition;
    j["shard_points"] = part.shard_points;
  }
  if (part.device) j["device"] = *part.device;
  return j;
}

PartBlock part_block_from_json(const json& j) {
  if (!j.is_object()) fail("part", "expected an object");
  PartBlock part;
  part.config_sha256 = text_at(j, "config_sha256");
  part.filter = text_at(j, "filter");
  part.partition = text_at(j, "partition");
  part.points = texts_at(j, "points");
  part.keys = texts_at(j, "keys");
  if (j.contains("shard")) {
    const json& shard = j["shard"];
    if (!shard.is_object()) fail("shard", "expected an object {index, count}");
    ShardIndex index;
    index.count = count_at(shard, "shard", "count", 1);
    index.index = count_at(shard, "shard", "index", 0);
    if (index.index >= index.count)
      fail("shard.index", std::to_string(index.index) + " is not below shard.count " +
                              std::to_string(index.count));
    part.shard = index;
    if (j.contains("shard_points")) {
      if (!j["shard_points"].is_array()) fail("shard_points", "expected a list of counts");
      for (const auto& count : j["shard_points"]) {
        if (!count.is_number_unsigned()) fail("shard_points", "expected a list of counts");
        part.shard_points.push_back(count.get<std::size_t>());
      }
    }
  }
  if (j.contains("device")) {
    if (!j["device"].is_number_integer() || j["device"].get<long long>() < 0)
      fail("device", "expected a device index");
    part.device = j["device"].get<int>();
  }
  return part;
}

}  // namespace convlab
