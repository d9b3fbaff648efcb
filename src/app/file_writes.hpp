// Writing the files a command generates (exports, notebook pages): only when the content changed,
// so that unchanged files keep their modification times and make, the figure renderer and the
// notebook redo only what is stale.
#pragma once

#include <filesystem>
#include <string>

namespace convlab {

// Writes `content` to `path` (through a temporary file and a rename) unless the file holds it
// already; true when written. Throws ExportError "PATH: cannot write" on failure.
bool write_if_changed(const std::filesystem::path& path, const std::string& content);

std::string read_text_file(const std::filesystem::path& path);

}  // namespace convlab
