#include "source_scan.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.hpp"

namespace convlab::testing {

std::string SourceLine::where() const {
  return file + ":" + std::to_string(number) + ": " + text;
}

namespace {

// A line without its // comment (outside strings): what a check of code reads.
std::string code_of(const std::string& line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      return line.substr(0, i);
    }
  }
  return line;
}

}  // namespace

std::vector<SourceLine> source_lines_matching(
    const std::filesystem::path& src, const std::string& pattern,
    const std::function<bool(const std::filesystem::path&)>& allowed) {
  static const std::set<std::string> kScanned = {".cpp", ".hpp", ".cu", ".cuh", ".js", ".css"};
  const std::regex expression(pattern);
  std::vector<SourceLine> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file() || !kScanned.count(entry.path().extension().string())) continue;
    const std::filesystem::path relative = std::filesystem::relative(entry.path(), src);
    if (allowed(relative)) continue;
    std::istringstream text(read_text(entry.path()));
    std::string line;
    std::smatch match;
    for (int number = 1; std::getline(text, line); ++number) {
      const std::string code = code_of(line);
      if (!std::regex_search(code, match, expression)) continue;
      std::string matched;
      for (size_t group = 1; group < match.size() && matched.empty(); ++group)
        matched = match[group].str();
      found.push_back({relative.generic_string(), number, line, matched});
    }
  }
  // In the order of the files' paths, whatever order the directory lists them in.
  std::stable_sort(found.begin(), found.end(),
                   [](const SourceLine& a, const SourceLine& b) { return a.file < b.file; });
  return found;
}

}  // namespace convlab::testing
