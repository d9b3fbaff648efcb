// The command line of a convlab command, declared once: its options, its positional arguments and
// its prose. The parser, `--help`, the usage synopsis and every argument error are made from the
// declarations, so each command reads its arguments, and refuses them, the same way: errors are
// "convlab COMMAND: ..." followed by the usage, exit status 2; help goes to standard output,
// exit status 0.
#pragma once

#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/point_filter.hpp"

namespace convlab {

using Arguments = std::vector<std::string>;

// Thrown by a store when a value cannot be used; what() is the reason, which the error message
// puts after the option and the value: "convlab run: --shard 3/2: REASON".
class ArgumentValueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Puts an argument's value (empty for a flag) where the command keeps it; may throw
// ArgumentValueError.
using StoreValue = std::function<void(const std::string&)>;

struct OptionSpec {
  std::string name;        // "--filter"
  std::string short_name;  // "-q", or empty
  std::string value_name;  // "EXPR"; empty for a flag
  std::string help;        // one paragraph: the help wraps it
  std::string heading;     // opens a group of options in the help with this line
  // "--serve [PORT]": the next argument is the value only when it is a number.
  bool value_optional = false;
  bool repeatable = false;  // else a second one is an error
  StoreValue store;
};

struct PositionalSpec {
  std::string name;  // "CONFIG"
  std::string help;  // listed with the options when not empty
  bool required = true;
  bool repeatable = false;  // takes every argument left ("RESULTS...")
  StoreValue store;
};

// The prose of a command's help, around the options.
struct CommandProse {
  // The forms of the command after "convlab NAME"; empty: one form made from the declarations.
  std::vector<std::string> synopsis;
  std::string description;  // as written: the paragraphs after the usage
  std::string epilogue;     // as written: after the options
  std::string exit_codes;   // one paragraph after "Exit codes:"
};

class CommandLine {
 public:
  CommandLine(std::string command, CommandProse prose);

  // name is "--force" or "-q, --quiet".
  CommandLine& flag(const std::string& name, const std::string& help, bool& target);
  CommandLine& flag(const std::string& name, const std::string& help, StoreValue store);
  CommandLine& value(const std::string& name, const std::string& value_name,
                     const std::string& help, std::string& target);
  CommandLine& value(const std::string& name, const std::string& value_name,
                     const std::string& help, std::optional<std::string>& target);
  CommandLine& value(const std::string& name, const std::string& value_name,
                     const std::string& help, StoreValue store);
  CommandLine& option(OptionSpec spec);
  CommandLine& positional(PositionalSpec spec);
  // A positional argument that must be given, once.
  CommandLine& positional(const std::string& name, std::string& target);
  // Opens a group of options in the help: the options declared next follow this line.
  CommandLine& heading(const std::string& line);

  // Stores every argument. nullopt: the command goes on; else its exit status, after printing the
  // help (0) or the error and the usage (2).
  std::optional<int> parse(const Arguments& args, std::ostream& out = std::cout,
                           std::ostream& err = std::cerr) const;
  // A rule of the command between its options, checked after parse: "convlab COMMAND: MESSAGE"
  // and the usage; returns 2.
  int refuse(const std::string& message, std::ostream& err = std::cerr) const;
  // For a command that records its command line in results.json (run, watch, slurm): an argument
  // that is not UTF-8 text is refused before anything runs, naming the byte; nullopt when all are.
  std::optional<int> refuse_non_utf8(const Arguments& args, std::ostream& err = std::cerr) const;

  std::string usage() const;
  std::string help() const;

 private:
  const OptionSpec* find(const std::string& argument) const;
  std::string suggestion(const std::string& argument) const;
  // Gives `value` to `store`; the exit status when it refuses it, after saying why.
  std::optional<int> store(const StoreValue& store, const std::string& name,
                           const std::string& value, std::ostream& err) const;

  std::string command_;
  CommandProse prose_;
  std::vector<OptionSpec> options_;
  std::vector<PositionalSpec> positionals_;
  std::string next_heading_;
};

// Stores shared by several commands.
// A number from min to max, written in decimal digits.
long parse_whole_number(const std::string& text, long min, long max);
// A change as a fraction: "5%", "5" and "0.05" are all five percent (a number of 1 or more is
// read as percent).
double parse_percentage(const std::string& text);
// A significance level, strictly between 0 and 1.
double parse_probability(const std::string& text);
// A value that cannot be empty (a folder name).
StoreValue non_empty_into(std::string& target);
// A whole number from min to max (parse_whole_number), into an integer of any width.
template <typename Integer>
StoreValue whole_number_into(Integer& target, long min, long max) {
  return [&target, min, max](const std::string& text) {
    target = static_cast<Integer>(parse_whole_number(text, min, max));
  };
}
// A value read by a parser that says why it refuses: std::optional<T> parse(text, &reason).
template <typename T, typename Parse>
StoreValue parsed_into(std::optional<T>& target, Parse parse) {
  return [&target, parse](const std::string& text) {
    std::string reason;
    if (!(target = parse(text, &reason))) throw ArgumentValueError(reason);
  };
}
// A point filter (core/point_filter.hpp).
inline StoreValue filter_into(std::optional<PointFilter>& target) {
  return parsed_into(target, parse_point_filter);
}

// `text` broken into lines of at most `width` columns, every line after the first indented by
// `indent` blanks; the first starts after `first` (which it includes).
std::string wrap_words(const std::string& first, const std::string& text, std::size_t indent,
                       std::size_t width = 100);

}  // namespace convlab
