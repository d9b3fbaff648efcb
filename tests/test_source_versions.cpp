// Versions of a user's kernel never mix (docs/own-kernels.md, "Versions"): a kernel measured,
// edited and measured, then restored byte for byte keeps the records of both versions in
// results.json, and every reader computes with the current version's alone: show and its
// speedups, --compare params.threads, derived columns, the notebook and the report. The older
// version is listed on request, with a column telling the versions apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "notebook/freshness.hpp"
#include "query/other_versions.hpp"
#include "query/record_queries.hpp"
#include "store/derive.hpp"
#include "store/source_versions.hpp"
#include "test_support.hpp"

namespace convlab {
namespace {

using json = nlohmann::json;
using testing::read_text;
using testing::run_shell;
using testing::write_text;

// A C kernel doing the direct convolution `repeats` times (an edit that makes it slower, so that
// a number of one version cannot pass for the other's).
std::string kernel_text(int repeats) {
  return "#include <convlab/kernel.h>\nCONVLAB_CONTRACT(1);\n"
         "CONVLAB_CPU_ENTRY(const convlab_problem* p) {\n"
         "  const int r = p->ksize / 2;\n"
         "  for (int rep = 0; rep < " +
         std::to_string(repeats) +
         "; ++rep)\n"
         "  for (int y = 0; y < p->height; ++y)\n"
         "    for (int x = 0; x < p->width; ++x)\n"
         "      for (int c = 0; c < p->channels; ++c) {\n"
         "        float sum = 0.f;\n"
         "        for (int ky = 0; ky < p->ksize; ++ky) {\n"
         "          const int sy = convlab_border_index(y + ky - r, p->height, p->border);\n"
         "          if (sy < 0) continue;\n"
         "          for (int kx = 0; kx < p->ksize; ++kx) {\n"
         "            const int sx = convlab_border_index(x + kx - r, p->width, p->border);\n"
         "            if (sx < 0) continue;\n"
         "            sum += p->weights[ky * p->ksize + kx] *\n"
         "                   p->in[sy * p->in_pitch + sx * p->channels + c];\n"
         "          }\n"
         "        }\n"
         "        convlab_store(p->out, ((long long)y * p->width + x) * p->channels + c,\n"
         "                      p->output, sum);\n"
         "      }\n"
         "  return 0;\n"
         "}\n";
}

const char* kConfig = R"(name: versions
title: Versions of one kernel
images:
  - {type: generated, sizes: [[96, 64]], channels: 1, seed: 1}
kernels:
  - {type: gaussian, size: 5}
implementations:
  mine: {source: k.c, threads: [1, 2]}
baseline: {implementation: mine, params: {threads: 1}}
derive:
  vs_one: "median_ms[params.threads=1] / median_ms"
measure: {warmup: 1, min_reps: 3, max_reps: 5, max_seconds: 0.3}
save_outputs: true
)";

// The first number in `text` after `anchor`, or NaN.
double number_after(const std::string& text, const std::string& anchor) {
  const size_t at = text.find(anchor);
  if (at == std::string::npos) return std::nan("");
  std::smatch match;
  const std::string rest = text.substr(at + anchor.size());
  if (!std::regex_search(rest, match, std::regex(R"([0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?)")))
    return std::nan("");
  return std::stod(match.str());
}

// The cells of the markdown table rows of `text` that start with "| mine |".
std::vector<std::vector<std::string>> rows_of(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| mine |", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream parts(line.substr(1));
    std::string cell;
    while (std::getline(parts, cell, '|')) {
      const size_t first = cell.find_first_not_of(' ');
      const size_t last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    rows.push_back(cells);
  }
  return rows;
}

// What a number printed with three significant digits is within (B's times are far beyond).
constexpr double kThreeDigits = 1e-2;

bool near(double a, double b, double relative = 2e-3) {
  return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

// Measured once for the suite: version A, the edit B (40 times the work), A restored.
class KernelVersions : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(testing::fresh_directory("source_versions"));
    write_text(*dir_ / "c.yaml", kConfig);
    const auto measure = [](int repeats, const char* what) {
      write_text(*dir_ / "k.c", kernel_text(repeats));
      const auto run = convlab("run c.yaml --quiet");
      ASSERT_EQ(run.exit_code, 0) << what << ":\n" << run.output;
    };
    measure(1, "version A");
    version_a_ = new std::string(read_text(*dir_ / "k.c"));
    measure(40, "version B");
    measure(1, "version A restored");
    ASSERT_EQ(read_text(*dir_ / "k.c"), *version_a_);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete version_a_;
  }

  static testing::CommandResult convlab(const std::string& arguments) {
    return run_shell("CONVLAB_KERNEL_CACHE='" + (*dir_ / "cache").string() +
                         "' timeout -k 5 300 \"$CONVLAB\" " + arguments,
                     *dir_);
  }

  static json results() { return json::parse(read_text(*dir_ / "outputs/versions/results.json")); }

  // The median of each version's record of `threads`, by source sha256.
  static std::map<std::string, double> medians(int threads) {
    std::map<std::string, double> by_version;
    const json file = results();
    for (const json& record : file["records"])
      if (record["params"]["threads"] == threads)
        by_version[record["source"]["sha256"]] = record["timing"]["stats"]["median"];
    return by_version;
  }
  static double median_a(int threads) { return medians(threads).at(version_a()); }
  static double median_b(int threads) { return medians(threads).at(version_b()); }
  static std::string version_a() { return results()["run"]["config"]["sources"][0]["sha256"]; }
  static std::string version_b() {
    const json file = results();
    for (const json& record : file["records"])
      if (record["source"]["sha256"] != version_a()) return record["source"]["sha256"];
    return "";
  }

  static std::filesystem::path* dir_;
  static std::string* version_a_;
};

std::filesystem::path* KernelVersions::dir_ = nullptr;
std::string* KernelVersions::version_a_ = nullptr;

TEST_F(KernelVersions, ResultsKeepBothVersionsAndTheRestoredOneIsCurrent) {
  const json file = results();
  ASSERT_EQ(file["records"].size(), 4u) << file["records"].dump(1);
  ASSERT_EQ(file["runs"].size(), 3u);
  ASSERT_FALSE(version_b().empty());
  EXPECT_NE(version_a(), version_b());
  // The restored source was found measured: the third run measured nothing new.
  for (const json& record : file["records"])
    EXPECT_NE(record["run_id"], file["runs"][2]["id"]) << record.dump();
  // B did forty times the work: its times are far from A's.
  EXPECT_GT(median_b(1), 8 * median_a(1));
  // The file's own derived metrics relate each record to its own version's T(1).
  for (const json& record : file["records"]) {
    const bool a = record["source"]["sha256"] == version_a();
    const int threads = record["params"]["threads"];
    const double t1 = a ? median_a(1) : median_b(1);
    const double mine = a ? median_a(threads) : median_b(threads);
    EXPECT_NEAR(record["derived"]["speedup_vs_threads1"].get<double>(), t1 / mine, 1e-9 * t1 / mine)
        << record.dump();
    EXPECT_NEAR(record["derived"]["speedup"].get<double>(), t1 / mine, 1e-9 * t1 / mine)
        << "the baseline is the kernel itself at one thread, of the record's version";
  }
}

TEST_F(KernelVersions, EachVersionKeepsItsOutputAndTheGalleryShowsTheCurrentOne) {
  const json file = results();
  std::map<std::string, std::string> output_of_key;
  std::set<std::string> files;
  for (const json& record : file["records"]) {
    const std::string output = record["saved_output"]["file"];
    output_of_key[record["key"]] = output;
    files.insert(output);
    EXPECT_TRUE(std::filesystem::exists(*dir_ / "outputs/versions" / output)) << output;
    EXPECT_NE(
        output.find("__source-" + record["source"]["sha256"].get<std::string>().substr(0, 12)),
        std::string::npos)
        << output;
  }
  EXPECT_EQ(files.size(), 4u);  // two points, two versions: nothing overwritten
  ASSERT_EQ(file["gallery"].size(), 1u) << file["gallery"].dump(1);
  const json& shown = file["gallery"][0]["source"];
  ASSERT_TRUE(output_of_key.count(shown["key"])) << shown.dump();
  EXPECT_EQ(shown["file"], output_of_key.at(shown["key"]));
  for (const json& record : file["records"])
    if (record["key"] == shown["key"]) {
      EXPECT_EQ(record["source"]["sha256"], version_a());
    }
}

TEST_F(KernelVersions, ShowListsOnePointOnceWithSpeedupsOfItsOwnVersion) {
  const auto show = convlab("show outputs/versions");
  ASSERT_EQ(show.exit_code, 0) << show.output;
  const auto rows = rows_of(show.output);
  ASSERT_EQ(rows.size(), 2u) << show.output;
  EXPECT_EQ(show.output.find("| source |"), std::string::npos) << show.output;
  // | mine | threads=1 | image | kernel | border | output | median | CV | speedup | verdict |
  // vs_one
  for (const auto& row : rows) {
    const int threads = row[1] == "threads=1" ? 1 : 2;
    EXPECT_TRUE(near(std::stod(row[6]), median_a(threads), 1e-3)) << row[6] << "\n" << show.output;
    const double speedup = std::stod(row[8]);
    EXPECT_TRUE(near(speedup, median_a(1) / median_a(threads), kThreeDigits))
        << "speedup " << speedup << " of threads=" << threads << ", A: " << median_a(1) << " / "
        << median_a(threads) << "\n"
        << show.output;
    // The derived column: T(1) of the same version.
    EXPECT_TRUE(near(std::stod(row[10]), median_a(1) / median_a(threads), kThreeDigits))
        << row[10] << "\n"
        << show.output;
  }
  EXPECT_NE(show.output.find("2 of 2 records"), std::string::npos) << show.output;
  EXPECT_NE(show.output.find("results.json also holds 2 records of another version of mine's "
                             "source (" +
                             version_b().substr(0, 12) + "; the current one is " +
                             version_a().substr(0, 12) + ")"),
            std::string::npos)
      << show.output;
}

TEST_F(KernelVersions, AllVersionsListsEveryRecordWithItsVersion) {
  const auto show = convlab("show outputs/versions --all-versions");
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("| implementation | params | source | image |"), std::string::npos)
      << show.output;
  const auto rows = rows_of(show.output);
  ASSERT_EQ(rows.size(), 4u) << show.output;
  std::map<std::string, int> per_version;
  for (const auto& row : rows) {
    const bool a = row[2] == version_a().substr(0, 12);
    ASSERT_TRUE(a || row[2] == version_b().substr(0, 12)) << row[2];
    ++per_version[row[2]];
    const int threads = row[1] == "threads=1" ? 1 : 2;
    const double median = a ? median_a(threads) : median_b(threads);
    EXPECT_TRUE(near(std::stod(row[7]), median, 1e-3)) << show.output;
    // Each version's speedup against its own T(1); derived columns of the current one only.
    const double t1 = a ? median_a(1) : median_b(1);
    EXPECT_TRUE(near(std::stod(row[9]), t1 / median, kThreeDigits)) << show.output;
    EXPECT_EQ(row[11].empty(), !a) << show.output;
  }
  EXPECT_EQ(per_version.size(), 2u);
  const auto refused = convlab("show outputs/versions --all-versions --best");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  const auto csv = convlab("export outputs/versions --format csv --all-versions");
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_NE(csv.output.find("source.version"), std::string::npos) << csv.output;
  EXPECT_NE(csv.output.find(version_b()), std::string::npos) << csv.output;
}

TEST_F(KernelVersions, CompareThreadsTakesTOneFromTheCurrentVersion) {
  const auto compare = convlab("show outputs/versions --compare params.threads");
  ASSERT_EQ(compare.exit_code, 0) << compare.output;
  EXPECT_NE(compare.output.find("from 2 ok points"), std::string::npos) << compare.output;
  // The efficiency column: T(1) / (P T(P)), 1 at one thread.
  std::istringstream lines(compare.output);
  std::string line, header;
  std::vector<std::string> rows;
  while (std::getline(lines, line)) {
    if (line.rfind("| implementation", 0) == 0) header = line;
    if (line.rfind("| mine", 0) == 0) rows.push_back(line);
  }
  ASSERT_FALSE(header.empty()) << compare.output;
  ASSERT_EQ(rows.size(), 2u) << compare.output;
  const auto column = [](const std::string& text, size_t index) {
    std::vector<std::string> cells;
    std::istringstream parts(text.substr(1));
    std::string cell;
    while (std::getline(parts, cell, '|')) cells.push_back(cell);
    return index < cells.size() ? cells[index] : std::string();
  };
  size_t efficiency = 0;
  for (size_t i = 0; !column(header, i).empty(); ++i)
    if (column(header, i).find("efficiency") != std::string::npos) efficiency = i;
  ASSERT_GT(efficiency, 0u) << header;
  for (const std::string& row : rows) {
    const int threads = row.find("| 1 |") != std::string::npos ? 1 : 2;
    const double expected = median_a(1) / (threads * median_a(threads));
    EXPECT_TRUE(near(std::stod(column(row, efficiency)), expected, kThreeDigits))
        << "threads " << threads << ": " << row << "\n"
        << compare.output;
  }
}

TEST_F(KernelVersions, TheNotebookComputesWithTheCurrentVersionAndFlagsTheOther) {
  std::filesystem::create_directories(*dir_ / "discussions");
  write_text(*dir_ / "discussions/versions.md",
             "One thread takes {{ median_ms[implementation=mine,params.threads=1] | .6f }} ms.\n");
  const auto notebook = convlab("notebook outputs/versions --out book --discussions discussions");
  ASSERT_EQ(notebook.exit_code, 0) << notebook.output;
  const std::string page = read_text(*dir_ / "book/versions.html");
  // The value quoted is version A's median.
  std::smatch value;
  ASSERT_TRUE(std::regex_search(page, value, std::regex("One thread takes <span[^>]*>([0-9.]+)")));
  const double quoted = std::stod(value[1].str());
  EXPECT_TRUE(near(quoted, median_a(1), 1e-5)) << quoted << " vs A " << median_a(1);
  // The page flags the other version, by its short hash.
  EXPECT_NE(page.find("other versions:"), std::string::npos);
  EXPECT_NE(page.find("another version of mine&#39;s source (" + version_b().substr(0, 12)),
            std::string::npos)
      << page.substr(0, 4000);
}

TEST_F(KernelVersions, TheReportCountsTheCurrentPlanAndFlagsTheOther) {
  write_text(*dir_ / "discussion.md",
             "One thread takes {{ median_ms[implementation=mine,params.threads=1] | .6f }} ms.\n");
  const auto exported =
      convlab("export outputs/versions --config c.yaml --discussion discussion.md");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const std::string section = read_text(*dir_ / "outputs/versions/export/section.tex");
  EXPECT_NE(section.find("2 points ok"), std::string::npos) << section;
  EXPECT_EQ(section.find("4 points ok"), std::string::npos) << section;
  EXPECT_NE(section.find("another version of mine's source (" + version_b().substr(0, 12)),
            std::string::npos)
      << section;
  EXPECT_TRUE(near(number_after(section, "One thread takes "), median_a(1), 1e-5)) << section;
  // The default table of medians holds version A's numbers, none of B's.
  std::vector<double> numbers;
  for (const auto& entry :
       std::filesystem::directory_iterator(*dir_ / "outputs/versions/export/tables")) {
    if (entry.path().extension() != ".tsv") continue;
    const std::string text = read_text(entry.path());
    const std::regex number(R"([0-9]+\.[0-9]+(e[-+]?[0-9]+)?)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
         it != std::sregex_iterator(); ++it)
      numbers.push_back(std::stod(it->str()));
  }
  const auto holds = [&](double value) {
    return std::any_of(numbers.begin(), numbers.end(), [&](double n) { return near(n, value); });
  };
  EXPECT_TRUE(holds(median_a(1)) && holds(median_a(2)));
  EXPECT_FALSE(holds(median_b(1)) || holds(median_b(2)));
}

// The same with only an included header edited and restored: the version is the snapshot of the
// source and its includes, so the header's edit is another version and the restored header makes
// the first one current again.
TEST(HeaderVersions, AnEditedHeaderIsAnotherVersionThatNeverMixes) {
  const auto dir = testing::fresh_directory("source_versions_header");
  std::string config = kConfig;
  config.replace(config.find("source: k.c"), std::string("source: k.c").size(), "source: h.c");
  write_text(dir / "c.yaml", config);
  std::string source = kernel_text(1);
  source.replace(source.find("rep < 1;"), std::string("rep < 1;").size(), "rep < REPEATS;");
  write_text(dir / "h.c", "#include \"reps.h\"\n" + source);
  const auto convlab = [&](const std::string& arguments) {
    return run_shell("CONVLAB_KERNEL_CACHE='" + (dir / "cache").string() +
                         "' timeout -k 5 300 \"$CONVLAB\" " + arguments,
                     dir);
  };
  for (const int repeats : {1, 40, 1}) {
    write_text(dir / "reps.h", "#define REPEATS " + std::to_string(repeats) + "\n");
    const auto run = convlab("run c.yaml --quiet");
    ASSERT_EQ(run.exit_code, 0) << "REPEATS " << repeats << ":\n" << run.output;
  }
  const json file = json::parse(read_text(dir / "outputs/versions/results.json"));
  ASSERT_EQ(file["records"].size(), 4u) << file["records"].dump(1);
  const std::string current = file["run"]["config"]["sources"][0]["version"];
  std::map<std::string, std::map<int, double>> median_of;  // version -> threads -> ms
  for (const json& record : file["records"]) {
    EXPECT_EQ(record["source"]["sha256"], file["records"][0]["source"]["sha256"]);
    median_of[record["source"]["snapshot_sha256"]][record["params"]["threads"].get<int>()] =
        record["timing"]["stats"]["median"];
  }
  ASSERT_EQ(median_of.size(), 2u);
  ASSERT_TRUE(median_of.count(current)) << current;
  std::string other;
  for (const auto& [version, medians] : median_of)
    if (version != current) other = version;
  EXPECT_GT(median_of[other][1], 8 * median_of[current][1]);
  const auto show = convlab("show outputs/versions");
  ASSERT_EQ(show.exit_code, 0) << show.output;
  const auto rows = rows_of(show.output);
  ASSERT_EQ(rows.size(), 2u) << show.output;
  for (const auto& row : rows) {
    const int threads = row[1] == "threads=1" ? 1 : 2;
    EXPECT_TRUE(near(std::stod(row[6]), median_of[current][threads], 1e-3)) << show.output;
    EXPECT_TRUE(
        near(std::stod(row[8]), median_of[current][1] / median_of[current][threads], kThreeDigits))
        << show.output;
  }
  EXPECT_NE(show.output.find("another version of mine's source (" + other.substr(0, 12) +
                             "; the current one is " + current.substr(0, 12) + ")"),
            std::string::npos)
      << show.output;
  const auto all = convlab("show outputs/versions --all-versions");
  ASSERT_EQ(all.exit_code, 0) << all.output;
  std::set<std::string> listed;
  for (const auto& row : rows_of(all.output)) listed.insert(row[2]);
  EXPECT_EQ(listed, (std::set<std::string>{current.substr(0, 12), other.substr(0, 12)}))
      << all.output;
  for (const char* refused : {"show outputs/versions --all-versions --vs mine",
                              "export outputs/versions --format md --all-versions --vs mine"}) {
    const auto result = convlab(refused);
    EXPECT_EQ(result.exit_code, 2) << refused << ":\n" << result.output;
    EXPECT_NE(result.output.find("--all-versions lists records"), std::string::npos)
        << result.output;
  }
}

// The rules of the current version, on files made here.
Record user_record(const std::string& implementation, const std::string& version,
                   const std::string& run_id) {
  Record record;
  record.key = implementation + version + run_id;
  record.run_id = run_id;
  record.implementation = implementation;
  record.source = SourceFacts{};
  record.source->path = implementation + ".c";
  record.source->sha256 = version;
  return record;
}

RunBlock run_naming(const std::string& id, const std::string& implementation,
                    const std::string& version) {
  RunBlock run;
  run.id = id;
  run.resolved_config = {
      {"implementations", {{implementation, {{"source", implementation + ".c"}}}}}};
  run.sources.push_back({implementation + ".c", version, "text", {}, ""});
  return run;
}

TEST(CurrentVersion, IsTheOneTheLatestRunNamingTheKernelCompiled) {
  ResultsFile file;
  file.runs = {run_naming("r1", "mine", "A"), run_naming("r2", "mine", "B"),
               run_naming("r3", "mine", "A")};
  file.records = {user_record("mine", "A", "r1"), user_record("mine", "B", "r2")};
  Record builtin;
  builtin.implementation = "openmp";
  builtin.run_id = "r2";
  file.records.push_back(builtin);
  const SourceVersions versions(file);
  EXPECT_EQ(versions.current("mine"), "A");  // r3 measured nothing, and names A
  EXPECT_TRUE(versions.is_current(file.records[0]));
  EXPECT_FALSE(versions.is_current(file.records[1]));
  EXPECT_TRUE(versions.is_current(file.records[2]));  // a built-in has one version
  EXPECT_EQ(versions.current("openmp"), "");
  // A run that compiled C and measured nothing of it: neither A nor B is current.
  file.runs.push_back(run_naming("r4", "mine", "C"));
  EXPECT_EQ(SourceVersions(file).current("mine"), "C");
  EXPECT_FALSE(SourceVersions(file).is_current(file.records[0]));
  // A source with files of its own: the snapshot is the version, in the records and the runs.
  file.runs.back().sources.back().version = "S";
  file.records[1].source->snapshot_sha256 = "S";
  EXPECT_TRUE(SourceVersions(file).is_current(file.records[1]));
}

TEST(CurrentVersion, WithoutRunsNamingKernelsIsTheLatestRunsRecords) {
  ResultsFile file;
  file.runs.resize(2);
  file.runs[0].id = "r1";
  file.runs[1].id = "r2";
  file.records = {user_record("mine", "B", "r2"), user_record("mine", "A", "r1")};
  EXPECT_EQ(SourceVersions(file).current("mine"), "B");
}

TEST(CurrentVersion, DerivedMetricsRelateRecordsOfOneVersion) {
  ResultsFile file;
  file.runs = {run_naming("r1", "mine", "A"), run_naming("r2", "mine", "B")};
  file.experiment = {{"baseline", {{"implementation", "mine"}, {"params", {{"threads", 1}}}}}};
  const auto timed = [](Record record, int threads, double ms) {
    record.key += std::to_string(threads);
    record.params = {{"threads", threads}};
    record.image = {"i", "", "", 8, 8, 1};
    record.kernel = {"k", "box", 3, true, json::object()};
    record.border = "zero";
    record.output = "u8";
    record.timing = RecordTiming{};
    record.timing->compute.stats.median = ms;
    return record;
  };
  file.records = {timed(user_record("mine", "A", "r1"), 1, 1.0),
                  timed(user_record("mine", "A", "r1"), 2, 0.5),
                  timed(user_record("mine", "B", "r2"), 1, 40.0),
                  timed(user_record("mine", "B", "r2"), 2, 30.0)};
  derive_metrics(file);
  EXPECT_DOUBLE_EQ(*file.records[1].derived.efficiency, 1.0);          // 1 / (2 x 0.5)
  EXPECT_DOUBLE_EQ(*file.records[3].derived.efficiency, 40.0 / 60.0);  // 40 / (2 x 30)
  EXPECT_DOUBLE_EQ(*file.records[1].derived.speedup, 2.0);
  EXPECT_DOUBLE_EQ(*file.records[3].derived.speedup, 40.0 / 30.0);
  EXPECT_DOUBLE_EQ(*file.records[2].derived.speedup, 1.0);
}

// Files whose runs kept no resolved config: the kernels' sources are known by their records.
namespace restored {

json record(const std::string& run, const std::string& version, int threads, double median) {
  static int next = 0;
  ++next;
  return {{"key", "k" + std::to_string(next)},
          {"point_id", "p" + std::to_string(next)},
          {"run_id", run},
          {"implementation", "mine"},
          {"family", "cpu"},
          {"params", {{"threads", threads}}},
          {"image", {{"name", "i"}, {"sha256", "s"}, {"width", 8}, {"height", 4}, {"channels", 3}}},
          {"kernel", {{"name", "g5"}, {"size", 5}}},
          {"border", "zero"},
          {"output", "u8"},
          {"status", "ok"},
          {"source", {{"path", "k.c"}, {"sha256", version}}},
          {"timing", {{"stats", {{"median", median}}}}},
          {"derived", json::object()},
          {"machine", {{"cpu_model", "cpu"}, {"hostname", "h"}, {"host_id", "h"}}}};
}

json run(const std::string& id, const std::string& version) {
  return {{"id", id},
          {"config", {{"sources", {{{"path", "k.c"}, {"sha256", version}, {"text", "..."}}}}}}};
}

ResultsDocument document(const std::vector<json>& runs, const std::vector<json>& records) {
  ResultsFile file;
  file.experiment = {{"name", "t"}};
  for (const json& block : runs) file.runs.push_back(run_block_from_json(block));
  for (const json& r : records) file.records.push_back(record_from_json(r));
  return results_document_of("t/results.json", std::move(file));
}

TEST(SourceVersions, ARestoredSourceShowsItsOwnPointsNotTheEditedOnes) {
  // A measured at 1 and 2 threads; B (an edit) at 1 and 4; A restored: its run kept A's points
  // and measured nothing.
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb"), run("r3", "aaaa")},
               {record("r1", "aaaa", 1, 8.0), record("r1", "aaaa", 2, 5.0),
                record("r2", "bbbb", 1, 2.0), record("r2", "bbbb", 4, 1.0)});
  for (const auto& points : {latest_ok_points(results), latest_points(results)}) {
    ASSERT_EQ(points.size(), 2u);
    for (const Record* point : points) {
      EXPECT_EQ(point->source->sha256, "aaaa") << point->key;
      EXPECT_EQ(point->run_id, "r1");
    }
  }
}

TEST(SourceVersions, TheLatestVersionIsCurrentAndOtherImplementationsAreUntouched) {
  json builtin = record("r1", "", 1, 3.0);
  builtin.erase("source");
  builtin["implementation"] = "sequential";
  builtin["params"] = json::object();
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb")},
               {record("r1", "aaaa", 1, 8.0), builtin, record("r2", "bbbb", 1, 2.0)});
  const auto points = latest_ok_points(results);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0]->implementation, "sequential");
  ASSERT_TRUE(points[1]->source.has_value());
  EXPECT_EQ(points[1]->source->sha256, "bbbb");
}

TEST(SourceVersions, ThePageSaysHowManyRecordsOfOtherVersionsItLeavesOut) {
  const ResultsDocument results =
      document({run("r1", "aaaa"), run("r2", "bbbb"), run("r3", "aaaa")},
               {record("r1", "aaaa", 1, 8.0), record("r1", "aaaa", 2, 5.0),
                record("r2", "bbbb", 1, 2.0), record("r2", "bbbb", 4, 1.0)});
  const std::vector<OtherVersions> others = other_versions_of(results);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].records, 2u);
  EXPECT_NE(other_versions_words(others).find("2 records of another version of mine's source"),
            std::string::npos)
      << other_versions_words(others);
  EXPECT_TRUE(
      other_versions_of(document({run("r1", "aaaa")}, {record("r1", "aaaa", 1, 8.0)})).empty());
}

}  // namespace restored

}  // namespace
}  // namespace convlab
