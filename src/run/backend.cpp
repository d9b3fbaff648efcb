#include "run/backend.hpp"

#include <filesystem>

namespace convlab {

std::string describe(const BackendTraits& traits) {
  std::string text = std::string(traits.name) + ": ";
  text += traits.measures_here ? "measures on this machine" : "hands the points to a scheduler";
  if (traits.parallel) text += ", several processes at once";
  text += traits.folder_lock ? ", one results file under the folder's lock"
                             : ", each process writes a file of its own";
  if (traits.shared_folder) text += " in a folder every node must see";
  return text;
}

std::string own_executable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("convlab") : self.string();
}

}  // namespace convlab
