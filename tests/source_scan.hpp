// Reading the source tree for what the checks of its rules look for (FigureTypeNames,
// DescriptorNames): lines of code that a pattern finds, outside the files a rule allows.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace convlab::testing {

// A line of a source tree that a check found: its file (relative to the tree), number and text,
// and what the first group of the pattern that took part in the match matched.
struct SourceLine {
  std::string file;
  int number = 0;
  std::string text;
  std::string matched;
  std::string where() const;  // "file:number: text"
};
// Every line of the C++ sources and the notebook's script and style under `src` whose code (the
// line without its // comment) the regular expression `pattern` finds, outside the files `allowed`
// accepts (by their path under `src`), in the order of their paths.
std::vector<SourceLine> source_lines_matching(
    const std::filesystem::path& src, const std::string& pattern,
    const std::function<bool(const std::filesystem::path&)>& allowed);

}  // namespace convlab::testing
