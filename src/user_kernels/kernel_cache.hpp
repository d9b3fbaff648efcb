// The kernel cache's entries (kernel_compiler.hpp): a folder per compiled variant, named by the
// hash of everything the compiled code depends on. An entry is made in a temporary folder and
// renamed into place once complete, so processes compiling the same variant at the same time
// (device workers, shards) never see half an entry; the one renamed first wins.
//
// The cache holds code this process will load, so it trusts only itself: the cache folder must
// belong to this user and be writable by nobody else (else it is refused, with the reason),
// folders are made 0700 and files 0600 whatever the umask, and each entry's manifest records the
// sha256 of its artefact, checked before the artefact is used.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace convlab {

// The cache folder cannot be trusted (another user's, writable by others, not a folder).
class KernelCacheRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `cache`, made 0700 when missing; throws KernelCacheRefused when it belongs to another user, is
// writable by its group or others, or is not a folder.
void require_private_cache(const std::string& cache);

// The folder of the entry for `key` (its inputs as JSON), whether or not it exists.
std::string cache_entry_folder(const std::string& cache, const std::string& stem,
                               const nlohmann::json& key);

// The entry's manifest (manifest.json, written last), nullopt when the entry is not complete.
std::optional<nlohmann::json> read_cache_manifest(const std::string& folder);

// Whether the entry's artefact holds the bytes its manifest's artifact_sha256 names; an entry
// whose artefact was replaced, or whose manifest names none, is not intact.
bool cache_entry_intact(const std::string& folder, const nlohmann::json& manifest);
// Moves a damaged entry out of the way, so that it is compiled again.
void discard_cache_entry(const std::string& folder);

// A folder to build an entry in, beside its final place (the first call of a process also removes
// folders of compiles abandoned more than an hour ago).
std::string begin_cache_entry(const std::string& folder);
// Seals the modes of everything in `building` (folders 0700, files 0600), writes the manifest
// and renames it to `folder` (an entry already there, made by another process meanwhile, is kept
// and `building` removed).
void finish_cache_entry(const std::string& building, const std::string& folder,
                        const nlohmann::json& manifest);
// Removes a folder made by begin_cache_entry that will not be finished.
void abandon_cache_entry(const std::string& building);

}  // namespace convlab
