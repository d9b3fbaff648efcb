// What depends on one implementation or one filter type lives in its descriptor: the
// implementation's file, row or registration under src/impl/ (its words, colour and point type,
// its estimate, whether it is the default baseline), the filter type's file under src/filters/
// (how the gallery shows it, whether a name or a matrix tells its kernels apart). Outside those,
// no code of src/, nor the notebook's script and style, names a registered implementation in a
// string, nor compares a filter's type with a type's name; the few words that are also the name of
// a library or a word of a user's kernel's name are listed below with their reason. The names are
// read from the registries, so a new rung, peer or filter is checked as soon as it has its row.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "filters/filter_descriptor.hpp"
#include "impl/registry.hpp"
#include "source_scan.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// A name a file of src/ may hold outside the descriptors, and why.
struct AllowedName {
  const char* file;
  const char* name;
  const char* reason;
};

const AllowedName kAllowedImplementationNames[] = {
    {"measure/provenance.cpp", "openmp", "the host's OpenMP runtime (run.host.openmp), a library"},
    {"measure/provenance.cpp", "npp", "whether the NPP library was built in (run.build.npp_built)"},
    {"query/record_fields.cpp", "openmp", "a word of a user's kernel's name, spelled for readers"},
    {"query/record_fields.cpp", "npp", "a word of a user's kernel's name, spelled for readers"},
    {"query/record_fields.cpp", "sequential", "how a user's kernel's name's \"seq\" is spelled"},
};

const AllowedName kAllowedFilterComparisons[] = {
    {"impl/opencv/opencv_implementations.cpp", "gaussian",
     "OpenCV's GaussianBlur makes Gaussian kernels only: the peer's own need, in its descriptor"},
};

bool under(const fs::path& relative, const std::string& folder) {
  return *relative.begin() == folder;
}

std::string alternatives(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : "|") + name;
  return text;
}

// A name in quotes, as a C++ string or a script's.
std::string quoted_name(const std::vector<std::string>& names) {
  return "[\"'](" + alternatives(names) + ")[\"']";
}

// A type (a word ending in `type`: `filter.type`, `request.type`) compared with a quoted name, in
// either order.
std::string type_comparison(const std::vector<std::string>& names) {
  const std::string quoted = quoted_name(names);
  return "type\\s*[=!]=\\s*" + quoted + "|" + quoted + "\\s*[=!]=\\s*[\\w.>-]*type\\b";
}

// The lines `pattern` finds under `src` outside `folder` that no allowed entry covers, as
// "file:line: text"; `unused` receives the allowed entries that covered nothing.
template <size_t N>
std::vector<std::string> names_outside(const fs::path& src, const std::string& folder,
                                       const std::string& pattern, const AllowedName (&allowed)[N],
                                       std::vector<std::string>* unused = nullptr) {
  std::set<size_t> used;
  std::vector<std::string> found;
  const auto in_folder = [&folder](const fs::path& relative) { return under(relative, folder); };
  for (const auto& line : testing::source_lines_matching(src, pattern, in_folder)) {
    const auto entry = std::find_if(std::begin(allowed), std::end(allowed), [&](const auto& a) {
      return line.file == a.file && line.matched == a.name;
    });
    if (entry == std::end(allowed))
      found.push_back(line.where());
    else
      used.insert(static_cast<size_t>(entry - std::begin(allowed)));
  }
  for (size_t i = 0; unused && i < N; ++i)
    if (!used.count(i)) unused->push_back(std::string(allowed[i].file) + ": " + allowed[i].name);
  return found;
}

std::vector<std::string> implementation_names() {
  std::vector<std::string> names;
  for (const auto& implementation : implementation_registry()) names.push_back(implementation.name);
  return names;
}

std::vector<std::string> filter_type_names() {
  std::vector<std::string> names;
  for (const auto& descriptor : filter_types()) names.push_back(descriptor.type);
  return names;
}

// The check of the source tree: nothing found outside `folder`, and no allowed entry left over.
template <size_t N>
void expect_only_the_descriptors(const std::string& folder, const std::string& pattern,
                                 const AllowedName (&allowed)[N], const std::string& what) {
  std::vector<std::string> unused;
  const auto found = names_outside(CONVLAB_SOURCE_TREE "/src", folder, pattern, allowed, &unused);
  EXPECT_TRUE(found.empty()) << "move what depends on the " << what << " into its descriptor (src/"
                             << folder << "/):\n"
                             << testing::joined(found);
  EXPECT_TRUE(unused.empty()) << "allowed entries no file needs any more:\n"
                              << testing::joined(unused);
}

TEST(DescriptorNames, OnlyTheDescriptorsNameAnImplementation) {
  expect_only_the_descriptors("impl", quoted_name(implementation_names()),
                              kAllowedImplementationNames, "implementation");
}

TEST(DescriptorNames, OnlyTheDescriptorsCompareAFilterType) {
  expect_only_the_descriptors("filters", type_comparison(filter_type_names()),
                              kAllowedFilterComparisons, "filter type");
}

// The checks find what they are there to find, in C++ and in the notebook's script, and leave
// alone the descriptors' folders, an allowed name in its file, a longer name that starts with a
// registered one and a filter type's name that is compared with something other than a type.
TEST(DescriptorNames, TheChecksFindANameOutsideTheDescriptors) {
  const fs::path src = testing::fresh_directory("descriptor-names") / "src";
  for (const char* folder : {"impl", "filters", "figures", "query", "html/assets"})
    fs::create_directories(src / folder);
  testing::write_text(src / "figures/style.cpp",
                      "{\"cuda_shared\", {\"#D55E00\", 7}},\nconst char* s = \"cuda_shared2\";\n"
                      "std::string baseline;  // in words: \"sequential\"\n");
  testing::write_text(src / "html/assets/page.js", "if (name === 'sequential') x();\n");
  testing::write_text(src / "query/record_fields.cpp", "{\"npp\", \"NPP\"},\n");
  testing::write_text(src / "impl/rows.hpp", "ROW(global, \"cuda_global\")\n");
  testing::write_text(src / "query/gallery.cpp",
                      "if (filter.type == \"sobel_x\") a();\nif (\"custom\" != request.type) b();\n"
                      "if (f == \"log\") c();\n");
  testing::write_text(src / "filters/sobel.cpp", "if (d.type == \"sobel_y\") {}\n");
  const auto implementations =
      names_outside(src, "impl", quoted_name(implementation_names()), kAllowedImplementationNames);
  EXPECT_EQ(testing::joined(implementations),
            "figures/style.cpp:1: {\"cuda_shared\", {\"#D55E00\", 7}},\n"
            "html/assets/page.js:1: if (name === 'sequential') x();\n");
  const auto filters = names_outside(src, "filters", type_comparison(filter_type_names()),
                                     kAllowedFilterComparisons);
  EXPECT_EQ(testing::joined(filters),
            "query/gallery.cpp:1: if (filter.type == \"sobel_x\") a();\n"
            "query/gallery.cpp:2: if (\"custom\" != request.type) b();\n");
  fs::remove_all(src.parent_path());
}

// Every implementation of the registry says how readers see it, and no two look alike in a figure.
TEST(DescriptorNames, EveryImplementationHasItsOwnAppearance) {
  const std::regex colour("#[0-9A-F]{6}");
  std::set<std::pair<std::string, int>> looks;
  std::set<std::string> words;
  for (const auto& implementation : implementation_registry()) {
    ASSERT_TRUE(implementation.appearance.has_value()) << implementation.name;
    const Appearance& appearance = *implementation.appearance;
    EXPECT_FALSE(appearance.words.empty()) << implementation.name;
    EXPECT_TRUE(std::regex_match(appearance.colour, colour)) << implementation.name;
    EXPECT_TRUE(looks.insert({appearance.colour, appearance.point_type}).second)
        << implementation.name << " is drawn as another implementation is";
    EXPECT_TRUE(words.insert(appearance.words).second)
        << implementation.name << " is written as another implementation is";
  }
}

}  // namespace
}  // namespace convlab
