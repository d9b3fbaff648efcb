#include "app/editor_assets.hpp"

#include <cstdlib>

#include "core/file_io.hpp"

namespace convlab {

namespace fs = std::filesystem;

std::string codemirror_directory() {
  const char* chosen = std::getenv("CONVLAB_CODEMIRROR_DIR");
  return chosen && *chosen ? chosen : "/usr/share/javascript/codemirror";
}

std::string write_editor_assets(const fs::path& out) {
  const fs::path from = codemirror_directory();
  // The files editing.js loads, in the package's own layout.
  static const char* const files[] = {"lib/codemirror.js",
                                      "lib/codemirror.css",
                                      "mode/yaml/yaml.js",
                                      "mode/clike/clike.js",
                                      "mode/xml/xml.js",
                                      "mode/markdown/markdown.js",
                                      "addon/edit/matchbrackets.js",
                                      "addon/selection/active-line.js"};
  for (const char* file : files)
    if (!fs::is_regular_file(from / file))
      return "A plain text box: CodeMirror is not installed (" + (from / file).string() +
             " is missing; scripts/install-deps.sh notebook installs libjs-codemirror).";
  try {
    for (const std::string file : files) {
      // lib/ is the package's; the page loads the editor from the folder itself.
      const std::string to = file.rfind("lib/", 0) == 0 ? file.substr(4) : file;
      write_file_if_changed(out / kEditorAssets / to, read_file((from / file).string()));
    }
  } catch (const std::exception& error) {
    return std::string("A plain text box: the editor could not be copied: ") + error.what();
  }
  return "";
}

}  // namespace convlab
