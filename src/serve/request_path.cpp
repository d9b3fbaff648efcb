#include "serve/request_path.hpp"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <vector>

namespace convlab {

namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool acceptable_component(const std::string& component) {
  if (component.empty() || component[0] == '.') return false;  // "", ".", "..", hidden files
  for (unsigned char c : component)
    if (c < 0x20 || c == 0x7f || c == '\\') return false;
  return true;
}

// The components of `path` ("/a/b/" -> a, b; a trailing slash names the folder), nullopt when one
// of them is not acceptable.
std::optional<std::vector<std::string>> path_components(const std::string& path) {
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::vector<std::string> components;
  std::size_t start = 1;
  while (start < path.size()) {
    std::size_t slash = path.find('/', start);
    std::string component = path.substr(start, slash == std::string::npos ? slash : slash - start);
    if (!acceptable_component(component)) return std::nullopt;
    components.push_back(std::move(component));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return components;
}

std::optional<fs::path> real_path_of(const fs::path& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return fs::path(resolved);
}

}  // namespace

std::optional<std::string> decoded_target_path(const std::string& target) {
  const std::string path = target.substr(0, target.find('?'));
  if (path.empty() || path[0] != '/') return std::nullopt;
  std::string decoded;
  decoded.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      decoded += path[i];
      continue;
    }
    if (i + 2 >= path.size()) return std::nullopt;
    const int high = hex_value(path[i + 1]);
    const int low = hex_value(path[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    decoded += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return decoded;
}

bool lies_within(const fs::path& real_root, const fs::path& real_path) {
  auto root_part = real_root.begin();
  auto path_part = real_path.begin();
  for (; root_part != real_root.end(); ++root_part, ++path_part) {
    if (root_part->empty()) continue;  // the empty last part of a root with a trailing slash
    if (path_part == real_path.end() || *path_part != *root_part) return false;
  }
  return true;
}

std::optional<fs::path> contained_regular_file(const fs::path& real_root,
                                               const std::string& decoded_path) {
  const auto components = path_components(decoded_path);
  if (!components) return std::nullopt;
  fs::path candidate = real_root;
  for (const std::string& component : *components) candidate /= component;
  auto real = real_path_of(candidate);
  if (!real || !lies_within(real_root, *real)) return std::nullopt;
  struct stat status {};
  if (::stat(real->c_str(), &status) != 0) return std::nullopt;
  if (S_ISDIR(status.st_mode)) {
    real = real_path_of(*real / "index.html");
    if (!real || !lies_within(real_root, *real) || ::stat(real->c_str(), &status) != 0)
      return std::nullopt;
  }
  if (!S_ISREG(status.st_mode)) return std::nullopt;
  return real;
}

}  // namespace convlab
