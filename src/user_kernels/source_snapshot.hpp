// A user's kernel as the bytes that are compiled: the source and every file it includes, read once
// (regular files only, never through a symbolic link) into a snapshot that the compile works from
// (kernel_compiler.hpp lays it out in a private folder), so that nothing saved later, during or
// after the compile, can differ from what the records name.
//
// Included files are found by reading the `#include "..."` directives of every file (comments
// left out): a name relative to the including file's folder that names a regular file is one of
// the user's files and joins the snapshot; a name that names nothing there is left to the
// compiler's system headers, which the private folder cannot reach either. Refused, each naming the
// file and line: a computed `#include MACRO` (its file cannot be known before the compile), an
// absolute include path or one that climbs out of the system folders (`<../x>`), `#embed` and
// `.incbin` (they read files behind the snapshot's back), a link, a FIFO, a device, a folder.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace convlab {

struct SnapshotFile {
  std::string path;      // as messages name it (relative to the working folder when below it)
  std::string absolute;  // lexically normal absolute path: where it was read
  std::string text;
  std::string sha256;  // of the text
};

struct IncludedFile {
  SnapshotFile file;
  std::string relative;  // from the main source's folder, as records and the run block name it
};

struct SourceSnapshot {
  SnapshotFile main;
  std::vector<IncludedFile> includes;  // in the order they were first met
  // The version: sha256 of the main text when nothing is included (so a source without includes
  // keeps the identity it always had), else of the list of (relative path, sha256) of all files.
  std::string version;
};

inline constexpr std::size_t kMaxSnapshotFiles = 64;
inline constexpr std::size_t kMaxSnapshotFileBytes = 1 << 20;
inline constexpr std::size_t kMaxSnapshotBytes = 4 << 20;

// Reads the source at `path` and every user file it includes; throws FileError naming the file
// (and the line of the directive) for anything refused above, a file that is not UTF-8 text, or
// more than kMaxSnapshotFiles files or kMaxSnapshotBytes bytes together.
SourceSnapshot take_snapshot(const std::string& path);

// The `#include`-like directives of a text, comments removed: for the scanner and its tests.
struct IncludeDirective {
  int line = 0;
  std::string name;         // between the quotes or angle brackets
  bool quoted = false;      // "name" (else <name>)
  bool computed = false;    // #include MACRO
  bool reads_file = false;  // #embed or .incbin
};
std::vector<IncludeDirective> include_directives(const std::string& text);

}  // namespace convlab
