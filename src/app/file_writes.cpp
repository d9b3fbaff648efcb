#include "app/file_writes.hpp"

#include <fstream>
#include <sstream>

#include "results/results_document.hpp"

namespace convlab {

namespace fs = std::filesystem;

bool write_if_changed(const fs::path& path, const std::string& content) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream existing;
      existing << in.rdbuf();
      if (existing.str() == content) return false;
    }
  }
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << content;
    if (!out) throw ExportError(path.generic_string() + ": cannot write");
  }
  fs::rename(temporary, path);
  return true;
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace convlab
