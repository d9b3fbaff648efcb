// The "part" block of a results file that holds one part of a plan (docs/results-schema.md,
// "Shard and worker files"): a shard's file (DIR/shards/shard-3-of-8.json), written by
// `convlab run --shard 3/8`, or a device worker's (DIR/workers/results.device-1.json), written by
// the workers of `convlab run --devices`. It says which plan the part belongs to, so that
// `convlab merge` can refuse parts of another config and name the points no part has measured.
// to_json and part_block_from_json are the only place its JSON names appear.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace convlab {

// The I-th of N shards, 0-based.
struct ShardIndex {
  int index = 0;
  int count = 1;
  bool operator==(const ShardIndex& other) const {
    return index == other.index && count == other.count;
  }
};

struct PartBlock {
  std::string config_sha256;  // of the config file the plan was expanded from
  std::string filter;         // the --filter text; empty for none
  std::optional<ShardIndex> shard;
  std::optional<int> device;  // a device worker's CUDA device
  // How the plan was cut: a digest of which shard every work unit went to. Shards of one plan,
  // cut by any machine, have the same.
  std::string partition;
  std::vector<std::size_t> shard_points;  // shards: the points of every shard of the plan
  // The points this part plans, in plan order, by their digest (plan.hpp point_digest).
  std::vector<std::string> points;
  // Their record keys, in the same order, once the part has run (device workers).
  std::vector<std::string> keys;
};

nlohmann::json to_json(const PartBlock& part);
// Throws std::invalid_argument naming the field ("shard.count: expected a positive integer").
PartBlock part_block_from_json(const nlohmann::json& part);

}  // namespace convlab
