// A figure type's behaviour lives behind its descriptor (src/figures/figure_types.hpp): outside
// the type's own file (figures/figure_type_<name>.cpp) and the list of types
// (figures/figure_types.cpp), no code of src/, nor the notebook's script and style, compares a
// value with a type's name. The names are read from the descriptors, so a new type is checked as
// soon as it is listed.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "figures/figure_types.hpp"
#include "source_scan.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// Files that may name types: the descriptors themselves.
bool is_descriptor_file(const fs::path& relative) {
  const std::string file = relative.filename().string();
  return relative.parent_path() == "figures" &&
         (file == "figure_types.cpp" || file.rfind("figure_type_", 0) == 0);
}

// A name in quotes on either side of ==, !=, === or !==, after `case` or as the argument of
// compare(): `type == "heatmap"`, `'bars' !== kind`, `case 'line':`.
std::string comparison_of(const std::vector<std::string>& names) {
  std::string alternatives;
  for (const auto& name : names) alternatives += (alternatives.empty() ? "" : "|") + name;
  const std::string quoted = "[\"'](" + alternatives + ")[\"']";
  return "[=!]==?\\s*" + quoted + "|" + quoted + "\\s*[=!]==?|case\\s+" + quoted +
         "|compare\\(\\s*" + quoted;
}

// Every line of the C++ sources and the notebook's assets under `src` that compares a value with
// one of `names` outside the descriptors' files, as "file:line: text".
std::vector<std::string> type_name_comparisons(const fs::path& src,
                                               const std::vector<std::string>& names) {
  std::vector<std::string> found;
  for (const auto& line :
       testing::source_lines_matching(src, comparison_of(names), is_descriptor_file))
    found.push_back(line.where());
  return found;
}

TEST(FigureTypeNames, OnlyTheDescriptorsCompareATypeName) {
  const auto found = type_name_comparisons(CONVLAB_SOURCE_TREE "/src", figure_type_words());
  EXPECT_TRUE(found.empty()) << "move what depends on the type into its descriptor:\n"
                             << testing::joined(found);
}

// The check finds what it is there to find: comparisons in C++, in the notebook's script and in
// either order, and leaves alone the descriptors' files and a name that is compared with nothing.
TEST(FigureTypeNames, TheCheckFindsAComparisonOutsideTheDescriptors) {
  const fs::path src = testing::fresh_directory("type-names") / "src";
  for (const char* folder : {"figures", "html/assets"}) fs::create_directories(src / folder);
  testing::write_text(src / "html/page.cpp",
                      "if (type == \"heatmap\") r = 14;\nconst char* tag = \"line\";\n");
  testing::write_text(src / "html/assets/page.js",
                      "if (data.type === 'bars') x();\nswitch (t) { case 'stacked': y(); }\n");
  testing::write_text(src / "figures/plot.hpp", "bool f(S s) { return \"stacked_bars\" != s; }\n");
  testing::write_text(src / "figures/figure_type_heatmap.cpp", "if (name == \"heatmap\") {}\n");
  testing::write_text(src / "figures/figure_types.cpp", "if (name == \"line\") {}\n");
  const auto found = type_name_comparisons(src, figure_type_words());
  ASSERT_EQ(found.size(), 4u) << testing::joined(found);
  const std::string text = testing::joined(found);
  EXPECT_NE(text.find("html/page.cpp:1"), std::string::npos) << text;
  EXPECT_NE(text.find("html/assets/page.js:1"), std::string::npos) << text;
  EXPECT_NE(text.find("html/assets/page.js:2"), std::string::npos) << text;
  EXPECT_NE(text.find("figures/plot.hpp:1"), std::string::npos) << text;
  fs::remove_all(src.parent_path());
}

}  // namespace
}  // namespace convlab
