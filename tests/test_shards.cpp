// `convlab run --shard I/N` and `convlab merge`, through the executable: shards of one plan merge
// to what a single process records, merging is idempotent and keeps machines, missing points are
// named per shard and measured by the shard's next run alone, and shard files of another run or
// broken ones are refused by name while the others are merged.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "test_support.hpp"

namespace convlab {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kSweep = R"(name: sweep
images:
  - {type: generated, sizes: [[9, 7], 16], channels: [1, 3], seed: 5}
kernels:
  - {type: gaussian, size: [3, 5]}
  - {type: sobel_x}
border: [reflect, zero]
implementations:
  sequential: {}
  openmp: {threads: [1, 2]}
measure: {warmup: 0, min_reps: 1, max_reps: 2, max_seconds: 0.01}
)";
constexpr size_t kProblems = 2 * 2 * 3 * 2;
constexpr size_t kPoints = kProblems * 3;

using Outcome = std::tuple<std::string, std::string, std::string>;

json parse_file(const fs::path& path) {
  return json::parse(testing::read_text(path));
}

std::set<Outcome> outcomes(const json& results) {
  std::set<Outcome> found;
  for (const auto& record : results["records"]) {
    const json& verification = record["verification"];
    found.insert({record["point_id"], record["status"],
                  verification.is_object() ? verification["verdict"].get<std::string>() : ""});
  }
  return found;
}

class Shards : public testing::DirectoryTest {
 protected:
  void SetUp() override {
    DirectoryTest::SetUp();
    testing::write_text(dir_ / "sweep.yaml", kSweep);
  }
  testing::CommandResult run(const std::string& arguments) const {
    return testing::run_convlab(arguments, dir_);
  }
  json results(const std::string& file = "out/results.json") const {
    return parse_file(dir_ / file);
  }
};

TEST_F(Shards, ShardsMergeToTheSingleProcessRecordsAndMergingAgainAddsNothing) {
  ASSERT_EQ(run("run sweep.yaml --out single --quiet").exit_code, 0);
  for (int shard = 0; shard < 3; ++shard) {
    const auto ran = run("run sweep.yaml --out out --shard " + std::to_string(shard) + "/3");
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
    EXPECT_TRUE(fs::exists(dir_ / ("out/shards/shard-" + std::to_string(shard) + "-of-3.json")));
    // The last shard to be done merges them all itself.
    EXPECT_EQ(fs::exists(dir_ / "out/results.json"), shard == 2) << ran.output;
    EXPECT_EQ(ran.output.find("every shard of 3 is done") != std::string::npos, shard == 2);
  }
  const json single = results("single/results.json");
  json merged = results();
  EXPECT_EQ(outcomes(merged), outcomes(single));
  EXPECT_EQ(merged["records"].size(), kPoints);
  EXPECT_EQ(merged["runs"].size(), 3u);  // one per shard
  EXPECT_EQ(merged["experiment"]["name"], "sweep");
  EXPECT_FALSE(merged.contains("part"));
  for (const auto& record : merged["records"]) {
    EXPECT_FALSE(record["machine"]["cpu_model"].get<std::string>().empty());
    EXPECT_GT(record["derived"]["speedup"].get<double>(), 0) << record["implementation"];
  }
  // Every speedup pairs records of one shard's run (a problem is never split).
  std::map<std::string, std::string> run_of_key;
  for (const auto& record : merged["records"]) run_of_key[record["key"]] = record["run_id"];
  for (const auto& record : merged["records"])
    EXPECT_EQ(run_of_key[record["derived"]["baseline_key"]], record["run_id"]);

  const auto again = run("merge out");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("merged 3 of 3 shard files (" + std::to_string(kPoints) +
                              " records) into out/results.json (" + std::to_string(kPoints) +
                              " records in all)"),
            std::string::npos)
      << again.output;
  EXPECT_EQ(outcomes(results()), outcomes(merged));
  EXPECT_EQ(results()["records"].size(), kPoints);
  // A shard run again (a requeued job) keeps its points and adds no record.
  const auto requeued = run("run sweep.yaml --out out --shard 1/3");
  EXPECT_EQ(requeued.exit_code, 0);
  EXPECT_NE(requeued.output.find("ran 0"), std::string::npos) << requeued.output;
  EXPECT_EQ(run("merge out").exit_code, 0);
  EXPECT_EQ(results()["records"].size(), kPoints);
}

TEST_F(Shards, DryRunShowsTheShareOfTheShardAndWritesNothing) {
  const auto dry = run("run sweep.yaml --dry-run --shard 1/4");
  ASSERT_EQ(dry.exit_code, 0) << dry.output;
  std::smatch share;
  ASSERT_TRUE(std::regex_search(
      dry.output, share,
      std::regex("shard 1 of 4: ([0-9]+) of 24 problem groups, ([0-9]+) of 72 points, "
                 "([0-9.]+) % of the plan's estimated cost \\(the 4 shards hold ([0-9.]+) % to "
                 "([0-9.]+) %")))
      << dry.output;
  EXPECT_EQ(std::stoul(share[2]), 3 * std::stoul(share[1]));
  EXPECT_NEAR(std::stod(share[3]), 25.0, 5.0);
  EXPECT_FALSE(fs::exists(dir_ / "outputs"));
  // The same parts on every call.
  EXPECT_EQ(run("run sweep.yaml --dry-run --shard 1/4").output, dry.output);
}

TEST_F(Shards, MergeNamesMissingPointsAndTheShardsNextRunMeasuresOnlyThose) {
  ASSERT_EQ(run("run sweep.yaml --out out --shard 0/2 --max-points 5 --quiet").exit_code, 0);
  const auto partial = run("merge out");
  EXPECT_EQ(partial.exit_code, 1) << partial.output;
  std::smatch missing;
  ASSERT_TRUE(std::regex_search(partial.output, missing,
                                std::regex("([0-9]+) points of shard 0 missing \\(([0-9]+) "
                                           "planned\\); measure them with: convlab run "
                                           "sweep.yaml --shard 0/2 --out out")))
      << partial.output;
  const size_t planned = std::stoul(missing[2]);
  EXPECT_EQ(std::stoul(missing[1]), planned - 5);
  EXPECT_NE(partial.output.find("shard 1 of 2 has not run (no out/shards/shard-1-of-2.json): " +
                                std::to_string(kPoints - planned) + " points missing"),
            std::string::npos)
      << partial.output;
  EXPECT_EQ(results()["records"].size(), 5u);

  const auto rest = run("run sweep.yaml --out out --shard 0/2");
  EXPECT_EQ(rest.exit_code, 0);
  EXPECT_NE(rest.output.find("kept 5 \u00b7 ran " + std::to_string(planned - 5) + " \u00b7"),
            std::string::npos)
      << rest.output;
  EXPECT_EQ(run("run sweep.yaml --out out --shard 1/2 --quiet").exit_code, 0);
  EXPECT_EQ(run("merge out").exit_code, 0);
  EXPECT_EQ(results()["records"].size(), kPoints);
}

TEST_F(Shards, AShardStoppedBeforeItsFirstPointCountsAllItsPointsMissing) {
  ASSERT_EQ(run("run sweep.yaml --out out --shard 0/2 --max-points 0 --quiet").exit_code, 0);
  ASSERT_EQ(run("run sweep.yaml --out out --shard 1/2 --quiet").exit_code, 0);
  const auto merged = run("merge out");
  EXPECT_EQ(merged.exit_code, 1);
  EXPECT_TRUE(std::regex_search(merged.output, std::regex("([0-9]+) points of shard 0 missing "
                                                          "\\(\\1 planned\\)")))
      << merged.output;
}

TEST_F(Shards, ShardFilesOfAnotherConfigAreRefusedByFileAndKeyAndTheOthersMerged) {
  for (int shard = 0; shard < 3; ++shard)
    ASSERT_EQ(
        run("run sweep.yaml --out out --quiet --shard " + std::to_string(shard) + "/3").exit_code,
        0);
  std::string changed = kSweep;
  changed.replace(changed.find("max_reps: 2"), 11, "max_reps: 3");
  testing::write_text(dir_ / "sweep.yaml", changed);
  ASSERT_EQ(run("run sweep.yaml --out out --quiet --force --shard 2/3").exit_code, 0);
  const auto merged = run("merge out");
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("out/shards/shard-2-of-3.json: part.config_sha256: the config "
                               "hash is '"),
            std::string::npos)
      << merged.output;
  EXPECT_NE(merged.output.find("merged 2 of 3 shard files"), std::string::npos) << merged.output;
}

TEST_F(Shards, ARunOfAnotherExperimentIntoTheShardFolderIsRefused) {
  ASSERT_EQ(run("run sweep.yaml --out out --quiet --shard 0/2").exit_code, 0);
  std::string other = kSweep;
  other.replace(0, 11, "name: other");
  testing::write_text(dir_ / "other.yaml", other);
  const auto refused = run("run other.yaml --out out --shard 0/2");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.output.find("out/shards/shard-0-of-2.json: holds experiment 'sweep', not "
                                "'other'"),
            std::string::npos)
      << refused.output;
  EXPECT_EQ(run("merge nowhere").exit_code, 2);
  EXPECT_EQ(run("merge").exit_code, 2);
}

// Records edited into shard files: a point of another shard with other values, a point no shard
// plans, and a point twice in one file with other values. Each is named by file and key and left
// out; every other record is merged, and the real measurement is the one kept.
TEST_F(Shards, TamperedRecordsAreNamedByFileAndKeyAndTheOthersMerged) {
  for (int shard = 0; shard < 3; ++shard)
    ASSERT_EQ(run("run sweep.yaml --out out --quiet --filter implementation=sequential --shard " +
                  std::to_string(shard) + "/3")
                  .exit_code,
              0);
  fs::remove(dir_ / "out/results.json");
  const fs::path first = dir_ / "out/shards/shard-0-of-3.json";
  const fs::path second = dir_ / "out/shards/shard-1-of-3.json";
  const fs::path third = dir_ / "out/shards/shard-2-of-3.json";
  json zero = parse_file(first), one = parse_file(second), two = parse_file(third);
  const size_t total = zero["records"].size() + one["records"].size() + two["records"].size();
  // Shard 1's first point, with a median ten times its own, in shard 0's file.
  json foreign = one["records"][0];
  const double real_median = foreign["timing"]["stats"]["median"].get<double>();
  foreign["timing"]["stats"]["median"] = real_median * 10;
  zero["records"].push_back(foreign);
  // A point no shard plans: an image size the config does not have.
  json unplanned = zero["records"][0];
  unplanned["image"]["width"] = 4096;
  zero["records"].push_back(unplanned);
  // Shard 2's first point twice, the copy with other values: which is real cannot be told.
  json copy = two["records"][0];
  copy["timing"]["stats"]["median"] = 123.0;
  two["records"].push_back(copy);
  testing::write_text(first, zero.dump());
  testing::write_text(third, two.dump());

  const auto merged =
      testing::run_shell("ulimit -v 1048576; timeout 10 \"$CONVLAB\" merge out", dir_);
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  const std::string foreign_at = "out/shards/shard-0-of-3.json: records[" +
                                 std::to_string(zero["records"].size() - 2) + "]: point ";
  const std::string unplanned_at = "out/shards/shard-0-of-3.json: records[" +
                                   std::to_string(zero["records"].size() - 1) + "]: point ";
  for (const std::string& needle :
       {foreign_at, std::string("is not one its shard plans (shard 1 plans it); not merged"),
        unplanned_at, std::string("is not one its shard plans (no shard file here plans it)"),
        std::string("out/shards/shard-2-of-3.json: records[0]: point "),
        "is also in out/shards/shard-2-of-3.json: records[" +
            std::to_string(two["records"].size() - 1) +
            "], measured on the same machine, with other values; not merged",
        std::string("1 point of shard 2 missing (")})
    EXPECT_NE(merged.output.find(needle), std::string::npos)
        << "lacks '" << needle << "': " << merged.output;
  // Every record but the three edited in and the one they doubled is merged; the real median
  // of shard 1's point is kept.
  const json result = results();
  EXPECT_EQ(result["records"].size(), total - 1);
  for (const auto& record : result["records"]) {
    if (record["point_id"] == foreign["point_id"]) {
      EXPECT_EQ(record["timing"]["stats"]["median"].get<double>(), real_median);
    }
  }
}

TEST_F(Shards, AShardFileThatIsALinkIsRefusedAndItsTargetNeverRead) {
  for (int shard = 0; shard < 2; ++shard)
    ASSERT_EQ(run("run sweep.yaml --out out --quiet --filter implementation=sequential --shard " +
                  std::to_string(shard) + "/2")
                  .exit_code,
              0);
  testing::write_text(dir_ / "secret.txt", "SECRET-first-line: do not print\nmore\n");
  const fs::path shard = dir_ / "out/shards/shard-1-of-2.json";
  fs::remove(shard);
  fs::create_symlink(dir_ / "secret.txt", shard);
  const auto merged = run("merge out");
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("out/shards/shard-1-of-2.json: is a symbolic link"),
            std::string::npos)
      << merged.output;
  EXPECT_EQ(merged.output.find("SECRET"), std::string::npos) << merged.output;
  EXPECT_EQ(merged.output.find("'S'"), std::string::npos) << merged.output;
  // As the shard's own run refuses it.
  const auto rerun = run("run sweep.yaml --out out --filter implementation=sequential --shard 1/2");
  EXPECT_EQ(rerun.exit_code, 2) << rerun.output;
  EXPECT_NE(rerun.output.find("is a symbolic link"), std::string::npos) << rerun.output;
}

// The command merge prints for the missing points of a shard is one a shell runs as it reads,
// whatever the config's path and the filter hold.
TEST_F(Shards, TheCommandThatCompletesAShardIsQuotedForTheShell) {
  const std::string config = "c;touch INJECTED;'$(touch INJECTED2).yaml";
  testing::write_text(dir_ / config, kSweep);
  const std::string filter = "implementation=sequential,image.name!=it's";
  // Each argument goes through a file, so that this test's own shell runs none of it.
  testing::write_text(dir_ / "config.txt", config);
  testing::write_text(dir_ / "filter.txt", filter);
  const auto ran = testing::run_shell(
      "\"$CONVLAB\" run \"$(cat config.txt)\" --out out --quiet --max-points 1 --filter "
      "\"$(cat filter.txt)\" --shard 0/2",
      dir_);
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const auto merged = run("merge out");
  EXPECT_EQ(merged.exit_code, 1) << merged.output;
  const std::string marker = "shard 0 missing";
  const size_t at = merged.output.find("measure them with: ", merged.output.find(marker));
  ASSERT_NE(at, std::string::npos) << merged.output;
  const size_t begin = at + std::string("measure them with: ").size();
  const std::string command = merged.output.substr(begin, merged.output.find('\n', begin) - begin);
  testing::write_text(
      dir_ / "printed.sh",
      "convlab() { for a in \"$@\"; do printf '<%s>\\n' \"$a\"; done; }\n" + command + "\n");
  const auto words = testing::run_shell("sh printed.sh", dir_);
  EXPECT_EQ(words.exit_code, 0) << words.output;
  EXPECT_EQ(words.output, "<run>\n<" + config +
                              ">\n<--shard>\n<0/2>\n<--out>\n<out>\n<--filter>\n<" + filter + ">\n")
      << command;
  EXPECT_FALSE(fs::exists(dir_ / "INJECTED"));
  EXPECT_FALSE(fs::exists(dir_ / "INJECTED2"));
}

// Every file in tests/data/bad_shards/ replaces shard 1 of 3 of a complete set: merge must name
// it and each `# expect:` text, exit 2, and still merge the other two.
std::vector<std::string> bad_shards() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(CONVLAB_TEST_DATA) / "bad_shards"))
    if (entry.path().extension() == ".shard") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BadShardFile : public ::testing::TestWithParam<std::string> {
 protected:
  // One complete set of 3 shards, made once and copied for every corpus file.
  static void SetUpTestSuite() {
    made_ = testing::fresh_directory("bad-shard-set");
    testing::write_text(made_ / "sweep.yaml", kSweep);
    for (int shard = 0; shard < 3; ++shard)
      ASSERT_EQ(testing::run_convlab("run sweep.yaml --out out --quiet --filter "
                                     "implementation=sequential --shard " +
                                         std::to_string(shard) + "/3",
                                     made_)
                    .exit_code,
                0);
  }
  static void TearDownTestSuite() { fs::remove_all(made_); }
  static fs::path made_;
};
fs::path BadShardFile::made_;

TEST_P(BadShardFile, IsNamedAndTheOtherShardsAreMerged) {
  const fs::path dir = testing::fresh_directory("bad-shard-" + GetParam());
  fs::remove_all(dir);
  fs::copy(made_, dir, fs::copy_options::recursive);
  const auto records_of = [&](int shard) {
    return json::parse(testing::read_text(
        dir / ("out/shards/shard-" + std::to_string(shard) + "-of-3.json")))["records"]
        .size();
  };
  const size_t others = records_of(0) + records_of(2);
  fs::remove(dir / "out/results.json");
  const std::string corpus =
      testing::read_text(fs::path(CONVLAB_TEST_DATA) / "bad_shards" / (GetParam() + ".shard"));
  std::vector<std::string> expected;
  std::istringstream lines(corpus);
  std::string line;
  while (std::getline(lines, line) && line != "---")
    if (line.rfind("# expect: ", 0) == 0) expected.push_back(line.substr(10));
  ASSERT_FALSE(expected.empty()) << "corpus file without '# expect:' lines";
  const size_t body = corpus.find("\n---\n");
  ASSERT_NE(body, std::string::npos) << "corpus file without a '---' line before the content";
  // @CONFIG_SHA256@, @FILTER@ and @PARTITION@ stand for what the good shard files hold.
  const json part = json::parse(testing::read_text(dir / "out/shards/shard-0-of-3.json"))["part"];
  std::string content = corpus.substr(body + 5);
  content = std::regex_replace(content, std::regex("@CONFIG_SHA256@"),
                               part["config_sha256"].get<std::string>());
  content = std::regex_replace(content, std::regex("@FILTER@"), part["filter"].get<std::string>());
  content =
      std::regex_replace(content, std::regex("@PARTITION@"), part["partition"].get<std::string>());
  testing::write_text(dir / "out/shards/shard-1-of-3.json", content);

  const auto merged =
      testing::run_shell("ulimit -v 1048576; timeout 10 \"$CONVLAB\" merge out", dir);
  EXPECT_EQ(merged.exit_code, 2) << merged.output;
  EXPECT_NE(merged.output.find("out/shards/shard-1-of-3.json: "), std::string::npos)
      << merged.output;
  for (const auto& needle : expected)
    EXPECT_NE(merged.output.find(needle), std::string::npos)
        << "message lacks '" << needle << "': " << merged.output;
  EXPECT_NE(
      merged.output.find("merged 2 of 3 shard files (" + std::to_string(others) + " records)"),
      std::string::npos)
      << merged.output;
  EXPECT_EQ(json::parse(testing::read_text(dir / "out/results.json"))["records"].size(), others);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadShardFile, ::testing::ValuesIn(bad_shards()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace convlab
