#include "config/yaml_load.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <sstream>
#include <vector>

#include <yaml-cpp/eventhandler.h>

#include "config/config_error.hpp"
#include "config/flow_brackets.hpp"
#include "core/file_io.hpp"
#include "core/sha256.hpp"
#include "core/utf8_text.hpp"

namespace convlab {
namespace {

std::string mebibytes(std::size_t bytes) {
  std::ostringstream text;
  text << static_cast<double>(bytes) / double(1 << 20) << " MiB";
  return text.str();
}

// yaml-cpp reports "!!str" expanded; messages show what the file says.
std::string written_tag(const std::string& tag) {
  const std::string core = "tag:yaml.org,2002:";
  return tag.rfind(core, 0) == 0 ? "!!" + tag.substr(core.size()) : tag;
}

// The event pass: counts nodes with aliases expanded, tracks depth and key paths, and refuses
// what a config must not contain.
class StrictScan : public YAML::EventHandler {
 public:
  StrictScan(std::string path, const YamlLimits& limits)
      : path_(std::move(path)), limits_(limits) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1)
      fail(mark, "",
           "a second YAML document starts here; a config is one document (remove the '---' "
           "line, or split the file)");
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const std::string at = node_path();
    if (reading_key()) fail(mark, at, "a key is empty or null; give it a name");
    count(mark, at, 1);
    define_anchor(anchor, 1);
    finish_node();
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const std::string at = node_path();
    if (anchor >= anchor_sizes_.size() || anchor_sizes_[anchor] == kOpen)
      fail(mark, at, "an alias inside the node its anchor names repeats that node forever");
    if (reading_key()) {
      const auto scalar = anchor_scalars_.find(anchor);
      if (scalar == anchor_scalars_.end()) fail(mark, at, kKeyNotScalar);
      read_key(mark, scalar->second);
    }
    count(mark, at, anchor_sizes_[anchor]);
    finish_node();
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    const std::string at = node_path();
    check_tag(mark, at, tag);
    check_length(mark, at, value);
    count(mark, at, 1);
    define_anchor(anchor, 1);
    if (anchor != YAML::NullAnchor) anchor_scalars_[anchor] = value;
    if (reading_key()) read_key(mark, value);
    finish_node();
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, tag, anchor, false);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, tag, anchor, true);
  }
  void OnMapEnd() override { close(); }

 private:
  static constexpr std::size_t kOpen = std::size_t(-1);
  static constexpr const char* kKeyNotScalar = "a key must be a plain name, not a list or mapping";

  struct Frame {
    bool is_map = false;
    std::string path;
    std::size_t nodes_at_start = 0;
    YAML::anchor_t anchor = YAML::NullAnchor;
    bool expecting_key = true;             // maps: the next node is a key
    std::string key;                       // maps: the key of the value being read
    std::size_t index = 0;                 // lists: the index of the next item
    std::map<std::string, int> key_lines;  // maps: keys read so far, with their line
  };

  bool reading_key() const {
    return !frames_.empty() && frames_.back().is_map && frames_.back().expecting_key;
  }

  // yaml-cpp keeps duplicate keys and answers lookups with the first; a config must not depend
  // on which one wins.
  void read_key(const YAML::Mark& mark, const std::string& key) {
    Frame& map = frames_.back();
    const std::string at = map.path.empty() ? shown_text(key) : map.path + "." + shown_text(key);
    const auto [first, inserted] = map.key_lines.emplace(key, mark.line + 1);
    if (!inserted)
      fail(mark, at,
           "duplicate key " + quoted_value(key) + " (first at line " +
               std::to_string(first->second) + "); each key may appear once in a mapping");
    map.key = key;
  }

  void check_length(const YAML::Mark& mark, const std::string& at, const std::string& value) const {
    const bool text = !reading_key() && !frames_.empty() && frames_.back().is_map &&
                      frames_.back().key == "description";
    const std::size_t limit = text ? limits_.max_text_bytes : limits_.max_string_bytes;
    if (value.size() <= limit) return;
    fail(mark, at,
         std::string(reading_key() ? "a key" : "a value") + " of " + std::to_string(value.size()) +
             " bytes, longer than the " + std::to_string(limit) +
             " a config allows (docs/config.md, \"Limits\")");
  }

  // Only the non-specific tags yaml-cpp gives untagged ("?") and quoted ("!") nodes: convlab reads
  // every key as its documented type, so a tag could only be ignored or contradicted.
  void check_tag(const YAML::Mark& mark, const std::string& at, const std::string& tag) const {
    if (tag.empty() || tag == "?" || tag == "!") return;
    fail(mark, at,
         "tag " + quoted_value(written_tag(tag)) +
             " is not supported: every key has a documented type; remove the tag");
  }

  // The key path of the node about to be read: a key is reported at its mapping, a value at
  // mapping.key or list[i].
  std::string node_path() const {
    if (frames_.empty()) return "";
    const Frame& top = frames_.back();
    if (top.is_map) {
      if (top.expecting_key) return top.path;
      return top.path.empty() ? shown_text(top.key) : top.path + "." + shown_text(top.key);
    }
    return top.path + "[" + std::to_string(top.index) + "]";
  }

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& at,
                         const std::string& message) const {
    throw ConfigError(path_, mark.line + 1, mark.column + 1, at, message);
  }

  void count(const YAML::Mark& mark, const std::string& at, std::size_t nodes) {
    nodes_ += nodes;
    if (nodes_ > limits_.max_nodes)
      fail(mark, at,
           "the document has more than " + std::to_string(limits_.max_nodes) +
               " values with its aliases expanded (each use of an alias counts the whole node "
               "it names); a config needs far fewer");
  }

  void define_anchor(YAML::anchor_t anchor, std::size_t size) {
    if (anchor == YAML::NullAnchor) return;
    if (anchor >= anchor_sizes_.size()) anchor_sizes_.resize(anchor + 1, 0);
    anchor_sizes_[anchor] = size;
  }

  void open(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, bool is_map) {
    const std::string at = node_path();
    if (reading_key()) fail(mark, at, kKeyNotScalar);
    check_tag(mark, at, tag);
    count(mark, at, 1);
    if (static_cast<int>(frames_.size()) >= limits_.max_depth)
      fail(mark, at,
           "lists and mappings nested more than " + std::to_string(limits_.max_depth) +
               " deep; a config needs a handful of levels");
    Frame frame;
    frame.is_map = is_map;
    frame.path = at;
    frame.nodes_at_start = nodes_ - 1;
    frame.anchor = anchor;
    define_anchor(anchor, kOpen);
    frames_.push_back(std::move(frame));
  }

  void close() {
    const Frame frame = std::move(frames_.back());
    frames_.pop_back();
    define_anchor(frame.anchor, nodes_ - frame.nodes_at_start);
    finish_node();
  }

  // A key, a value or a list item is complete.
  void finish_node() {
    if (frames_.empty()) return;
    Frame& top = frames_.back();
    if (top.is_map)
      top.expecting_key = !top.expecting_key;
    else
      ++top.index;
  }

  std::string path_;
  const YamlLimits& limits_;
  std::vector<Frame> frames_;
  std::vector<std::size_t> anchor_sizes_;  // by anchor id; kOpen while the node is being read
  std::map<YAML::anchor_t, std::string> anchor_scalars_;  // anchors of scalars, for alias keys
  std::size_t nodes_ = 0;
  int documents_ = 0;
};

}  // namespace

const YamlLimits& config_limits() {
  static const YamlLimits limits;
  return limits;
}

std::string read_config_file(const std::string& path, std::size_t max_bytes) {
  // Looked at before it is opened: opening a FIFO or a device can block or have effects. A link
  // is refused, not followed: its target (any file of the machine, swapped in under a watched
  // config) would be read as a config, and its first line quoted in the messages.
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0)
    throw ConfigError(path, 0, 0, "",
                      std::string("cannot read the config file (") + std::strerror(errno) + ")");
  if (S_ISLNK(info.st_mode))
    throw ConfigError(path, 0, 0, "",
                      "is a symbolic link; give the config file itself, not a link to it");
  if (!S_ISREG(info.st_mode))
    throw ConfigError(
        path, 0, 0, "",
        "is " + file_kind_words(info.st_mode) + ", not a config file; give a YAML file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    throw ConfigError(path, 0, 0, "",
                      std::string("cannot read the config file (") + std::strerror(errno) + ")");
  // Checked again on what was opened, in case the path was replaced in between.
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw ConfigError(path, 0, 0, "", "is not a regular file; give a YAML file");
  }
  DescriptorRead read = read_descriptor(fd, max_bytes);
  ::close(fd);
  if (read.error != 0)
    throw ConfigError(
        path, 0, 0, "",
        std::string("cannot read the config file (") + std::strerror(read.error) + ")");
  if (read.too_large)
    throw ConfigError(path, 0, 0, "",
                      "the config file is larger than " + mebibytes(max_bytes) +
                          "; a config lists sweeps, not data");
  return std::move(read.bytes);
}

namespace {

// A bracket left open makes the parser fail further on, where nothing is wrong; when one opened
// before the place of the failure, it is the mistake to report.
void report_unclosed_bracket(const std::string& text, const std::string& path, int failed_line) {
  const auto unclosed = find_unclosed_bracket(text);
  if (!unclosed || unclosed->line > failed_line) return;
  const char closing = unclosed->bracket == '{' ? '}' : ']';
  const std::string where = unclosed->found_line > 0
                                ? "before line " + std::to_string(unclosed->found_line)
                                : "before the end of the file";
  throw ConfigError(path, unclosed->line, unclosed->column, "",
                    std::string("unclosed '") + unclosed->bracket + "': the " +
                        (unclosed->bracket == '{' ? "mapping" : "list") +
                        " opened here is not closed; add '" + closing + "' " + where);
}

}  // namespace

YAML::Node load_yaml_strictly(const std::string& text, const std::string& path,
                              const YamlLimits& limits) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    StrictScan scan(path, limits);
    while (parser.HandleNextDocument(scan)) {
    }
    return YAML::Load(text);
  } catch (const YAML::Exception& error) {
    report_unclosed_bracket(text, path, error.mark.line + 1);
    throw ConfigError(path, error.mark.line + 1, error.mark.column + 1, "",
                      "YAML syntax error: " + error.msg);
  } catch (const ConfigError& error) {
    report_unclosed_bracket(text, path, error.line() > 0 ? error.line() : 1 << 30);
    throw;
  }
}

ConfigFile read_config(const std::string& path) {
  // results.json records the path and every string of the config, and JSON holds UTF-8 only: what
  // is not UTF-8 is refused before anything is measured that could then not be recorded.
  if (const std::size_t bad = first_invalid_utf8(path); bad != std::string_view::npos)
    throw ConfigError(path, 0, 0, "",
                      "the path is not UTF-8 text (" + invalid_byte_words(path, bad) +
                          "), and results.json records it as text; rename the file");
  ConfigFile file{path, read_config_file(path, config_limits().max_file_bytes), ""};
  if (const std::size_t bad = first_invalid_utf8(file.text); bad != std::string_view::npos) {
    const std::size_t line_start = file.text.rfind('\n', bad);
    const std::size_t column = line_start == std::string::npos ? bad : bad - line_start - 1;
    const auto line =
        std::count(file.text.begin(), file.text.begin() + static_cast<long>(bad), '\n');
    throw ConfigError(
        path, static_cast<int>(line) + 1, static_cast<int>(column) + 1, "",
        "not UTF-8 text (" + invalid_byte_words(file.text, bad) + "); save the config as UTF-8");
  }
  file.sha256 = sha256_hex(file.text);
  return file;
}

YAML::Node parse_config(const ConfigFile& file) {
  return load_yaml_strictly(file.text, file.path, config_limits());
}

}  // namespace convlab
