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
