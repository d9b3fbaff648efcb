#include "store/part_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::string stem_of(const std::string& file_name) {
  return fs::path(file_name).stem().string();
}

std::string done_marker(const std::string& out_dir, const ShardIndex& shard) {
  return shards_folder(out_dir) + "/" + stem_of(shard_file_name(shard)) + ".done";
}

std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    names.push_back(it->path().filename().string());
  return names;
}

}  // namespace

std::string shards_folder(const std::string& out_dir) {
  return out_dir + "/shards";
}

std::string shard_file_name(const ShardIndex& shard) {
  return "shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count) + ".json";
}

std::optional<ShardIndex> shard_of_file_name(const std::string& name) {
  static const std::regex pattern("shard-([0-9]{1,9})-of-([0-9]{1,9})\\.(json|journal)");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  ShardIndex shard{std::stoi(match[1]), std::stoi(match[2])};
  if (shard.count < 1 || shard.index >= shard.count) return std::nullopt;
  // Only the canonical spelling: shard-03-of-8.json is not shard 3's file.
  if (stem_of(shard_file_name(shard)) != stem_of(name)) return std::nullopt;
  return shard;
}

std::vector<ShardIndex> shards_with_files(const std::string& out_dir) {
  std::set<std::pair<int, int>> found;
  for (const auto& name : names_in(shards_folder(out_dir)))
    if (auto shard = shard_of_file_name(name)) found.insert({shard->count, shard->index});
  std::vector<ShardIndex> shards;
  for (const auto& [count, index] : found) shards.push_back({index, count});
  return shards;
}

void mark_shard_done(const std::string& out_dir, const ShardIndex& shard, bool done) {
  const std::string marker = done_marker(out_dir, shard);
  std::error_code error;
  if (!done) {
    fs::remove(marker, error);
    return;
  }
  std::ofstream(marker) << "every point of " << shard_file_name(shard) << " has a record\n";
}

bool every_shard_done(const std::string& out_dir, int count) {
  std::set<std::string> names;
  for (auto& name : names_in(shards_folder(out_dir))) names.insert(std::move(name));
  for (int index = 0; index < count; ++index)
    if (names.count(stem_of(shard_file_name({index, count})) + ".done") == 0) return false;
  return true;
}

std::string workers_folder(const std::string& folder) {
  return folder + "/workers";
}

std::string worker_file_name(const std::string& file_name, int device) {
  return stem_of(file_name) + ".device-" + std::to_string(device) + ".json";
}

std::vector<std::string> worker_file_names(const std::string& folder,
                                           const std::string& file_name) {
  static const std::regex device_suffix("\\.device-([0-9]{1,9})\\.(json|journal)");
  const std::string stem = stem_of(file_name);
  std::set<std::string> found;
  for (const auto& name : names_in(workers_folder(folder))) {
    if (name.rfind(stem, 0) != 0) continue;
    std::smatch match;
    const std::string rest = name.substr(stem.size());
    if (std::regex_match(rest, match, device_suffix))
      found.insert(worker_file_name(file_name, std::stoi(match[1])));
  }
  return {found.begin(), found.end()};
}

}  // namespace convlab
