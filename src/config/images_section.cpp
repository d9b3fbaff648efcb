#include "config/images_section.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "config/config_keys.hpp"
#include "images/image_source.hpp"
#include "measure/provenance.hpp"

namespace convlab {
namespace {

// "'noise' or 'scene'"
std::string or_words(const std::vector<std::string>& words) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + ("'" + words[i] + "'");
  return text;
}

// `file` names the image file the sizes come from, if any.
void check_image_budget(long long width, long long height, int channels, const YAML::Node& node,
                        const YamlLocation& where, const std::string& file = "") {
  if (width <= 0 || height <= 0)
    where.fail(node, "image sizes must be positive, got " + std::to_string(width) + "x" +
                         std::to_string(height));
  const std::string prefix = file.empty() ? "" : file + ": ";
  if (width > kMaxImageEdge || height > kMaxImageEdge)
    where.fail(node,
               prefix + "image edge larger than " + std::to_string(kMaxImageEdge) + " pixels");
  const std::uint64_t needed =
      bytes_needed_for_image(static_cast<int>(width), static_cast<int>(height), channels);
  const std::uint64_t available = available_memory_bytes();
  if (needed > available)
    where.fail(node, prefix + std::to_string(width) + "x" + std::to_string(height) + "x" +
                         std::to_string(channels) + " needs about " + std::to_string(needed >> 20) +
                         " MiB for input, output and reference; " + "only " +
                         std::to_string(available >> 20) + " MiB are available");
}

void check_image_count(const std::vector<ImageSpec>& images, const YAML::Node& node,
                       const YamlLocation& where) {
  if (images.size() > kMaxImages)
    where.fail(node, "more than " + std::to_string(kMaxImages) +
                         " images; split the sweep into several configs");
}

std::vector<int> read_channels(const YAML::Node& set, const YamlLocation& where) {
  std::vector<int> channels;
  if (!set["channels"]) return {3};
  const YamlLocation at = where.child("channels");
  for (const auto& node : read_sweep(set["channels"], at)) {
    const long long c = read_integer(node, at);
    const auto& counts = image_channel_counts();
    if (std::find(counts.begin(), counts.end(), c) == counts.end())
      at.fail(node, "channels must be 1 (gray) or 3 (RGB)");
    channels.push_back(static_cast<int>(c));
  }
  return channels;
}

// "2048x1536" reads as a name, not a size; the message says how to write one.
void refuse_size_with_x(const YAML::Node& size, const YamlLocation& at) {
  std::smatch parts;
  const std::string text = size.IsScalar() ? size.Scalar() : "";
  if (std::regex_match(text, parts, std::regex(R"(\s*([0-9]+)\s*[xX*]\s*([0-9]+)\s*)")))
    at.fail(size, quoted_value(text) + " is not a size: write [" + parts[1].str() + ", " +
                      parts[2].str() + "] (width, height), or one number for a square");
}

void parse_generated_set(const YAML::Node& set, const YamlLocation& where,
                         std::vector<ImageSpec>& images) {
  require_known_keys(set, where, key_names(generated_image_keys()));
  const YamlLocation sizes_at = where.child("sizes");
  const YAML::Node sizes = require_key(set, "sizes", where);
  std::uint64_t seed = 1;
  if (set["seed"]) {
    const long long value = read_integer(set["seed"], where.child("seed"));
    if (value < 0)
      where.child("seed").fail(
          set["seed"], "seed must be 0 or a positive integer, got " + std::to_string(value));
    seed = static_cast<std::uint64_t>(value);
  }
  const std::string pattern =
      set["pattern"] ? read_string(set["pattern"], where.child("pattern")) : "noise";
  const auto& patterns = image_patterns();
  if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
    where.child("pattern").fail(set["pattern"], "pattern must be " + or_words(patterns));
  const std::vector<int> channel_list = read_channels(set, where);
  const auto size_nodes = read_sweep(sizes, sizes_at);
  for (size_t i = 0; i < size_nodes.size(); ++i) {
    const YAML::Node& size = size_nodes[i];
    const YamlLocation at = sizes.IsSequence() ? sizes_at.index(i) : sizes_at;
    long long width = 0, height = 0;
    if (size.IsSequence()) {
      if (size.size() != 2) at.fail(size, "a size is N (square) or [width, height]");
      width = read_integer(size[0], at.index(0));
      height = read_integer(size[1], at.index(1));
    } else {
      refuse_size_with_x(size, at);
      width = height = read_integer(size, at);
    }
    for (int channels : channel_list) {
      check_image_budget(width, height, channels, size, at);
      ImageSpec spec;
      spec.kind = ImageSpec::Kind::generated;
      spec.width = static_cast<int>(width);
      spec.height = static_cast<int>(height);
      spec.channels = channels;
      spec.seed = seed;
      spec.pattern = pattern;
      spec.key_path = at.key_path;
      spec.name = pattern + "-" + std::to_string(width) + "x" + std::to_string(height) + "-c" +
                  std::to_string(channels) + "-s" + std::to_string(seed);
      images.push_back(spec);
      check_image_count(images, size, at);
    }
  }
}

std::vector<std::string> expand_glob(const std::string& pattern) {
  glob_t matches{};
  std::vector<std::string> paths;
  if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0)
    for (size_t i = 0; i < matches.gl_pathc; ++i) paths.emplace_back(matches.gl_pathv[i]);
  ::globfree(&matches);
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Images are read from regular files only: a directory cannot be decoded, and reading a FIFO or
// a device (/dev/zero) would block or never end.
void require_regular_file(const std::string& path, const YAML::Node& node,
                          const YamlLocation& where) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    where.fail(node, quoted_value(path) + ": " + std::strerror(errno));
  if (S_ISREG(info.st_mode)) return;
  const std::string kind = S_ISDIR(info.st_mode)    ? "a directory"
                           : S_ISFIFO(info.st_mode) ? "a FIFO"
                           : S_ISCHR(info.st_mode)  ? "a character device"
                           : S_ISBLK(info.st_mode)  ? "a block device"
                                                    : "not a regular file";
  where.fail(node,
             quoted_value(path) + " is " + kind + ", not an image file; match image files only");
}

void parse_file_set(const YAML::Node& set, const YamlLocation& where,
                    std::vector<ImageSpec>& images) {
  require_known_keys(set, where, key_names(file_image_keys()));
  const YamlLocation glob_at = where.child("glob");
  const YAML::Node glob_node = require_key(set, "glob", where);
  std::vector<std::string> paths;
  for (const auto& pattern_node : read_sweep(glob_node, glob_at)) {
    const std::string pattern = read_string(pattern_node, glob_at);
    const auto matched = expand_glob(pattern);
    if (matched.empty())
      glob_at.fail(pattern_node,
                   quoted_value(pattern) + " matches no file" +
                       (pattern.rfind("/usr/share/", 0) == 0
                            ? " (is the Debian package that ships it installed? "
                              "scripts/install-deps.sh photos installs the photographs)"
                            : ""));
    for (const auto& path : matched) require_regular_file(path, pattern_node, glob_at);
    paths.insert(paths.end(), matched.begin(), matched.end());
    if (paths.size() > kMaxImages)
      glob_at.fail(pattern_node, "matches more than " + std::to_string(kMaxImages) +
                                     " files; narrow it or set max_files");
  }
  if (set["max_files"]) {
    const long long limit = read_integer(set["max_files"], where.child("max_files"));
    if (limit <= 0) where.child("max_files").fail(set["max_files"], "must be positive");
    if (paths.size() > static_cast<size_t>(limit)) paths.resize(static_cast<size_t>(limit));
  }
  for (int channels : read_channels(set, where)) {
    for (const auto& path : paths) {
      Image decoded;
      try {
        // The header's dimensions are checked against the budget before anything is decoded.
        int width = 0, height = 0;
        probe_image_file(path, &width, &height);
        check_image_budget(width, height, channels, glob_node, glob_at, path);
        decoded = load_image_file(path, channels);  // proves the file decodes, before any run
      } catch (const ImageFileError& error) {
        glob_at.fail(glob_node, error.what());
      }
      ImageSpec spec;
      spec.kind = ImageSpec::Kind::file;
      spec.path = path;
      spec.key_path = glob_at.key_path;
      spec.width = decoded.width;
      spec.height = decoded.height;
      spec.channels = channels;
      spec.name = decoded.name;
      images.push_back(spec);
      check_image_count(images, glob_node, glob_at);
    }
  }
}

}  // namespace

std::vector<ImageSpec> parse_images(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsSequence() || node.size() == 0)
    where.fail(node, "expected a list of image sets, e.g. - {type: generated, sizes: [512]}");
  std::vector<ImageSpec> images;
  for (size_t i = 0; i < node.size(); ++i) {
    const YamlLocation at = where.index(i);
    require_map(node[i], at);
    const std::string type = read_string(require_key(node[i], "type", at), at.child("type"));
    if (type == kGeneratedImageSet)
      parse_generated_set(node[i], at, images);
    else if (type == kFileImageSet)
      parse_file_set(node[i], at, images);
    else
      at.child("type").fail(node[i]["type"],
                            "image set type must be " + or_words(image_set_types()));
  }
  std::set<std::string> seen;
  std::map<std::string, int> next_suffix;
  for (auto& image : images)
    if (!seen.insert(image.name).second) {
      // Two sets can produce the same name (same file twice): keep names unique in results.
      int& suffix = next_suffix.emplace(image.name, 2).first->second;
      while (!seen.insert(image.name + "-" + std::to_string(suffix)).second) ++suffix;
      image.name += "-" + std::to_string(suffix);
    }
  return images;
}

std::uint64_t bytes_needed_for_image(int width, int height, int channels) {
  // input u8 + implementation output f32 + reference double + a second output for CPU scratch.
  const std::uint64_t values =
      std::uint64_t(width) * std::uint64_t(height) * std::uint64_t(channels);
  return values * (1 + 4 + 8 + 4);
}

}  // namespace convlab
