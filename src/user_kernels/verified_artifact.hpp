// What a kernel host loads is what the kernel cache recorded: an artefact is read once, its bytes
// hashed and compared with the sha256 its cache entry's manifest holds, and those very bytes are
// loaded (a .so from a sealed memfd, a cubin from memory), so that a file replaced after the check
// never runs.
#pragma once

#include <stdexcept>
#include <string>

namespace convlab {

// An artefact whose bytes are not those recorded, or that cannot be read or loaded; what() names
// its path and both hashes.
class ArtifactRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest artefact read (a compiled variant is far smaller).
constexpr std::size_t kMaxArtifactBytes = 256u << 20;

// The bytes of `path`, read once; throws ArtifactRefused when their sha256 is not `expected`
// (lower-case hex, as the manifest writes it).
std::string read_verified_artifact(const std::string& path, const std::string& expected);

// dlopen of the bytes `read_verified_artifact` returned, through a memfd sealed against every
// change (/proc/self/fd/N, the descriptor kept open so that no two copies share a name, which the
// loader would take for one library). Libraries are loaded once per hash and stay loaded: a thread
// a kernel left behind may still run their code. Throws ArtifactRefused.
void* load_verified_library(const std::string& path, const std::string& expected);

}  // namespace convlab
