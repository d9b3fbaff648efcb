// Writing the files a command generates (exports, notebook pages): only when the content changed,
// so that unchanged files keep their modification times and make, the figure renderer and the
// notebook redo only what is stale; whole or not at all (core/file_io.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "core/file_io.hpp"

namespace convlab {

// Writes `content` to `path` unless the file holds it already, creating its folders; true when
// written. `target`: a file of convlab's own folders (owned) or one named on the command line.
// Throws FileError "PATH: write error: REASON".
bool write_if_changed(const std::filesystem::path& path, const std::string& content,
                      WriteTarget target = WriteTarget::owned);

// A discussion or summary is prose: anything larger is not one.
constexpr std::size_t kMaxProseBytes = std::size_t(16) << 20;

// The bytes of a file convlab reads whole (a FileError names it when it cannot be read, is not a
// regular file or is larger than `max_bytes`).
std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes = kNoSizeLimit);

}  // namespace convlab
