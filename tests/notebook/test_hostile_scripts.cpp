// No string from a results file, a config or a file name runs as a command: the fixture with a
// backtick command and a "\n!command" shell line in every string that reaches a figure's script
// (kernel, image and machine names, parameters, figure titles and labels, the figures folder's
// name) is drawn by `convlab notebook`, exported by `convlab export`, and the exported plots/*.gp
// run through gnuplot as `make report` runs them; none of the commands may run. The commands a page
// offers to copy are quoted for the shell. Each run is bounded in time and memory.
#include <gtest/gtest.h>

#include <regex>

#include "notebook_test_support.hpp"

namespace convlab::notebook_test {
namespace {

// A file named ran-<n> in the scratch folder appears only when command <n> ran.
class HostileScripts : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
    scratch_ = std::make_unique<Scratch>("hostile-scripts");
    add_fixture(root(), "scripts");
    // The fixture's discussion quotes values of points whose names change here.
    write_file(root() / "experiments/scripts.md", "A discussion without values.\n");
  }

  const fs::path& root() const { return scratch_->path(); }

  // `text` followed by a backtick command, then a shell line after a newline: gnuplot ran one
  // when ran-<n>a or ran-<n>b exists (in the folder gnuplot runs in, under the scratch folder).
  // Without a space in the backtick command, so that no title or tic is broken inside it.
  std::string poisoned(const std::string& text) {
    const std::string mark = "ran-" + std::to_string(++commands_);
    return text + "`touch${IFS}" + mark + "a`\n!touch " + mark + "b\n#'\"";
  }

  std::vector<std::string> commands_that_ran() const {
    std::vector<std::string> ran;
    for (const auto& entry : fs::recursive_directory_iterator(root()))
      if (entry.path().filename().string().rfind("ran-", 0) == 0)
        ran.push_back(entry.path().filename().string());
    return ran;
  }

  // Every string of the results that a figure shows, poisoned; the config's figures too.
  void poison() {
    const fs::path results_path = root() / "outputs/scripts/results.json";
    auto results = nlohmann::json::parse(read_file(results_path));
    for (auto& record : results["records"]) {
      record["kernel"]["name"] = poisoned(record["kernel"]["name"].get<std::string>());
      record["image"]["name"] = poisoned(record["image"]["name"].get<std::string>());
      if (record["implementation"] == "openmp") record["params"]["schedule"] = poisoned("static");
    }
    for (auto* run : {&results["run"], &results["runs"].back()}) {
      (*run)["host"]["hostname"] = poisoned("host");
      (*run)["host"]["cpu_model"] = poisoned("CPU");
    }
    // The figures the run recorded, which export draws without --config.
    results["run"]["config"]["resolved"]["figures"] =
        nlohmann::json::array({{{"name", "recorded"},
                                {"type", "line"},
                                {"x", "image.name"},
                                {"y", "median_ms"},
                                {"series", "kernel.name"},
                                {"title", poisoned("Recorded")},
                                {"x_label", poisoned("RX")},
                                {"y_label", poisoned("RY")}}});
    write_file(results_path, results.dump(1));
    std::string config = read_file(root() / "configs/scripts.yaml");
    const std::string figure =
        "  - name: hostile\n"
        "    type: bars\n"
        "    x: kernel.name\n"
        "    y: median_ms\n"
        "    series: image.name\n"
        "    panel: machine\n"
        "    title: " +
        yaml_string(poisoned("Title")) + "\n    x_label: " + yaml_string(poisoned("X")) +
        "\n    y_label: " + yaml_string(poisoned("Y")) + "\n";
    const std::size_t figures = config.find("figures:\n");
    ASSERT_NE(figures, std::string::npos);
    config.insert(figures + 9, figure);
    write_file(root() / "configs/scripts.yaml", config);
  }

  // A YAML double-quoted scalar of `text`.
  static std::string yaml_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '\n')
        out += "\\n";
      else if (c == '"' || c == '\\')
        out += std::string("\\") + c;
      else
        out += c;
    }
    return out + "\"";
  }

  CommandRun bounded(const std::string& command, const fs::path& folder = {}) const {
    return run_in(folder.empty() ? root() : folder, "ulimit -v 4194304; timeout 120 " + command);
  }

  std::unique_ptr<Scratch> scratch_;
  int commands_ = 0;
};

TEST_F(HostileScripts, GnuplotRunsNoCommandFromAResultsFileAConfigOrAFileName) {
  poison();
  const CommandRun notebook =
      bounded(std::string("'") + CONVLAB_EXECUTABLE + "' notebook --out notebook");
  EXPECT_EQ(commands_that_ran(), std::vector<std::string>{});
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  // Every figure was drawn: the hostile strings are in the pictures, as text.
  const std::string svg = read_file(root() / "notebook/figures/scripts/hostile.svg");
  EXPECT_NE(svg.find("touch"), std::string::npos) << "the hostile figure was not drawn";
  EXPECT_EQ(commands_that_ran(), std::vector<std::string>{});

  // Run, the command would create ran-folder in the plots folder, where gnuplot runs.
  const std::string figures = "figures'`touch ran-folder`";
  fs::create_directories(root() / figures);
  write_file(root() / "figures.txt", figures);
  // The figures of the config on disk, then those the results file recorded.
  for (const std::string& config : {std::string(" --config configs/scripts.yaml"), std::string()}) {
    fs::remove_all(root() / "exported");
    const CommandRun exported = bounded(
        std::string("'") + CONVLAB_EXECUTABLE +
        "' export outputs/scripts --out exported --figures \"$(cat figures.txt)\"" + config);
    ASSERT_EQ(exported.exit_code, 0) << exported.output;
    const std::string poisoned_figure = config.empty() ? "recorded" : "hostile";
    ASSERT_TRUE(fs::exists(root() / "exported/plots" / (poisoned_figure + ".gp"))) << config;
    for (const auto& script : files_with(root() / "exported/plots", {".gp"})) {
      // As `make report` runs it: gnuplot in the plots folder.
      const CommandRun drawn =
          bounded("gnuplot '" + script.filename().string() + "'", root() / "exported/plots");
      EXPECT_EQ(drawn.exit_code, 0) << script << "\n" << drawn.output;
    }
    EXPECT_TRUE(fs::exists(root() / figures / (poisoned_figure + ".pdf")));
  }
  EXPECT_EQ(commands_that_ran(), std::vector<std::string>{});
}

// "Run it again" and "Bring it up to date" hold a command built from run.config.path of the
// results file: pasted into a shell, it must run make with that path as one word, and nothing else.
TEST_F(HostileScripts, TheCommandsToCopyAreQuotedForTheShellAndForMake) {
  // Pasted and run in the scratch folder, these would create ran-1, ran-2 or ran-3 there.
  const std::string config =
      "configs/c $(touch ran-1) `touch ran-2` it's $(shell touch ran-3).yaml";
  fs::copy_file(root() / "configs/scripts.yaml", root() / config);
  const fs::path results_path = root() / "outputs/scripts/results.json";
  auto results = nlohmann::json::parse(read_file(results_path));
  results["run"]["config"]["path"] = config;
  results["runs"].back()["config"]["path"] = config;
  write_file(results_path, results.dump(1));
  const CommandRun notebook =
      bounded(std::string("'") + CONVLAB_EXECUTABLE + "' notebook --out notebook");
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  const std::string page = read_file(root() / "notebook/scripts.html");
  for (const char* id : {"rerun-command", "update-command"}) {
    std::smatch code;
    ASSERT_TRUE(std::regex_search(
        page, code, std::regex(std::string("<code id=\"") + id + "\">([^<]*)</code>")))
        << id;
    std::string command = code[1];
    for (const auto& [entity, character] : std::vector<std::pair<std::string, std::string>>{
             {"&#39;", "'"}, {"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}})
      command = std::regex_replace(command, std::regex(entity), character);
    write_file(root() / "pasted.sh",
               "make() { for a in \"$@\"; do printf '<%s>\\n' \"$a\"; done; }\n" + command + "\n");
    const CommandRun pasted = bounded("sh pasted.sh");
    EXPECT_EQ(pasted.output, "<experiment>\n<CONFIG=" + config + ">\n") << command;
  }
  // Make itself takes the value as written: the recipe quotes it, and make expands nothing in it.
  write_file(root() / "config.txt", config);
  const CommandRun made =
      bounded("make -n -f '" + std::string(CONVLAB_SOURCE_TREE) +
              "/Makefile' experiment BUILD_DIR=build CONFIG=\"$(cat config.txt)\"");
  EXPECT_NE(made.output.find("run '" + std::regex_replace(config, std::regex("'"), "'\\''") + "'"),
            std::string::npos)
      << made.output;
  EXPECT_EQ(commands_that_ran(), std::vector<std::string>{});
}

}  // namespace
}  // namespace convlab::notebook_test
