// Shared helpers of the notebook tests: a scratch project holding the fixture experiment (its
// results, its config as written and its discussion), a hostile variant of it, building the
// notebook with the convlab executable, reading files and checking them with xmllint.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "leftover_guard.hpp"

namespace convlab::notebook_test {

namespace fs = std::filesystem;

inline fs::path fixtures() {
  return CONVLAB_REPORT_FIXTURES;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A fresh directory under the system temporary directory, removed by the destructor.
// A killed test leaves it behind no longer (leftover_guard.hpp), nor the processes handed to
// stop_at_end.
class Scratch {
 public:
  explicit Scratch(const std::string& purpose) : path_(fresh_path(purpose)), guard_(path_) {
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  // A process the test started that works in this folder: stopped with it however the test ends.
  void stop_at_end(pid_t pid) { guard_.stop_at_end(pid); }

 private:
  static fs::path fresh_path(const std::string& purpose) {
    std::random_device random;
    return fs::temp_directory_path() / ("convlab-" + purpose + "-" + std::to_string(random()));
  }

  fs::path path_;
  LeftoverGuard guard_;
};

struct CommandRun {
  int exit_code = -1;
  std::string output;
};

// Runs a shell command line in `directory`; stdout and stderr together.
inline CommandRun run_in(const fs::path& directory, const std::string& command) {
  const fs::path log = directory / ".command.log";
  const std::string line =
      "cd '" + directory.string() + "' && " + command + " > '" + log.string() + "' 2>&1";
  const int status = std::system(line.c_str());
  CommandRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.output = read_file(log);
  fs::remove(log);
  return run;
}

inline CommandRun convlab(const fs::path& directory, const std::string& arguments) {
  return run_in(directory, std::string("'") + CONVLAB_EXECUTABLE + "' " + arguments);
}

// The fixture experiment laid out as a project: outputs/<name>/results.json (and its pictures),
// configs/<name>.yaml and experiments/<name>.md.
inline void add_fixture(const fs::path& root, const std::string& name = "fixture-demo") {
  fs::create_directories(root / "outputs");
  fs::copy(fixtures() / "fixture-demo", root / "outputs" / name, fs::copy_options::recursive);
  std::string config = read_file(fixtures() / "configs" / "fixture-demo.yaml");
  std::string discussion = read_file(fixtures() / "experiments" / "fixture-demo.md");
  if (name != "fixture-demo") {
    auto results = nlohmann::json::parse(read_file(root / "outputs" / name / "results.json"));
    results["experiment"]["name"] = name;
    results["run"]["config"]["path"] = "configs/" + name + ".yaml";
    write_file(root / "outputs" / name / "results.json", results.dump(1));
    config = std::regex_replace(config, std::regex("name: fixture-demo"), "name: " + name);
  }
  write_file(root / "configs" / (name + ".yaml"), config);
  write_file(root / "experiments" / (name + ".md"), discussion);
}

// Text an attacker would put wherever a string goes: markup, attribute breakers, both quotes, a
// style sheet's end and template braces.
inline const std::string& hostile_text() {
  static const std::string text =
      "<script>alert(1)</script> \"><img src=x onerror=alert(2)> </style> 'single' "
      "\"double\" {{ constructor }} & &amp;";
  return text;
}

// The fixture with hostile strings in the title, the description, kernel and image names, image
// paths, params, a kernel source and the discussion, and gallery pictures named outside its
// folder; the config on disk carries the strings too.
inline void add_hostile_fixture(const fs::path& root, const std::string& name = "hostile") {
  add_fixture(root, name);
  const fs::path results_path = root / "outputs" / name / "results.json";
  auto results = nlohmann::json::parse(read_file(results_path));
  const std::string& evil = hostile_text();
  results["experiment"]["title"] = "Title " + evil;
  results["experiment"]["description"] = "Description " + evil;
  auto& resolved = results["run"]["config"]["resolved"];
  resolved["title"] = "Title " + evil;
  resolved["description"] = "Description " + evil;
  for (auto& record : results["records"]) {
    record["image"]["name"] = record["image"]["name"].get<std::string>() + evil;
    record["image"]["source"] = "/tmp/" + evil + ".png";
    record["kernel"]["name"] = record["kernel"]["name"].get<std::string>() + evil;
    if (record["implementation"] == "openmp") record["params"]["schedule"] = "static" + evil;
  }
  // A user's kernel source, its path and hash hostile too: the notebook shows the copy in the
  // results file.
  results["run"]["config"]["sources"] = {
      {{"path", "kernels/" + evil + ".cu"},
       {"sha256", evil},
       {"text", "// " + evil + "\n#define X \"" + evil + "\" /* " + evil +
                    " */\n__global__ void k() {}\n"}}};
  // Pictures named outside the results folder are not shown, whatever they are.
  results["gallery"][0]["display"] = "/etc/passwd";
  results["gallery"][0]["input"] = "../../../../../../etc/hostname";
  write_file(results_path, results.dump(1));
  std::string config = read_file(root / "configs" / (name + ".yaml"));
  config = std::regex_replace(config, std::regex("title: .*"),
                              "title: 'Title <script>alert(1)</script> \"><img src=x "
                              "onerror=alert(2)> </style> ''single'' \"double\" {{ x }}'");
  config += "# " + evil + "\n";
  write_file(root / "configs" / (name + ".yaml"), config);
  write_file(root / "experiments" / (name + ".md"),
             "Hostile prose: <script>alert(3)</script> <img src=x onerror=alert(4)>\n"
             "[a link](javascript:alert(5)) and `</style>` and \\{{ braces }}.\n\n"
             "<style>body { display: none }</style>\n\n"
             "The baseline takes {{median_ms[implementation=sequential,image.width=1024,"
             "kernel.size=7]}} ms.\n");
}

inline bool have_program(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

// Every file under `directory` with one of `extensions`, sorted.
inline std::vector<fs::path> files_with(const fs::path& directory,
                                        const std::set<std::string>& extensions) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::recursive_directory_iterator(directory))
    if (entry.is_regular_file() && extensions.count(entry.path().extension().string()))
      found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace convlab::notebook_test
