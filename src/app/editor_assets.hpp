// The editor of the served page's cells: CodeMirror 5 from Debian's libjs-codemirror, copied beside
// the pages (assets/codemirror/) by convlab watch --serve as KaTeX is by every notebook, so that
// nothing is fetched from elsewhere and the page works offline. Only the files the page loads are
// copied: the editor, its style, the modes of YAML, C/C++ (CUDA is defined on C++'s) and Markdown,
// and two add-ons (matching brackets, the active line).
#pragma once

#include <filesystem>
#include <string>

namespace convlab {

// Where Debian's libjs-codemirror puts CodeMirror; CONVLAB_CODEMIRROR_DIR names another folder.
std::string codemirror_directory();

// Copies the editor into OUT/assets/codemirror. Returns why it could not (the page then edits in
// a plain text box and says so), or an empty string.
std::string write_editor_assets(const std::filesystem::path& out);

// The editor's folder relative to the pages.
inline constexpr const char* kEditorAssets = "assets/codemirror";

}  // namespace convlab
