// A problem in user input (config, image file, command line), reported as
//   <file>:<line>:<column>: <key path>: <message>
// and turned into exit code 2 by the CLI before anything is run or written.
#pragma once

#include <stdexcept>
#include <string>

namespace YAML {
class Node;
}

namespace convlab {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& file, int line, int column, const std::string& key_path,
              const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key_path() const { return key_path_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string key_path_;
  std::string message_;
};

// A key or value of the file as a message quotes it: 'text', at most 64 characters of it (then
// "..."), control characters written as \n, \t or \xNN. No message carries more of a file than
// the offending key and value, and none can break a line of the terminal or the page it goes to.
std::string quoted_value(const std::string& text);
// The same without the quotes, for a key in a key path.
std::string shown_text(const std::string& text);

// Where a YAML node came from, for error messages: the file, and the key path to the node such as
// "kernels[2].size". Passed down while walking a document.
struct YamlLocation {
  std::string file;
  std::string key_path;

  YamlLocation child(const std::string& key) const;  // "a" -> "a.key"
  YamlLocation index(size_t i) const;                // "a" -> "a[i]"
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;
};

}  // namespace convlab
