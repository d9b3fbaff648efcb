#include "html/yaml_highlight.hpp"

#include <cctype>
#include <cstdlib>

#include "html/html_text.hpp"

namespace convlab {
namespace {

std::string span(const char* kind, const std::string& text) {
  if (text.empty()) return "";
  return std::string("<span class=\"") + kind + "\">" + html_escape(text) + "</span>";
}

bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && !std::isspace(static_cast<unsigned char>(text[0]));
}

bool is_boolean(const std::string& text) {
  for (const char* word : {"true", "false", "null", "yes", "no", "True", "False", "~"})
    if (text == word) return true;
  return false;
}

enum class Scan { go_on, found, stop };

// The first position of `text` outside quotes at which `look` says found, or npos (also when it
// says stop). Quotes open anywhere, or only as the first character (a quoted key).
template <typename Look>
size_t first_unquoted(const std::string& text, bool quote_first_only, Look look) {
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if ((c == '"' || c == '\'') && (!quote_first_only || i == 0)) {
      quote = c;
      continue;
    }
    const Scan seen = look(i);
    if (seen == Scan::found) return i;
    if (seen == Scan::stop) break;
  }
  return std::string::npos;
}

// Where a comment starts in `text` (a # at the start or after a space, outside quotes).
size_t comment_start(const std::string& text) {
  return first_unquoted(text, false, [&](size_t i) {
    const bool comment = text[i] == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t');
    return comment ? Scan::found : Scan::go_on;
  });
}

// A scalar with the space around it kept outside its span.
std::string scalar(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return html_escape(text);
  const size_t end = text.find_last_not_of(" \t") + 1;
  const std::string core = text.substr(begin, end - begin);
  const char* kind = "y-str";
  if (is_number(core)) kind = "y-num";
  if (is_boolean(core)) kind = "y-bool";
  return html_escape(text.substr(0, begin)) + span(kind, core) + html_escape(text.substr(end));
}

// A flow collection ([a, b], {k: v}): punctuation, keys and scalars.
std::string flow(const std::string& text) {
  std::string out, word;
  char quote = 0;
  const auto flush = [&] {
    out += scalar(word);
    word.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      word += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      word += c;
    } else if (c == '[' || c == ']' || c == '{' || c == '}' || c == ',') {
      flush();
      out += span("y-punct", std::string(1, c));
    } else if (c == ':' && (i + 1 == text.size() || text[i + 1] == ' ')) {
      out += span("y-key", word) + span("y-punct", ":");
      word.clear();
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

std::string value(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin != std::string::npos && (text[begin] == '[' || text[begin] == '{')) return flow(text);
  return scalar(text);
}

// The key of "key: value" (quoted keys included), or npos.
size_t key_colon(const std::string& text) {
  return first_unquoted(text, true, [&](size_t i) {
    const char c = text[i];
    if (c == '[' || c == '{') return Scan::stop;
    const bool colon = c == ':' && (i + 1 == text.size() || text[i + 1] == ' ');
    return colon ? Scan::found : Scan::go_on;
  });
}

std::string line_html(const std::string& line, int& block_indent) {
  const size_t indent = line.find_first_not_of(' ');
  if (indent == std::string::npos) return html_escape(line);
  if (block_indent >= 0) {
    if (static_cast<int>(indent) > block_indent) return span("y-str", line);
    block_indent = -1;
  }
  std::string body = line;
  std::string comment;
  const size_t hash = comment_start(line);
  if (hash != std::string::npos) {
    comment = line.substr(hash);
    body = line.substr(0, hash);
  }
  std::string out = html_escape(body.substr(0, std::min(indent, body.size())));
  std::string rest = indent < body.size() ? body.substr(indent) : "";
  while (rest.rfind("- ", 0) == 0 || rest == "-") {
    out += span("y-punct", "-");
    rest = rest.substr(1);
    const size_t space = rest.find_first_not_of(' ');
    out += html_escape(rest.substr(0, space == std::string::npos ? rest.size() : space));
    rest = space == std::string::npos ? "" : rest.substr(space);
  }
  const size_t colon = key_colon(rest);
  if (colon != std::string::npos) {
    out += span("y-key", rest.substr(0, colon)) + span("y-punct", ":");
    const std::string after = rest.substr(colon + 1);
    const size_t first = after.find_first_not_of(' ');
    if (first != std::string::npos && (after[first] == '|' || after[first] == '>')) {
      block_indent = static_cast<int>(indent);
      out += html_escape(after.substr(0, first)) + span("y-punct", after.substr(first));
    } else {
      out += value(after);
    }
  } else {
    out += value(rest);
  }
  return out + span("y-com", comment);
}

}  // namespace

std::string yaml_html(const std::string& yaml) {
  std::string out;
  int block_indent = -1;
  size_t start = 0;
  while (start < yaml.size()) {
    size_t end = yaml.find('\n', start);
    const bool last = end == std::string::npos;
    if (last) end = yaml.size();
    out += line_html(yaml.substr(start, end - start), block_indent);
    if (!last) out += "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace convlab
