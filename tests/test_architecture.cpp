// The folders of src/ form a one-way chain (docs/architecture.md): a file includes headers of its
// own folder and of folders below it, never of one beside or above it. The chain is read from the
// page itself, so the page and the code cannot drift apart; there are no allowed exceptions.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;

// Folder -> level, from the ```chain block: one level per line, bottom first.
std::map<std::string, int> read_chain(const std::string& page) {
  std::map<std::string, int> level;
  const size_t start = page.find("```chain\n");
  if (start == std::string::npos) return level;
  const size_t end = page.find("```", start + 9);
  std::istringstream lines(page.substr(start + 9, end - start - 9));
  std::string line;
  for (int at = 0; std::getline(lines, line); ++at) {
    std::istringstream words(line);
    for (std::string folder; words >> folder;) level[folder] = at;
  }
  return level;
}

// Every include of `src` that runs against `chain`, and every folder the chain does not place, as
// "file: #include "x/y.hpp" (a can only include folders below it)".
std::vector<std::string> chain_violations(const fs::path& src,
                                          const std::map<std::string, int>& chain) {
  std::vector<std::string> violations;
  for (const auto& entry : fs::directory_iterator(src))
    if (entry.is_directory() && !chain.count(entry.path().filename().string()))
      violations.push_back(entry.path().filename().string() + "/: not in the chain");
  const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    const std::string extension = entry.path().extension().string();
    if (extension != ".cpp" && extension != ".hpp" && extension != ".cu" && extension != ".cuh")
      continue;
    const fs::path relative = fs::relative(entry.path(), src);
    const std::string folder = relative.begin()->string();
    std::istringstream text(testing::read_text(entry.path()));
    std::string line;
    for (int number = 1; std::getline(text, line); ++number) {
      std::smatch match;
      if (!std::regex_search(line, match, include_line)) continue;
      const fs::path included(match[1].str());
      const std::string where =
          relative.generic_string() + ":" + std::to_string(number) + ": " + line;
      if (fs::exists(entry.path().parent_path() / included) && included.has_parent_path() == false)
        continue;  // a header beside the file
      const std::string target = included.begin()->string();
      const auto to = chain.find(target);
      if (to == chain.end()) {
        violations.push_back(where + " (not a folder of src/)");
        continue;
      }
      const auto from = chain.find(folder);
      if (target == folder || from == chain.end()) continue;  // unplaced folders are reported above
      if (to->second >= from->second)
        violations.push_back(where + " (" + folder + " may include only folders below it)");
    }
  }
  return violations;
}

TEST(Architecture, IncludesFollowTheChain) {
  const auto chain = read_chain(testing::read_text(CONVLAB_SOURCE_TREE "/docs/architecture.md"));
  ASSERT_GE(chain.size(), 10u) << "docs/architecture.md has no ```chain block";
  const auto violations = chain_violations(CONVLAB_SOURCE_TREE "/src", chain);
  EXPECT_TRUE(violations.empty()) << testing::joined(violations);
}

// The check finds what it is there to find: an include upwards, one between siblings, one into a
// folder that does not exist and a folder the chain does not place.
TEST(Architecture, TheCheckFindsIncludesAgainstTheChain) {
  const fs::path src = testing::fresh_directory("chain") / "src";
  for (const char* folder : {"core", "plan", "run", "report", "extra"})
    fs::create_directories(src / folder);
  testing::write_text(src / "core/a.hpp", "#include \"core/b.hpp\"\n#include <vector>\n");
  testing::write_text(src / "core/b.hpp", "#include \"c.hpp\"\n");
  testing::write_text(src / "core/c.hpp", "\n");
  testing::write_text(src / "plan/p.cpp", "#include \"core/a.hpp\"\n  #  include \"run/r.hpp\"\n");
  testing::write_text(src / "run/r.hpp", "#include \"report/x.hpp\"\n#include \"plan/p.hpp\"\n");
  testing::write_text(src / "report/x.cu", "#include \"nowhere/y.hpp\"\n");
  const auto violations =
      chain_violations(src, read_chain("```chain\ncore\nplan\nrun report\n```\n"));
  ASSERT_EQ(violations.size(), 4u) << testing::joined(violations);
  const std::string text = testing::joined(violations);
  EXPECT_NE(text.find("extra/: not in the chain"), std::string::npos) << text;
  EXPECT_NE(text.find("plan/p.cpp:2"), std::string::npos) << text;
  EXPECT_NE(text.find("run/r.hpp:1"), std::string::npos) << text;
  EXPECT_NE(text.find("report/x.cu:1"), std::string::npos) << text;
  fs::remove_all(src.parent_path());
}

// The chain of docs/architecture.md holds for each file of a folder: a file of run/ that includes a
// header of query/, tables/ or figures/ (which read and print results) is found, by file and line,
// among files of run/ that include only store/, gallery/ and below.
TEST(Architecture, TheCheckFindsAFileOfRunThatIncludesWhatReadsResults) {
  const auto chain = read_chain(testing::read_text(CONVLAB_SOURCE_TREE "/docs/architecture.md"));
  const fs::path src = testing::fresh_directory("run_chain") / "src";
  for (const auto& [folder, level] : chain) fs::create_directories(src / folder);
  testing::write_text(src / "run/measures.cpp",
                      "#include \"store/record.hpp\"\n#include \"gallery/gallery.hpp\"\n");
  testing::write_text(src / "run/prints.cpp",
                      "#include \"run/measures.hpp\"\n#include \"tables/summary_table.hpp\"\n");
  testing::write_text(src / "run/reads.hpp",
                      "#include \"query/winners.hpp\"\n#include \"figures/figure_data.hpp\"\n");
  const auto violations = chain_violations(src, chain);
  ASSERT_EQ(violations.size(), 3u) << testing::joined(violations);
  const std::string text = testing::joined(violations);
  EXPECT_NE(text.find("run/prints.cpp:2"), std::string::npos) << text;
  EXPECT_NE(text.find("run/reads.hpp:1"), std::string::npos) << text;
  EXPECT_NE(text.find("run/reads.hpp:2"), std::string::npos) << text;
  fs::remove_all(src.parent_path());
}

// The folders whose sources make up the library convlab_engine: those of the
// `file(GLOB CONVLAB_ENGINE_SOURCES ...)` block of cmake/convlab_sources.cmake.
std::set<std::string> engine_folders(const std::string& cmake) {
  std::set<std::string> folders;
  const size_t start = cmake.find("file(GLOB CONVLAB_ENGINE_SOURCES");
  if (start == std::string::npos) return folders;
  const std::string block = cmake.substr(start, cmake.find(')', start) - start);
  const std::regex folder(R"re(/src/([A-Za-z0-9_]+)/)re");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), folder);
       it != std::sregex_iterator(); ++it)
    folders.insert((*it)[1].str());
  return folders;
}

// Every include in the files of `folders` under `src` of a folder of src/ outside `allowed`, as
// "file: #include "x/y.hpp" (x is not in its library or below it)".
std::vector<std::string> includes_outside(const fs::path& src, const std::set<std::string>& folders,
                                          const std::set<std::string>& allowed) {
  std::vector<std::string> violations;
  const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& folder : folders) {
    if (!fs::is_directory(src / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(src / folder)) {
      if (!entry.is_regular_file()) continue;
      std::istringstream text(testing::read_text(entry.path()));
      std::string line;
      for (int number = 1; std::getline(text, line); ++number) {
        std::smatch match;
        if (!std::regex_search(line, match, include_line)) continue;
        const fs::path included(match[1].str());
        if (!included.has_parent_path()) continue;  // a header beside the file
        const std::string target = included.begin()->string();
        if (!fs::is_directory(src / target) || allowed.count(target)) continue;
        violations.push_back(fs::relative(entry.path(), src).generic_string() + ":" +
                             std::to_string(number) + ": " + line + " (" + target +
                             " is not in its library or below it)");
      }
    }
  }
  return violations;
}

// The libraries form a one-way graph (docs/architecture.md, "Libraries"): convlab_engine holds
// neither app/ nor serve/ and includes neither; convlab_serve includes the engine and itself, never
// app/. So the engine links nothing above it and no two libraries link each other.
TEST(Architecture, TheEngineIncludesNoFolderAboveIt) {
  const auto engine =
      engine_folders(testing::read_text(CONVLAB_SOURCE_TREE "/cmake/convlab_sources.cmake"));
  ASSERT_GE(engine.size(), 10u) << "cmake/convlab_sources.cmake globs no CONVLAB_ENGINE_SOURCES";
  EXPECT_EQ(engine.count("app"), 0u);
  EXPECT_EQ(engine.count("serve"), 0u);
  const fs::path src = CONVLAB_SOURCE_TREE "/src";
  EXPECT_TRUE(includes_outside(src, engine, engine).empty())
      << testing::joined(includes_outside(src, engine, engine));
  std::set<std::string> serve = engine;
  serve.insert("serve");
  EXPECT_TRUE(includes_outside(src, {"serve"}, serve).empty())
      << testing::joined(includes_outside(src, {"serve"}, serve));
}

// The check finds an engine file that includes app/ or serve/, and passes those that do not.
TEST(Architecture, TheLibraryCheckFindsAnIncludeAboveTheEngine) {
  const fs::path src = testing::fresh_directory("libraries") / "src";
  for (const char* folder : {"core", "run", "app", "serve"}) fs::create_directories(src / folder);
  testing::write_text(src / "core/a.hpp", "#include \"b.hpp\"\n#include <vector>\n");
  testing::write_text(src / "run/r.cpp", "#include \"core/a.hpp\"\n#include \"app/c.hpp\"\n");
  testing::write_text(src / "run/s.hpp", "  #  include \"serve/n.hpp\"\n");
  testing::write_text(src / "app/c.hpp", "#include \"run/s.hpp\"\n#include \"serve/n.hpp\"\n");
  const auto engine = engine_folders(
      "file(GLOB CONVLAB_ENGINE_SOURCES CONFIGURE_DEPENDS\n  ${P}/src/core/*.cpp\n"
      "  ${P}/src/run/*.cpp)\nfile(GLOB OTHER ${P}/src/app/*.cpp)\n");
  ASSERT_EQ(engine, (std::set<std::string>{"core", "run"}));
  const auto violations = includes_outside(src, engine, engine);
  ASSERT_EQ(violations.size(), 2u) << testing::joined(violations);
  const std::string text = testing::joined(violations);
  EXPECT_NE(text.find("run/r.cpp:2"), std::string::npos) << text;
  EXPECT_NE(text.find("run/s.hpp:1"), std::string::npos) << text;
  fs::remove_all(src.parent_path());
}

// The parts of a run (docs/architecture.md, "One execution path") are each a file of run/ that
// includes none of the others: the schedule, the point executor, the recorder and the observers
// meet only in run/local_run.cpp. The table on the page names their files; each must exist.
TEST(Architecture, TheFourPartsOfARunIncludeNoneOfTheOthers) {
  const std::string page = testing::read_text(CONVLAB_SOURCE_TREE "/docs/architecture.md");
  const std::map<std::string, std::string> parts{{"schedule", "run/schedule"},
                                                 {"point executor", "run/point_executor"},
                                                 {"recorder", "run/recorder"},
                                                 {"observers", "run/observers"}};
  const fs::path src = CONVLAB_SOURCE_TREE "/src";
  for (const auto& [part, stem] : parts) {
    EXPECT_NE(page.find("| " + part + " | `" + stem + ".hpp` |"), std::string::npos)
        << "docs/architecture.md does not place the " << part;
    for (const char* extension : {".hpp", ".cpp"}) {
      const fs::path file = src / (stem + extension);
      ASSERT_TRUE(fs::exists(file)) << file;
      const std::string text = testing::read_text(file);
      for (const auto& [other, other_stem] : parts) {
        if (other == part) continue;
        EXPECT_EQ(text.find("#include \"" + other_stem + ".hpp\""), std::string::npos)
            << stem << extension << " includes the " << other;
      }
    }
  }
}

}  // namespace
}  // namespace convlab
