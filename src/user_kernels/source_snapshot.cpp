#include "user_kernels/source_snapshot.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "core/utf8_text.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// The line and column (from 1) of byte `at`, which is not a line break.
std::string line_and_column(const std::string& text, std::size_t at) {
  const std::size_t newline = text.rfind('\n', at);
  const std::size_t column = newline == std::string::npos ? at : at - newline - 1;
  const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
}

std::string working_folder() {
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? std::string(cwd) : std::string("/");
}

// The path as messages show it: relative to the working folder when it lies below it.
std::string shown_path(const std::string& absolute) {
  const std::string base = working_folder() + "/";
  return absolute.rfind(base, 0) == 0 ? absolute.substr(base.size()) : absolute;
}

std::string absolute_of(const std::string& path) {
  const fs::path given(path);
  return (given.is_absolute() ? given : fs::path(working_folder()) / given)
      .lexically_normal()
      .string();
}

// The text with comments replaced by spaces (line breaks kept, so lines keep their numbers) and
// backslash-newline continuations joined; string and character literals are kept as they are.
std::string without_comments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  enum class State { code, line_comment, block_comment, string, character } state = State::code;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\\' && next == '\n') {  // a continuation: the line goes on, its break is kept after
      out += ' ';
      ++i;
      continue;
    }
    switch (state) {
      case State::code:
        if (c == '/' && next == '/') {
          state = State::line_comment;
          out += ' ';
          ++i;
        } else if (c == '/' && next == '*') {
          state = State::block_comment;
          out += "  ";
          ++i;
        } else {
          if (c == '"') state = State::string;
          if (c == '\'') state = State::character;
          out += c;
        }
        break;
      case State::line_comment:
        if (c == '\n') {
          state = State::code;
          out += c;
        }
        break;
      case State::block_comment:
        if (c == '*' && next == '/') {
          state = State::code;
          out += "  ";
          ++i;
        } else {
          out += c == '\n' ? '\n' : ' ';
        }
        break;
      case State::string:
      case State::character:
        out += c;
        if (c == '\\' && next != '\0' && next != '\n') {
          out += next;
          ++i;
        } else if ((state == State::string && c == '"') ||
                   (state == State::character && c == '\'') || c == '\n') {
          state = State::code;
        }
        break;
    }
  }
  return out;
}

std::string trimmed_left(const std::string& text, std::size_t from = 0) {
  while (from < text.size() && (text[from] == ' ' || text[from] == '\t')) ++from;
  return text.substr(from);
}

bool starts_with_word(const std::string& text, const std::string& word) {
  if (text.rfind(word, 0) != 0) return false;
  return text.size() == word.size() ||
         !(std::isalnum(static_cast<unsigned char>(text[word.size()])) || text[word.size()] == '_');
}

// One directive line after its '#': include, include_next, import or embed, else nullopt.
std::optional<IncludeDirective> directive_of(const std::string& after_hash, int line) {
  const std::string rest = trimmed_left(after_hash);
  IncludeDirective directive;
  directive.line = line;
  std::string operand;
  if (starts_with_word(rest, "embed")) {
    directive.reads_file = true;
    operand = trimmed_left(rest, 5);
  } else {
    bool found = false;
    for (const char* word : {"include_next", "include", "import"})
      if (starts_with_word(rest, word)) {
        operand = trimmed_left(rest, std::string(word).size());
        found = true;
        break;
      }
    if (!found) return std::nullopt;
  }
  const char open = operand.empty() ? '\0' : operand[0];
  const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
  const std::size_t end = close ? operand.find(close, 1) : std::string::npos;
  if (end == std::string::npos) {
    directive.computed = true;
    directive.name = operand.substr(0, operand.find_first_of(" \t\r"));
    return directive;
  }
  directive.quoted = open == '"';
  directive.name = operand.substr(1, end - 1);
  return directive;
}

}  // namespace

std::vector<IncludeDirective> include_directives(const std::string& text) {
  const std::string code = without_comments(text);
  std::vector<IncludeDirective> found;
  int line = 1;
  for (std::size_t start = 0; start <= code.size();) {
    std::size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    const std::string content = trimmed_left(code.substr(start, end - start));
    if (!content.empty() && content[0] == '#') {
      if (auto directive = directive_of(content.substr(1), line)) found.push_back(*directive);
    } else if (content.find(".incbin") != std::string::npos) {
      IncludeDirective directive;
      directive.line = line;
      directive.reads_file = true;
      directive.name = ".incbin";
      found.push_back(directive);
    }
    ++line;
    start = end + 1;
  }
  return found;
}

namespace {

class SnapshotReader {
 public:
  SourceSnapshot read(const std::string& path) {
    snapshot_.main = read_one(absolute_of(path), "");
    main_folder_ = fs::path(snapshot_.main.absolute).parent_path();
    seen_.insert(snapshot_.main.absolute);
    follow(snapshot_.main);
    snapshot_.version = version();
    return std::move(snapshot_);
  }

 private:
  // Reads one file of the snapshot; `cited` says where it was included from, for messages.
  SnapshotFile read_one(const std::string& absolute, const std::string& cited) {
    SnapshotFile file;
    file.absolute = absolute;
    file.path = shown_path(absolute);
    struct stat info {};
    if (::lstat(absolute.c_str(), &info) == 0 && S_ISLNK(info.st_mode))
      throw FileError(file.path + cited +
                      ": is a symbolic link; a kernel's source and the files it includes are "
                      "read only as regular files, never through a link (its target is not read)");
    if (::lstat(absolute.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
      throw FileError(file.path + cited + ": is " + file_kind_words(info.st_mode) +
                      "; a kernel's source and the files it includes are read only as regular "
                      "files");
    file.text = read_file(absolute, kMaxSnapshotFileBytes, Links::refuse);
    total_bytes_ += file.text.size();
    if (total_bytes_ > kMaxSnapshotBytes)
      throw FileError(file.path + cited + ": the source and the files it includes hold more than " +
                      std::to_string(kMaxSnapshotBytes >> 20) + " MB together");
    // results.json keeps the texts (run.config.sources) and JSON holds UTF-8 only.
    if (const std::size_t bad = first_invalid_utf8(file.text); bad != std::string::npos) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(file.text[bad]));
      throw FileError(file.path + cited + ": not UTF-8 text (byte " + hex + " at " +
                      line_and_column(file.text, bad) +
                      "); the results keep the source's text, so save it as UTF-8");
    }
    file.sha256 = sha256_hex(file.text);
    return file;
  }

  void follow(const SnapshotFile& includer) {
    for (const IncludeDirective& directive : include_directives(includer.text)) {
      const std::string at = includer.path + ":" + std::to_string(directive.line);
      refuse_unreadable(directive, at);
      if (!directive.quoted) continue;  // a system header
      const std::string absolute =
          (fs::path(includer.absolute).parent_path() / directive.name).lexically_normal().string();
      struct stat info {};
      if (::lstat(absolute.c_str(), &info) != 0) continue;  // left to the system headers
      if (!seen_.insert(absolute).second) continue;
      if (snapshot_.includes.size() + 1 >= kMaxSnapshotFiles)
        throw FileError(at + ": a kernel's source includes more than " +
                        std::to_string(kMaxSnapshotFiles - 1) + " files of its own");
      IncludedFile included;
      included.file = read_one(absolute, " (included at " + at + ")");
      included.relative = fs::path(absolute).lexically_relative(main_folder_).string();
      snapshot_.includes.push_back(included);
      follow(snapshot_.includes.back().file);
    }
  }

  static void refuse_unreadable(const IncludeDirective& directive, const std::string& at) {
    if (directive.reads_file)
      throw FileError(at + ": " + (directive.name == ".incbin" ? ".incbin" : "#embed") +
                      " reads a file the snapshot of the kernel cannot hold; include its data "
                      "as source text");
    if (directive.computed)
      throw FileError(at + ": #include " + directive.name.substr(0, 64) +
                      " names its file through a macro; write the file's name in quotes, so "
                      "that convlab knows every file the kernel is compiled from");
    const fs::path name(directive.name);
    if (name.is_absolute()) {
      struct stat info {};
      const std::string kind = ::lstat(directive.name.c_str(), &info) == 0 && !S_ISREG(info.st_mode)
                                   ? ", " + file_kind_words(info.st_mode) + ","
                                   : "";
      throw FileError(at + ": #include of " + directive.name.substr(0, 256) + kind +
                      " by an absolute path; include the kernel's own files by paths relative "
                      "to its folder (only regular files are read)");
    }
    if (!directive.quoted)
      for (const auto& part : name)
        if (part == "..")
          throw FileError(at + ": #include <" + directive.name.substr(0, 256) +
                          "> climbs out of the system's include folders; include the kernel's "
                          "own files in quotes, relative to its folder");
  }

  std::string version() const {
    if (snapshot_.includes.empty()) return snapshot_.main.sha256;
    nlohmann::json files = nlohmann::json::array();
    files.push_back({fs::path(snapshot_.main.absolute).filename().string(), snapshot_.main.sha256});
    for (const IncludedFile& included : snapshot_.includes)
      files.push_back({included.relative, included.file.sha256});
    return sha256_hex(files.dump());
  }

  SourceSnapshot snapshot_;
  fs::path main_folder_;
  std::set<std::string> seen_;
  std::size_t total_bytes_ = 0;
};

}  // namespace

SourceSnapshot take_snapshot(const std::string& path) {
  return SnapshotReader().read(path);
}

}  // namespace convlab
