// Which file of the notebook folder a request names, if any. The path of the request target is
// percent-decoded exactly once and split into whole components; a component that is empty (but the
// last), "." or "..", starts with a dot, or holds a NUL, a control character or a backslash names
// nothing. The file's real path (every symbolic link resolved) must then be the root or lie under
// it component by component, so a sibling folder whose name merely starts with the root's name, or
// a link inside the root that leads out of it, is outside. Only regular files are served.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace convlab {

// The path of a request target ("/a/b.html?x=y" -> "/a/b.html"), percent-decoded once; nullopt
// when the target is not an origin-form path or holds a malformed escape ("%zz", "%4").
std::optional<std::string> decoded_target_path(const std::string& target);

// The real path of the regular file `decoded_path` names under `real_root` (a real path, as
// std::filesystem::canonical gives); a folder names its index.html. nullopt for everything that
// must answer 404: a bad component, nothing there, a link leading out, a FIFO, device or socket.
std::optional<std::filesystem::path> contained_regular_file(const std::filesystem::path& real_root,
                                                            const std::string& decoded_path);

// Whether `real_path` is `real_root` or lies under it, compared on whole components.
bool lies_within(const std::filesystem::path& real_root, const std::filesystem::path& real_path);

}  // namespace convlab
