#include "user_kernels/private_tree.hpp"

#include <unistd.h>

#include <climits>
#include <filesystem>

#include "core/file_io.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

std::string in_tree(const std::string& root, const std::string& absolute) {
  return root + (absolute.empty() || absolute[0] != '/' ? "/" : "") + absolute;
}

void place(const std::string& path, const std::string& text) {
  create_folders(fs::path(path).parent_path().string());
  write_file(path, text, WriteTarget::owned);
}

}  // namespace

std::string PrivateTree::shown(const std::string& log) const {
  std::string out;
  out.reserve(log.size());
  for (std::size_t at = 0;;) {
    const std::size_t found = log.find(root, at);
    if (found == std::string::npos) return out + log.substr(at);
    out += log.substr(at, found - at);
    at = found + root.size();
  }
}

PrivateTree lay_out_snapshot(const UserKernelSource& source, const std::string& header,
                             const std::string& folder) {
  PrivateTree tree;
  tree.root = folder + "/tree";
  place(in_tree(tree.root, source.absolute_path), source.text);
  for (const IncludedFile& included : source.includes)
    place(in_tree(tree.root, included.file.absolute), included.file.text);
  tree.include_folder = folder + "/include";
  place(tree.include_folder + "/convlab/kernel.h", header);
  char cwd[PATH_MAX];
  const std::string working = ::getcwd(cwd, sizeof cwd) ? cwd : "/";
  tree.working_folder = in_tree(tree.root, working);
  create_folders(tree.working_folder);
  tree.main_argument =
      fs::path(source.path).is_absolute() ? in_tree(tree.root, source.absolute_path) : source.path;
  return tree;
}

}  // namespace convlab
