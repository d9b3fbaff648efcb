// Where the parts of a sharded or multi-device run live in a results folder DIR:
//   DIR/shards/shard-3-of-8.json        a shard's results (`convlab run --shard 3/8`), with its
//                                       own .journal and .lock, and shard-3-of-8.done once every
//                                       point it plans has a record;
//   DIR/workers/results.device-1.json   a device worker's part of a `convlab run --devices` run,
//                                       folded into DIR/results.json when the workers end;
//   DIR/shards/workers/shard-3-of-8.device-1.json   the same for a shard run with --devices.
// Every such file has exactly one writer, so nothing here depends on a lock working across
// machines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/part_block.hpp"

namespace convlab {

std::string shards_folder(const std::string& out_dir);
// "shard-3-of-8.json"
std::string shard_file_name(const ShardIndex& shard);
// The shard a file of DIR/shards is named for (its .json or .journal), or nullopt.
std::optional<ShardIndex> shard_of_file_name(const std::string& name);
// Every shard that has a file (or only a journal) in DIR/shards, by count, then index.
std::vector<ShardIndex> shards_with_files(const std::string& out_dir);

// DIR/shards/shard-3-of-8.done: the shard's points all have records. Written by the shard's run
// when it ends so, removed when it starts again.
void mark_shard_done(const std::string& out_dir, const ShardIndex& shard, bool done);
// Whether all `count` shards are marked done (cheap: one look at the folder).
bool every_shard_done(const std::string& out_dir, int count);

// The folder of the device workers' files of a results file in `folder`.
std::string workers_folder(const std::string& folder);
// "results.device-1.json" for results.json, "shard-3-of-8.device-1.json" for a shard's file.
std::string worker_file_name(const std::string& file_name, int device);
// The worker files of `file_name` that exist in workers_folder(folder) (or only their journals).
std::vector<std::string> worker_file_names(const std::string& folder, const std::string& file_name);

}  // namespace convlab
