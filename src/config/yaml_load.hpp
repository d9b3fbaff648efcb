// Reading a config file into a YAML tree in bounded time and memory, before any key is looked at.
//
// yaml-cpp (0.7 in Debian 12, 0.8 in Ubuntu 24.04) shares an anchored node among its aliases when
// it loads a document, so loading is linear in the file; but every walk over the tree (ours, and
// its own conversions) visits an aliased subtree once per alias, so ten nested lists of ten
// aliases cost 10^10 visits. A first pass over the parser's events therefore counts the nodes
// the document has with every alias expanded, without expanding anything (an alias adds the size
// its anchor had), and measures the nesting depth; the tree is built only when both are within
// the limits. The same pass refuses what a strict reading of a config forbids: duplicate keys,
// keys that are not plain values, explicit tags, aliases inside their own anchor, and a second
// document.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace convlab {

struct YamlLimits {
  std::size_t max_file_bytes = std::size_t(1) << 20;  // 1 MiB: a large custom kernel is ~0.5 MiB
  // Scalars and collections, every alias expanded: yaml-cpp walks about 10^5 nodes a second, and
  // a 255x255 custom kernel has 65,000.
  std::size_t max_nodes = 200000;
  int max_depth = 64;  // nested lists and mappings
  // A key or a value: a name, a label, a title, a path, a parameter's value. A description (any
  // key named so) may be longer, as prose.
  std::size_t max_string_bytes = 4096;
  std::size_t max_text_bytes = 65536;
};

const YamlLimits& config_limits();

// The bytes of a config file. Refuses, with a ConfigError naming the path, anything that is not
// a regular file (directories, FIFOs, devices such as /dev/zero) before reading from it, and a
// file larger than `max_bytes`.
std::string read_config_file(const std::string& path, std::size_t max_bytes);

// A config file as a command reads it, once (read_config): every stage the command hands it to
// works on these bytes, so that the file is read once however many stages look at it.
struct ConfigFile {
  std::string path;
  std::string text;    // its bytes, within config_limits()
  std::string sha256;  // of text
};

// The one read of a config file by a command (read_config_file within config_limits()).
ConfigFile read_config(const std::string& path);

// The file's text as YAML (load_yaml_strictly within config_limits()).
YAML::Node parse_config(const ConfigFile& file);

// Parses `text` (the bytes of `path`) after the bounded, strict event pass described above.
// Every refusal is a ConfigError with file, line, column and the key path where it happened.
YAML::Node load_yaml_strictly(const std::string& text, const std::string& path,
                              const YamlLimits& limits);

}  // namespace convlab
