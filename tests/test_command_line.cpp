// The command-line layer of every command (app/command_line.hpp): values, unknown options with a
// suggestion, repeated options, positional counts and the help it makes from the declarations.
#include "app/command_line.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "app/commands.hpp"

namespace convlab {
namespace {

struct Given {
  std::string config;
  std::optional<std::string> out;
  bool best = false;
  long count = 0;
  std::vector<std::string> more;
};

CommandLine example(Given& given) {
  CommandLine line("try", {{}, "Tries a command line.\n", "", "0 tried, 2 bad arguments"});
  line.positional("CONFIG", given.config)
      .value("--out", "DIR",
             "where the results go; a long explanation that the help wraps at a hundred columns "
             "so that every line of it fits a terminal of that width without breaking words",
             given.out)
      .flag("-b, --best", "the fastest only", given.best)
      .value("--count", "N", "how many",
             [&](const std::string& text) { given.count = parse_whole_number(text, 1, 9); });
  return line;
}

struct Outcome {
  std::optional<int> status;
  std::string out, err;
};

Outcome parse(const Arguments& args, Given& given) {
  std::ostringstream out, err;
  const auto status = example(given).parse(args, out, err);
  return {status, out.str(), err.str()};
}

TEST(CommandLine, StoresValuesFlagsAndPositionals) {
  Given given;
  const Outcome outcome = parse({"--out", "dir", "a.yaml", "-b", "--count", "3"}, given);
  EXPECT_FALSE(outcome.status) << outcome.err;
  EXPECT_EQ(given.config, "a.yaml");
  EXPECT_EQ(given.out, "dir");
  EXPECT_TRUE(given.best);
  EXPECT_EQ(given.count, 3);
}

TEST(CommandLine, AMissingValueIsNamed) {
  Given given;
  const Outcome outcome = parse({"a.yaml", "--out"}, given);
  EXPECT_EQ(outcome.status, 2);
  EXPECT_EQ(outcome.err.rfind("convlab try: --out needs a value\nusage: convlab try CONFIG", 0), 0u)
      << outcome.err;
}

TEST(CommandLine, AnUnknownOptionGetsTheClosestName) {
  Given given;
  const Outcome outcome = parse({"a.yaml", "--bets"}, given);
  EXPECT_EQ(outcome.status, 2);
  EXPECT_NE(outcome.err.find("convlab try: unknown option '--bets' (did you mean '--best'?)\n"),
            std::string::npos)
      << outcome.err;
}

TEST(CommandLine, ARepeatedOptionIsRefused) {
  Given given;
  const Outcome outcome = parse({"a.yaml", "--best", "-b"}, given);
  EXPECT_EQ(outcome.status, 2);
  EXPECT_NE(outcome.err.find("convlab try: --best is given twice"), std::string::npos)
      << outcome.err;
}

TEST(CommandLine, ABadValueIsNamedWithTheReason) {
  Given given;
  const Outcome outcome = parse({"a.yaml", "--count", "12"}, given);
  EXPECT_EQ(outcome.status, 2);
  EXPECT_NE(outcome.err.find("convlab try: --count 12: expected a whole number from 1 to 9"),
            std::string::npos)
      << outcome.err;
}

TEST(CommandLine, PositionalsAreCounted) {
  Given given;
  const Outcome missing = parse({"--best"}, given);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("convlab try: CONFIG is missing"), std::string::npos) << missing.err;
  Given again;
  const Outcome extra = parse({"a.yaml", "b.yaml"}, again);
  EXPECT_EQ(extra.status, 2);
  EXPECT_NE(extra.err.find("convlab try: unexpected argument 'b.yaml'"), std::string::npos)
      << extra.err;
}

TEST(CommandLine, RepeatedPositionalsTakeEveryArgumentLeft) {
  Given given;
  CommandLine line("many", {});
  line.positional(
      {"RESULTS", "", false, true, [&](const std::string& text) { given.more.push_back(text); }});
  std::ostringstream out, err;
  EXPECT_FALSE(line.parse({"a", "b", "c"}, out, err)) << err.str();
  EXPECT_EQ(given.more, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(line.usage(), "usage: convlab many [RESULTS...]\n");
}

TEST(CommandLine, HelpIsMadeFromTheDeclarationsWithinAHundredColumns) {
  Given given;
  const Outcome outcome = parse({"a.yaml", "--help"}, given);
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(outcome.out,
            "usage: convlab try CONFIG [--out DIR] [-b] [--count N]\n"
            "\n"
            "Tries a command line.\n"
            "\n"
            "options:\n"
            "  --out DIR   where the results go; a long explanation that the help wraps at a "
            "hundred columns so\n"
            "              that every line of it fits a terminal of that width without breaking "
            "words\n"
            "  -b, --best  the fastest only\n"
            "  --count N   how many\n"
            "\n"
            "Exit codes: 0 tried, 2 bad arguments\n");
}

TEST(CommandLine, EveryCommandOfTheTableIsListedInTheUsage) {
  const std::string usage = commands_usage();
  for (const CommandEntry& command : command_table())
    EXPECT_NE(usage.find("\n  " + command.name + " "), std::string::npos) << command.name;
  std::istringstream lines(usage);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
}

}  // namespace
}  // namespace convlab
