#include "config/flow_brackets.hpp"

#include <vector>

namespace convlab {
namespace {

struct Open {
  char bracket;
  int line, column;
  int line_indent;  // indentation of the line it opened on
};

bool starts_scalar(char previous) {
  return previous == '\0' || previous == ':' || previous == '-' || previous == ',' ||
         previous == '[' || previous == '{' || previous == '?';
}

class Scanner {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::optional<UnclosedBracket> run() {
    while (at_ < text_.size()) {
      if (line_start_ && !new_line()) return unclosed(line_);
      step();
    }
    if (!open_.empty()) return unclosed(0);
    return std::nullopt;
  }

 private:
  // At the first character of a line: skips block scalar lines, and says false when a bracket is
  // left open although the line goes back to block structure.
  bool new_line() {
    line_start_ = false;
    previous_ = '\0';
    size_t first = at_;
    while (first < text_.size() && (text_[first] == ' ' || text_[first] == '\t')) ++first;
    const int indent = static_cast<int>(first - at_);
    const bool blank = first >= text_.size() || text_[first] == '\n' || text_[first] == '#';
    if (block_scalar_indent_ >= 0) {
      if (blank || indent > block_scalar_indent_) return skip_line();
      block_scalar_indent_ = -1;
    }
    line_indent_ = indent;
    column_ = indent;
    at_ = first;
    if (blank || open_.empty()) return true;
    const char c = text_[first];
    return indent > open_.front().line_indent || c == '}' || c == ']';
  }

  bool skip_line() {
    while (at_ < text_.size() && text_[at_] != '\n') ++at_;
    return true;
  }

  void step() {
    const char c = text_[at_];
    if (c == '\n') {
      ++at_, ++line_, column_ = 0, line_start_ = true;
      return;
    }
    if (c == '#' && (at_ == 0 || text_[at_ - 1] == ' ' || text_[at_ - 1] == '\t')) {
      skip_line();
      return;
    }
    if ((c == '"' || c == '\'') && starts_scalar(previous_)) return skip_quoted(c);
    if ((c == '{' || c == '[') && starts_scalar(previous_))
      open_.push_back({c, line_, column_ + 1, line_indent_});
    else if ((c == '}' || c == ']') && !open_.empty())
      open_.pop_back();
    else if ((c == '|' || c == '>') && open_.empty() && previous_ == ':')
      block_scalar_indent_ = line_indent_;
    if (c != ' ' && c != '\t') previous_ = c;
    ++at_, ++column_;
  }

  void skip_quoted(char quote) {
    ++at_, ++column_;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\\' && quote == '"' && at_ + 1 < text_.size()) {
        at_ += 2, column_ += 2;
        continue;
      }
      if (c == '\n') ++line_, column_ = -1;
      ++at_, ++column_;
      if (c == quote) {
        if (quote == '\'' && at_ < text_.size() && text_[at_] == '\'') {  // '' inside '...'
          ++at_, ++column_;
          continue;
        }
        break;
      }
    }
    previous_ = 'x';  // a scalar was read
  }

  UnclosedBracket unclosed(int found_line) const {
    const Open& innermost = open_.back();
    return {innermost.bracket, innermost.line, innermost.column, found_line};
  }

  const std::string& text_;
  size_t at_ = 0;
  int line_ = 1, column_ = 0, line_indent_ = 0;
  bool line_start_ = true;
  char previous_ = '\0';
  int block_scalar_indent_ = -1;  // >= 0 while the lines of a | or > scalar are read
  std::vector<Open> open_;
};

}  // namespace

std::optional<UnclosedBracket> find_unclosed_bracket(const std::string& text) {
  return Scanner(text).run();
}

}  // namespace convlab
