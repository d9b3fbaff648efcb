#include "html/cpp_highlight.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <string_view>

#include "html/html_text.hpp"

namespace convlab {
namespace {

// C, C++ and CUDA keywords, with the CUDA qualifiers and the built-in index variables a kernel
// reads.
const std::set<std::string_view>& keywords() {
  static const std::set<std::string_view> words{"alignas",       "alignof",
                                                "asm",           "auto",
                                                "bool",          "break",
                                                "case",          "catch",
                                                "char",          "class",
                                                "const",         "constexpr",
                                                "const_cast",    "continue",
                                                "decltype",      "default",
                                                "delete",        "do",
                                                "double",        "dynamic_cast",
                                                "else",          "enum",
                                                "explicit",      "extern",
                                                "false",         "float",
                                                "for",           "friend",
                                                "goto",          "if",
                                                "inline",        "int",
                                                "long",          "mutable",
                                                "namespace",     "new",
                                                "noexcept",      "nullptr",
                                                "operator",      "private",
                                                "protected",     "public",
                                                "register",      "reinterpret_cast",
                                                "restrict",      "return",
                                                "short",         "signed",
                                                "sizeof",        "static",
                                                "static_assert", "static_cast",
                                                "struct",        "switch",
                                                "template",      "this",
                                                "throw",         "true",
                                                "try",           "typedef",
                                                "typename",      "union",
                                                "unsigned",      "using",
                                                "virtual",       "void",
                                                "volatile",      "while",
                                                "_Bool",         "__global__",
                                                "__device__",    "__host__",
                                                "__shared__",    "__constant__",
                                                "__restrict__",  "__forceinline__",
                                                "__noinline__",  "__launch_bounds__",
                                                "threadIdx",     "blockIdx",
                                                "blockDim",      "gridDim",
                                                "warpSize"};
  return words;
}

bool identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool identifier_part(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Highlighter {
 public:
  explicit Highlighter(const std::string& text) : text_(text) {}

  std::string html() {
    while (at_ < text_.size()) step();
    flush();
    return out_;
  }

 private:
  void step() {
    const char c = text_[at_];
    if (c == '\n') {
      line_start_ = true;
      plain_ += c;
      ++at_;
      return;
    }
    if (line_start_ && c == '#') return preprocessor();
    if (c != ' ' && c != '\t') line_start_ = false;
    if (starts("//")) return token("c-com", line_end(at_));
    if (starts("/*")) return token("c-com", block_comment_end());
    if (c == '"' || c == '\'') return token("c-str", quoted_end(at_, c));
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && at_ + 1 < text_.size() &&
         std::isdigit(static_cast<unsigned char>(text_[at_ + 1]))))
      return token("c-num", number_end());
    if (identifier_start(c)) return identifier();
    plain_ += c;
    ++at_;
  }

  // A directive to the end of its line (continuation lines included), its comments apart.
  void preprocessor() {
    line_start_ = false;
    const size_t end = line_end(at_);
    size_t from = at_;
    while (at_ < end) {
      const size_t line_comment = text_.find("//", at_);
      const size_t block_comment = text_.find("/*", at_);
      const size_t comment = std::min(line_comment, block_comment);
      if (comment >= end) break;
      at_ = comment;
      span("c-pre", from, at_);
      if (comment == line_comment) {
        token("c-com", end);
        return;
      }
      token("c-com", block_comment_end());
      from = at_;
      if (at_ > end) return;  // the comment ran past the directive's line
    }
    at_ = end;
    span("c-pre", from, end);
  }

  void identifier() {
    size_t end = at_;
    while (end < text_.size() && identifier_part(text_[end])) ++end;
    const std::string_view word(text_.data() + at_, end - at_);
    // A raw string literal: R"delimiter( ... )delimiter", also after an encoding prefix.
    if (end < text_.size() && text_[end] == '"' && !word.empty() && word.back() == 'R' &&
        (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
      return token("c-str", raw_string_end(end));
    }
    if (keywords().count(word)) return token("c-kw", end);
    plain_.append(word);
    at_ = end;
  }

  // Where the line that `from` is on ends (before its newline), a backslash-newline continuing it.
  size_t line_end(size_t from) const {
    for (size_t i = from; i < text_.size(); ++i) {
      if (text_[i] != '\n') continue;
      const bool continued =
          i > from &&
          (text_[i - 1] == '\\' || (text_[i - 1] == '\r' && i > from + 1 && text_[i - 2] == '\\'));
      if (!continued) return i;
    }
    return text_.size();
  }

  size_t block_comment_end() const {
    const size_t close = text_.find("*/", at_ + 2);
    return close == std::string::npos ? text_.size() : close + 2;
  }

  // A string or character literal ends at its closing quote, or unclosed at the line's end.
  size_t quoted_end(size_t from, char quote) const {
    for (size_t i = from + 1; i < text_.size(); ++i) {
      if (text_[i] == '\\') {
        ++i;
        continue;
      }
      if (text_[i] == quote) return i + 1;
      if (text_[i] == '\n') return i;
    }
    return text_.size();
  }

  size_t raw_string_end(size_t quote) const {
    const size_t open = text_.find('(', quote);
    if (open == std::string::npos || open - quote > 17) return quoted_end(quote, '"');
    const std::string close = ")" + text_.substr(quote + 1, open - quote - 1) + "\"";
    const size_t end = text_.find(close, open);
    return end == std::string::npos ? text_.size() : end + close.size();
  }

  // A preprocessing number: digits, letters, dots, digit separators and exponent signs.
  size_t number_end() const {
    size_t i = at_ + 1;
    while (i < text_.size()) {
      const char c = text_[i];
      const char before = text_[i - 1];
      const bool sign = (c == '+' || c == '-') &&
                        (before == 'e' || before == 'E' || before == 'p' || before == 'P');
      if (!(identifier_part(c) || c == '.' || c == '\'' || sign)) break;
      ++i;
    }
    return i;
  }

  bool starts(const char* what) const { return text_.compare(at_, std::strlen(what), what) == 0; }

  void token(const char* kind, size_t end) {
    span(kind, at_, end);
    at_ = end;
  }

  void span(const char* kind, size_t from, size_t end) {
    if (end <= from) return;
    flush();
    out_ += std::string("<span class=\"") + kind + "\">" +
            html_escape(std::string_view(text_).substr(from, end - from)) + "</span>";
  }

  void flush() {
    out_ += html_escape(plain_);
    plain_.clear();
  }

  const std::string& text_;
  size_t at_ = 0;
  bool line_start_ = true;
  std::string plain_, out_;
};

}  // namespace

std::string cpp_html(const std::string& source) {
  return Highlighter(source).html();
}

}  // namespace convlab
