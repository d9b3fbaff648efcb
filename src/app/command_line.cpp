#include "app/command_line.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/closest_name.hpp"
#include "core/message_text.hpp"
#include "core/shell_quote.hpp"
#include "core/utf8_text.hpp"

namespace convlab {
namespace {

// Option names longer than this stand on a line of their own, their explanation below.
constexpr std::size_t kWidestInlineLabel = 22;
// What an error message quotes of an argument at most: a hostile argument stays one line.
constexpr std::size_t kQuotedLength = 64;

std::string clipped(const std::string& text) {
  return text.size() <= kQuotedLength ? text : text.substr(0, kQuotedLength) + "...";
}

bool is_option(const std::string& argument) {
  return argument.size() > 1 && argument[0] == '-';
}

bool is_number(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// The words of a synopsis form: split at blanks outside brackets, so "[--by FIELD]" stays whole.
std::vector<std::string> synopsis_tokens(const std::string& form) {
  std::vector<std::string> tokens(1);
  int depth = 0;
  for (char c : form) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c == ' ' && depth == 0) {
      if (!tokens.back().empty()) tokens.emplace_back();
    } else {
      tokens.back() += c;
    }
  }
  if (tokens.back().empty()) tokens.pop_back();
  return tokens;
}

std::string wrap_tokens(const std::string& first, const std::vector<std::string>& tokens,
                        std::size_t indent, std::size_t width) {
  std::string text, line = first;
  bool line_has_token = false;
  for (const std::string& token : tokens) {
    if (line_has_token && line.size() + 1 + token.size() > width) {
      text += line + "\n";
      line = std::string(indent, ' ');
      line_has_token = false;
    }
    line += (line_has_token ? " " : "") + token;
    line_has_token = true;
  }
  return text + line + "\n";
}

// " EXPR", " [PORT]" or nothing: what follows an option's name.
std::string value_part(const OptionSpec& option) {
  if (option.value_name.empty()) return "";
  return option.value_optional ? " [" + option.value_name + "]" : " " + option.value_name;
}

std::string option_label(const OptionSpec& option) {
  return (option.short_name.empty() ? "" : option.short_name + ", ") + option.name +
         value_part(option);
}

std::string option_in_synopsis(const OptionSpec& option) {
  return "[" + (option.short_name.empty() ? option.name : option.short_name) + value_part(option) +
         "]";
}

std::string positional_in_synopsis(const PositionalSpec& positional) {
  const std::string name = positional.name + (positional.repeatable ? "..." : "");
  return positional.required ? name : "[" + name + "]";
}

// One entry of the option list: the label, then its explanation from `column` on.
std::string entry(const std::string& label, const std::string& help, std::size_t column) {
  const std::string head = "  " + label;
  if (head.size() + 2 > column)
    return head + "\n" + wrap_words(std::string(column, ' '), help, column);
  return wrap_words(head + std::string(column - head.size(), ' '), help, column);
}

}  // namespace

std::string wrap_words(const std::string& first, const std::string& text, std::size_t indent,
                       std::size_t width) {
  std::istringstream stream(text);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return wrap_tokens(first, words, indent, width);
}

CommandLine::CommandLine(std::string command, CommandProse prose)
    : command_(std::move(command)), prose_(std::move(prose)) {}

CommandLine& CommandLine::flag(const std::string& name, const std::string& help, bool& target) {
  return flag(name, help, [&target](const std::string&) { target = true; });
}

CommandLine& CommandLine::flag(const std::string& name, const std::string& help, StoreValue store) {
  return value(name, "", help, std::move(store));
}

CommandLine& CommandLine::value(const std::string& name, const std::string& value_name,
                                const std::string& help, std::string& target) {
  return value(name, value_name, help, [&target](const std::string& text) { target = text; });
}

CommandLine& CommandLine::value(const std::string& name, const std::string& value_name,
                                const std::string& help, std::optional<std::string>& target) {
  return value(name, value_name, help, [&target](const std::string& text) { target = text; });
}

CommandLine& CommandLine::value(const std::string& name, const std::string& value_name,
                                const std::string& help, StoreValue store) {
  OptionSpec spec;
  const std::size_t comma = name.find(", ");
  spec.short_name = comma == std::string::npos ? "" : name.substr(0, comma);
  spec.name = comma == std::string::npos ? name : name.substr(comma + 2);
  spec.value_name = value_name;
  spec.help = help;
  spec.store = std::move(store);
  return option(std::move(spec));
}

CommandLine& CommandLine::option(OptionSpec spec) {
  if (spec.heading.empty()) spec.heading = next_heading_;
  next_heading_.clear();
  options_.push_back(std::move(spec));
  return *this;
}

CommandLine& CommandLine::positional(PositionalSpec spec) {
  positionals_.push_back(std::move(spec));
  return *this;
}

CommandLine& CommandLine::positional(const std::string& name, std::string& target) {
  return positional({name, "", true, false, [&target](const std::string& text) { target = text; }});
}

CommandLine& CommandLine::heading(const std::string& line) {
  next_heading_ = line;
  return *this;
}

const OptionSpec* CommandLine::find(const std::string& argument) const {
  for (const OptionSpec& option : options_)
    if (argument == option.name || (!option.short_name.empty() && argument == option.short_name))
      return &option;
  return nullptr;
}

std::string CommandLine::suggestion(const std::string& argument) const {
  std::vector<std::string> names;
  for (const OptionSpec& option : options_) names.push_back(option.name);
  const std::string closest = closest_name(argument, names);
  return closest.empty() ? "" : " (did you mean '" + closest + "'?)";
}

std::optional<int> CommandLine::parse(const Arguments& args, std::ostream& out,
                                      std::ostream& err) const {
  std::vector<std::string> positional_values;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& argument = args[i];
    if (argument == "--help" || argument == "-h") {
      out << help();
      return 0;
    }
    if (!is_option(argument)) {
      positional_values.push_back(argument);
      continue;
    }
    const OptionSpec* option = find(argument);
    if (!option)
      return refuse("unknown option '" + clipped(argument) + "'" + suggestion(argument), err);
    if (!seen.insert(option->name).second && !option->repeatable)
      return refuse(option->name + " is given twice", err);
    std::string value;
    if (option->value_optional) {
      if (i + 1 < args.size() && is_number(args[i + 1])) value = args[++i];
    } else if (!option->value_name.empty()) {
      if (i + 1 >= args.size()) return refuse(option->name + " needs a value", err);
      value = args[++i];
    }
    if (const auto status = store(option->store, option->name, value, err)) return status;
  }
  std::size_t next = 0;
  for (const PositionalSpec& positional : positionals_) {
    if (positional.required && next >= positional_values.size())
      return refuse(positional.name + " is missing", err);
    for (bool first = true; next < positional_values.size() && (first || positional.repeatable);
         first = false) {
      const std::string& value = positional_values[next++];
      if (const auto status = store(positional.store, positional.name, value, err)) return status;
    }
  }
  if (next < positional_values.size())
    return refuse("unexpected argument '" + clipped(positional_values[next]) + "'", err);
  return std::nullopt;
}

std::optional<int> CommandLine::store(const StoreValue& store, const std::string& name,
                                      const std::string& value, std::ostream& err) const {
  try {
    store(value);
    return std::nullopt;
  } catch (const ArgumentValueError& error) {
    return refuse(name + " " + shell_word(clipped(value)) + ": " + error.what(), err);
  }
}

std::optional<int> CommandLine::refuse_non_utf8(const Arguments& args, std::ostream& err) const {
  for (const std::string& argument : args)
    if (const std::size_t bad = first_invalid_utf8(argument); bad != std::string::npos)
      return refuse("the argument '" + clipped(argument) + "' is not UTF-8 text (" +
                        invalid_byte_words(argument, bad) +
                        "), and results.json records the command line as text; rename the file "
                        "or give another value",
                    err);
  return std::nullopt;
}

int CommandLine::refuse(const std::string& message, std::ostream& err) const {
  err << "convlab " << command_ << ": " << message << "\n" << usage();
  return 2;
}

std::string CommandLine::usage() const {
  std::vector<std::string> forms = prose_.synopsis;
  if (forms.empty()) {
    std::string form;
    for (const PositionalSpec& positional : positionals_)
      form += " " + positional_in_synopsis(positional);
    for (const OptionSpec& option : options_) form += " " + option_in_synopsis(option);
    forms.push_back(form);
  }
  std::string text;
  for (std::size_t i = 0; i < forms.size(); ++i) {
    const std::string first = (i == 0 ? "usage: convlab " : "       convlab ") + command_ + " ";
    const std::vector<std::string> tokens = synopsis_tokens(forms[i]);
    text += tokens.empty() ? first.substr(0, first.size() - 1) + "\n"
                           : wrap_tokens(first, tokens, first.size(), 100);
  }
  return text;
}

std::string CommandLine::help() const {
  std::size_t widest = 0;
  for (const OptionSpec& option : options_)
    widest = std::max(widest, std::min(option_label(option).size(), kWidestInlineLabel));
  for (const PositionalSpec& positional : positionals_)
    if (!positional.help.empty())
      widest = std::max(widest, std::min(positional.name.size(), kWidestInlineLabel));
  const std::size_t column = 2 + widest + 2;
  std::string text = usage();
  if (!prose_.description.empty()) text += "\n" + prose_.description;
  std::string entries;
  for (const PositionalSpec& positional : positionals_)
    if (!positional.help.empty()) entries += entry(positional.name, positional.help, column);
  for (const OptionSpec& option : options_) {
    if (!option.heading.empty()) entries += "\n" + option.heading + "\n";
    entries += entry(option_label(option), option.help, column);
  }
  if (!entries.empty())
    text += "\n" + std::string(entries.size() > 1 && entries[0] == '\n' ? "" : "options:\n") +
            (entries[0] == '\n' ? entries.substr(1) : entries);
  if (!prose_.epilogue.empty()) text += "\n" + prose_.epilogue;
  if (!prose_.exit_codes.empty()) text += "\n" + wrap_words("Exit codes: ", prose_.exit_codes, 0);
  return text;
}

long parse_whole_number(const std::string& text, long min, long max) {
  if (is_number(text) && text.size() <= 18) {
    const long number = std::stol(text);
    if (number >= min && number <= max) return number;
  }
  throw ArgumentValueError("expected a whole number from " + std::to_string(min) +
                           (max == LONG_MAX ? "" : " to " + std::to_string(max)));
}

double parse_percentage(const std::string& text) {
  std::string number = text;
  const bool percent = !number.empty() && number.back() == '%';
  if (percent) number.pop_back();
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(value >= 0)) throw ArgumentValueError("not a percentage");
  return percent || value >= 1 ? value / 100.0 : value;
}

double parse_probability(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0 && value < 1))
    throw ArgumentValueError("not a probability in (0, 1)");
  return value;
}

StoreValue non_empty_into(std::string& target) {
  return [&target](const std::string& text) {
    if (text.empty()) throw ArgumentValueError("cannot be empty");
    target = text;
  };
}

}  // namespace convlab
