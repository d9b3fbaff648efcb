// The kernel cache's entries (kernel_compiler.hpp): a folder per compiled variant, named by the
// hash of everything the compiled code depends on. An entry is made in a temporary folder and
// renamed into place once complete, so processes compiling the same variant at the same time
// (device workers, shards) never see half an entry; the one renamed first wins.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace convlab {

// The folder of the entry for `key` (its inputs as JSON), whether or not it exists.
std::string cache_entry_folder(const std::string& cache, const std::string& stem,
                               const nlohmann::json& key);

// The entry's manifest (manifest.json, written last), nullopt when the entry is not complete.
std::optional<nlohmann::json> read_cache_manifest(const std::string& folder);

// A folder to build an entry in, beside its final place (the first call of a process also removes
// folders of compiles abandoned more than an hour ago).
std::string begin_cache_entry(const std::string& folder);
// Writes the manifest into `building` and renames it to `folder` (an entry already there, made
// by another process meanwhile, is kept and `building` removed).
void finish_cache_entry(const std::string& building, const std::string& folder,
                        const nlohmann::json& manifest);
// Removes a folder made by begin_cache_entry that will not be finished.
void abandon_cache_entry(const std::string& building);

}  // namespace convlab
