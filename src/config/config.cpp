#include "config/config.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "config/axis_values.hpp"
#include "config/config_keys.hpp"
#include "config/kernel_checks.hpp"
#include "config/search_spec.hpp"
#include "config/user_kernel_entry.hpp"
#include "config/yaml_load.hpp"
#include "config/yaml_read.hpp"
#include "core/closest_name.hpp"
#include "core/output_types.hpp"
#include "core/point_filter.hpp"
#include "filters/filter_library.hpp"
#include "images/image_source.hpp"
#include "impl/registry.hpp"
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

YAML::Node required(const YAML::Node& map, const std::string& key, const YamlLocation& where) {
  const YAML::Node node = map[key];
  if (!node) where.fail(map, "missing required key '" + key + "'");
  return node;
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
  const YAML::Node sizes = required(set, "sizes", where);
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
  const YAML::Node glob_node = required(set, "glob", where);
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

std::vector<ImageSpec> parse_images(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsSequence() || node.size() == 0)
    where.fail(node, "expected a list of image sets, e.g. - {type: generated, sizes: [512]}");
  std::vector<ImageSpec> images;
  for (size_t i = 0; i < node.size(); ++i) {
    const YamlLocation at = where.index(i);
    require_map(node[i], at);
    const std::string type = read_string(required(node[i], "type", at), at.child("type"));
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

std::vector<std::vector<double>> read_matrix(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsSequence() || node.size() == 0) where.fail(node, "matrix must be a list of rows");
  std::vector<std::vector<double>> rows;
  for (size_t i = 0; i < node.size(); ++i) {
    const YamlLocation row_at = where.index(i);
    if (!node[i].IsSequence()) row_at.fail(node[i], "each matrix row must be a list of numbers");
    std::vector<double> row;
    for (size_t j = 0; j < node[i].size(); ++j)
      row.push_back(read_number(node[i][j], row_at.index(j)));
    rows.push_back(row);
  }
  return rows;
}

const FilterDescriptor& read_kernel_type(const YAML::Node& entry, const YamlLocation& at) {
  const YamlLocation type_at = at.child("type");
  const std::string type = read_string(required(entry, "type", at), type_at);
  if (const FilterDescriptor* descriptor = find_filter_type(type)) return *descriptor;
  std::vector<std::string> type_names;
  for (const auto& descriptor : filter_types()) type_names.push_back(descriptor.type);
  const std::string guess = closest_name(type, type_names);
  type_at.fail(entry["type"], "unknown kernel type " + quoted_value(type) +
                                  (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                                  "; see `convlab list`");
}

std::string read_kernel_name(const YAML::Node& node, const YamlLocation& at) {
  const std::string name = read_string(node, at);
  if (name.size() > kMaxNameLength)
    at.fail(node, "name is longer than " + std::to_string(kMaxNameLength) +
                      " characters: it names files of the gallery");
  if (!std::regex_match(name, std::regex("[A-Za-z0-9_.-]+")))
    at.fail(node, "use letters, digits, '_', '-' and '.' only");
  return name;
}

// One parameter of a kernel entry into the request, as its descriptor says it is read; sizes are
// read apart (read_kernel_sizes), as they are swept.
void read_kernel_parameter(const FilterParameter& parameter, const YAML::Node& node,
                           const YamlLocation& at, FilterRequest& request) {
  switch (parameter.kind) {
    case FilterParameterKind::size:
      return;
    case FilterParameterKind::positive_number:
      request.*(parameter.number) = read_number(node, at);
      return;
    case FilterParameterKind::boolean:
      request.*(parameter.flag) = read_bool(node, at);
      return;
    case FilterParameterKind::name:
      request.custom_name = read_kernel_name(node, at);
      return;
    case FilterParameterKind::matrix:
      request.matrix = read_matrix(node, at);
      request.size = static_cast<int>(request.matrix.size());
      if (request.size % 2 == 0) at.fail(node, "matrix must have an odd number of rows");
      return;
  }
}

// Everything of a kernel entry but its size; a custom kernel's size is its matrix's.
FilterRequest read_kernel_request(const YAML::Node& entry, const YamlLocation& at,
                                  const FilterDescriptor& descriptor) {
  FilterRequest request;
  request.type = descriptor.type;
  for (const FilterParameter& parameter : descriptor.parameters) {
    const YAML::Node node =
        parameter.required ? required(entry, parameter.key, at) : entry[parameter.key];
    if (node) read_kernel_parameter(parameter, node, at.child(parameter.key), request);
  }
  return request;
}

// The sizes an entry sweeps, each with the node an error about it points at.
struct SizeChoice {
  int size;
  YAML::Node node;
  YamlLocation at;
};

std::vector<SizeChoice> read_kernel_sizes(const YAML::Node& entry, const YamlLocation& at,
                                          const FilterDescriptor& descriptor, int matrix_size) {
  // A kernel without a size parameter takes its size from its matrix.
  if (!descriptor.takes("size")) return {{matrix_size, entry["matrix"], at.child("matrix")}};
  if (!entry["size"]) return {{descriptor.fixed_size != 0 ? descriptor.fixed_size : 3, entry, at}};
  const YamlLocation size_at = at.child("size");
  std::vector<SizeChoice> sizes;
  for (const auto& size_node : read_sweep(entry["size"], size_at)) {
    const long long size = read_integer(size_node, size_at);
    if (size <= 0 || size % 2 == 0 || size > kMaxFilterSize)
      size_at.fail(size_node, "kernel size must be odd and between 1 and " +
                                  std::to_string(kMaxFilterSize) + ", got " + std::to_string(size));
    sizes.push_back({static_cast<int>(size), size_node, size_at});
  }
  return sizes;
}

std::vector<Filter> parse_kernels(const YAML::Node& node, const YamlLocation& where) {
  if (!node.IsSequence() || node.size() == 0)
    where.fail(node, "expected a list of kernels, e.g. - {type: gaussian, size: [3, 7]}");
  std::vector<Filter> filters;
  size_t weights = 0;
  for (size_t i = 0; i < node.size(); ++i) {
    const YamlLocation at = where.index(i);
    const YAML::Node entry = node[i];
    require_map(entry, at);
    const FilterDescriptor& descriptor = read_kernel_type(entry, at);
    std::vector<std::string> allowed{"type"};
    for (const auto& parameter : descriptor.parameters) allowed.push_back(parameter.key);
    require_known_keys(entry, at, allowed);
    FilterRequest request = read_kernel_request(entry, at, descriptor);
    for (const SizeChoice& choice : read_kernel_sizes(entry, at, descriptor, request.size)) {
      request.size = choice.size;
      weights += size_t(choice.size) * size_t(choice.size);
      if (filters.size() >= kMaxKernels || weights > kMaxKernelWeights)
        choice.at.fail(choice.node, "more than " + std::to_string(kMaxKernels) + " kernels or " +
                                        std::to_string(kMaxKernelWeights) +
                                        " weights in all; split the sweep into several configs");
      check_kernel_request(request, descriptor, entry, at, choice.node, choice.at);
      try {
        filters.push_back(make_filter(request));
      } catch (const FilterError& error) {
        // The one error normalising adds ("normalize: the weights sum to 0") belongs to its key.
        const bool normalizing =
            request.normalize && std::string(error.what()).rfind("normalize", 0) == 0;
        if (normalizing) at.child("normalize").fail(entry["normalize"], error.what());
        choice.at.fail(choice.node, error.what());
      }
      check_kernel_numbers(filters.back(), request, descriptor, entry, at, choice.node, choice.at);
    }
  }
  std::set<std::string> seen;
  for (const auto& filter : filters)
    if (!seen.insert(filter.name).second)
      where.fail(node, "kernel " + quoted_value(filter.name) + " appears twice");
  return filters;
}

template <typename Value, typename Parse>
std::vector<Value> parse_enum_sweep(const YAML::Node& node, const YamlLocation& where,
                                    const std::vector<std::string>& names, Parse parse) {
  std::vector<Value> values;
  for (const auto& item : read_sweep(node, where)) {
    const std::string text = read_string(item, where);
    const auto value = parse(text);
    if (!value) {
      std::string allowed;
      for (const auto& n : names) allowed += (allowed.empty() ? "" : ", ") + n;
      const std::string guess = closest_name(text, names);
      where.fail(item, "unknown value " + quoted_value(text) +
                           (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                           "; allowed: " + allowed);
    }
    if (std::find(values.begin(), values.end(), *value) == values.end()) values.push_back(*value);
  }
  return values;
}

std::vector<ImplementationSweep> parse_implementations(const YAML::Node& node,
                                                       const YamlLocation& where,
                                                       const std::string& config_folder) {
  require_map(node, where);
  if (node.size() == 0) where.fail(node, "name at least one implementation; see `convlab list`");
  std::vector<std::string> known;
  for (const auto& impl : implementation_registry()) known.push_back(impl.name);
  std::vector<ImplementationSweep> sweeps;
  for (const auto& entry : node) {
    const std::string name = entry.first.as<std::string>();
    const YamlLocation at = where.child(name);
    if (is_user_kernel_entry(entry.second)) {
      sweeps.push_back(parse_user_kernel_entry(name, entry.second, at, config_folder));
      continue;
    }
    const Implementation* impl = find_implementation(name);
    if (impl == nullptr) {
      const std::string guess = closest_name(name, known);
      at.fail(entry.first, "unknown implementation " + quoted_value(name) +
                               (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                               "; see `convlab list`, or name your own kernel's source: " + name +
                               ": {source: kernels/" + name + ".cu}");
    }
    const YAML::Node axes_node = entry.second;
    if (axes_node && !axes_node.IsNull() && !axes_node.IsMap())
      at.fail(axes_node, "expected a mapping of axes, e.g. {threads: [1, 2]}, or {}");
    std::vector<std::string> axis_names;
    for (const auto& axis : impl->axes) axis_names.push_back(axis.name);
    axis_names.push_back("search");
    if (axes_node && axes_node.IsMap()) {
      refuse_unbracketed_lists(axes_node, impl->axes, at);
      require_known_keys(axes_node, at, axis_names);
    }
    std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
    for (const auto& axis : impl->axes) {
      if (axes_node && axes_node.IsMap() && axes_node[axis.name])
        axes.emplace_back(axis.name,
                          read_axis_values(axis, axes_node[axis.name], at.child(axis.name)));
      else
        axes.emplace_back(axis.name, std::vector<nlohmann::json>{axis.default_value});
    }
    ImplementationSweep sweep;
    sweep.name = name;
    for (const auto& [axis, values] : axes) {
      sweep.axes[axis] = values;
      sweep.axis_list.push_back({axis, values});
    }
    sweeps.push_back(std::move(sweep));
    if (axes_node && axes_node.IsMap() && axes_node["search"])
      sweeps.back().search = parse_search(axes_node["search"], at.child("search"));
  }
  return sweeps;
}

// " (openmp, cpu_fused)": the implementations a config names, for messages about another one.
std::string implementations_words(const std::vector<ImplementationSweep>& sweeps) {
  std::string words;
  for (const auto& sweep : sweeps) words += (words.empty() ? "" : ", ") + sweep.name;
  return " (" + words + ")";
}

// Params as --filter writes them: "threads=1 schedule=static".
std::string params_words(const Params& params) {
  std::string words;
  for (const auto& [key, value] : params.items())
    words += (words.empty() ? "" : " ") + key + "=" + field_text(value);
  return words.empty() ? "{}" : words;
}

std::string combinations_words(const std::vector<Params>& combinations) {
  const size_t shown = std::min<size_t>(combinations.size(), 8);
  std::string words;
  for (size_t i = 0; i < shown; ++i) words += (i ? "; " : "") + params_words(combinations[i]);
  if (combinations.size() > shown)
    words += "; ... (" + std::to_string(combinations.size()) + " in all)";
  return words;
}

// "A=1|2|3 B=0|1": a searched implementation's params, for messages (its combinations are not
// listed).
std::string axis_values_words(const std::vector<SearchAxis>& axes) {
  std::string words;
  for (const auto& axis : axes) {
    words += (words.empty() ? "" : " ") + axis.name + "=";
    for (std::size_t v = 0; v < axis.values.size(); ++v)
      words += (v ? "|" : "") + field_text(axis.values[v]);
  }
  return words.empty() ? "{}" : words;
}

BaselineSpec parse_baseline(const YAML::Node& root, const std::vector<ImplementationSweep>& sweeps,
                            const YamlLocation& where) {
  BaselineSpec baseline;
  const YAML::Node node = root["baseline"];
  if (!node) {
    const auto by_default = std::find_if(sweeps.begin(), sweeps.end(), [](const auto& s) {
      return implementation_of(s).baseline_by_default;
    });
    baseline.implementation = (by_default != sweeps.end() ? *by_default : sweeps.front()).name;
    return baseline;
  }
  if (node.IsScalar()) {
    baseline.implementation = read_string(node, where);
  } else {
    require_known_keys(node, where, key_names(baseline_keys()));
    baseline.implementation =
        read_string(required(node, "implementation", where), where.child("implementation"));
    if (node["params"]) {
      require_map(node["params"], where.child("params"));
      baseline.params = yaml_to_json(node["params"]);
    }
  }
  const auto sweep = std::find_if(sweeps.begin(), sweeps.end(),
                                  [&](const auto& s) { return s.name == baseline.implementation; });
  if (sweep == sweeps.end())
    where.fail(node, quoted_value(baseline.implementation) +
                         " is not one of this config's implementations" +
                         implementations_words(sweeps));
  // A searched implementation's combinations are not listed: each param is checked on its own.
  const auto has_value = [&](const std::string& key, const nlohmann::json& value) {
    for (const auto& axis : sweep->axis_list)
      if (axis.name == key)
        return std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end();
    return false;
  };
  const bool any =
      sweep->domain
          ? std::all_of(baseline.params.items().begin(), baseline.params.items().end(),
                        [&](const auto& item) { return has_value(item.key(), item.value()); })
          : std::any_of(sweep->combinations.begin(), sweep->combinations.end(),
                        [&](const Params& p) {
                          for (const auto& [k, v] : baseline.params.items())
                            if (!p.contains(k) || p[k] != v) return false;
                          return true;
                        });
  if (!any)
    where.fail(node, "no combination of " + quoted_value(baseline.implementation) +
                         " has the params " + params_words(baseline.params) +
                         (sweep->domain
                              ? "; its params: " + axis_values_words(sweep->axis_list)
                              : "; its combinations: " + combinations_words(sweep->combinations)));
  return baseline;
}

GallerySpec parse_gallery(const YAML::Node& node, const Config& config, const YamlLocation& where) {
  if (!config.save_outputs)
    where.fail(node, "the gallery shows saved outputs: it needs save_outputs: true");
  require_map(node, where);
  require_known_keys(node, where, key_names(gallery_keys()));
  GallerySpec gallery;
  gallery.implementation =
      read_string(required(node, "implementation", where), where.child("implementation"));
  const bool configured =
      std::any_of(config.implementations.begin(), config.implementations.end(),
                  [&](const auto& s) { return s.name == gallery.implementation; });
  if (!configured)
    where.child("implementation")
        .fail(node["implementation"], quoted_value(gallery.implementation) +
                                          " is not one of this config's implementations" +
                                          implementations_words(config.implementations));
  return gallery;
}

// "1s", "500ms", "2min": max_seconds is a plain number of seconds; the message gives it.
void refuse_unit(const YAML::Node& node, const YamlLocation& at) {
  std::smatch parts;
  const std::string text = node.IsScalar() ? node.Scalar() : "";
  if (!std::regex_match(text, parts, std::regex(R"(\s*([0-9]*\.?[0-9]+)\s*(ms|s|sec|min|m)\s*)")))
    return;
  const double number = std::stod(parts[1].str());
  const std::string unit = parts[2].str();
  const double seconds = unit == "ms"                   ? number / 1000
                         : unit == "min" || unit == "m" ? number * 60
                                                        : number;
  std::ostringstream plain;
  plain << seconds;
  at.fail(node, "expected a number of seconds, got " + quoted_value(text) + "; write " +
                    plain.str() + " (the unit is in the key's name)");
}

MeasureSpec parse_measure(const YAML::Node& node, const YamlLocation& where, MeasureSpec measure,
                          bool allow_overrides) {
  if (!node) return measure;
  // Interleaving concerns every point of a problem together, so it is set for the whole config.
  if (!allow_overrides && node.IsMap() && node["interleave"])
    where.child("interleave")
        .fail(
            node["interleave"],
            "interleave is set for the whole config (measure.interleave), not per implementation");
  require_known_keys(node, where, key_names(measure_keys(allow_overrides)));
  auto read_count = [&](const char* key, int& out, long long minimum) {
    if (!node[key]) return;
    const long long v = read_integer(node[key], where.child(key));
    if (v < minimum || v > kMaxRepetitions)
      where.child(key).fail(node[key], std::string(key) + " must be between " +
                                           std::to_string(minimum) + " and " +
                                           std::to_string(kMaxRepetitions));
    out = static_cast<int>(v);
  };
  read_count("warmup", measure.warmup, 0);
  read_count("min_reps", measure.min_reps, 1);
  read_count("max_reps", measure.max_reps, 1);
  if (node["max_seconds"]) {
    refuse_unit(node["max_seconds"], where.child("max_seconds"));
    measure.max_seconds = read_number(node["max_seconds"], where.child("max_seconds"));
    if (measure.max_seconds <= 0)
      where.child("max_seconds").fail(node["max_seconds"], "max_seconds must be positive");
  }
  if (node["l2_flush"]) measure.l2_flush = read_bool(node["l2_flush"], where.child("l2_flush"));
  if (node["timeout"]) {
    refuse_unit(node["timeout"], where.child("timeout"));
    measure.timeout = read_number(node["timeout"], where.child("timeout"));
    if (!(measure.timeout > 0) || measure.timeout > 1e6)
      where.child("timeout").fail(node["timeout"], "timeout must be a number of seconds, above 0");
  }
  if (node["compile_timeout"]) {
    const YamlLocation at = where.child("compile_timeout");
    refuse_unit(node["compile_timeout"], at);
    measure.compile_timeout = read_number(node["compile_timeout"], at);
    if (!(measure.compile_timeout > 0) || measure.compile_timeout > 86400)
      at.fail(node["compile_timeout"],
              "compile_timeout must be a number of seconds, above 0 and "
              "at most 86400");
  }
  if (node["compile_memory_gib"]) {
    const YamlLocation at = where.child("compile_memory_gib");
    measure.compile_memory_gib = read_number(node["compile_memory_gib"], at);
    if (!(measure.compile_memory_gib >= 0.25) || measure.compile_memory_gib > 1024)
      at.fail(node["compile_memory_gib"],
              "compile_memory_gib must be a number of GiB from 0.25 to 1024 (a compiler needs "
              "some hundreds of MiB of address space)");
  }
  if (allow_overrides && node["interleave"])
    measure.interleave = read_bool(node["interleave"], where.child("interleave"));
  if (measure.max_reps < measure.min_reps)
    where.child("max_reps")
        .fail(node["max_reps"] ? node["max_reps"] : node, "max_reps is smaller than min_reps");
  return measure;
}

// The node an error about one value of an axis points at: that value in a swept list, else the
// axis, else the implementation's entry (the axis took its default).
std::pair<YAML::Node, YamlLocation> axis_value_node(const YAML::Node& entry, const YamlLocation& at,
                                                    const std::string& axis,
                                                    const nlohmann::json& value) {
  if (!entry.IsMap() || !entry[axis]) return {entry, at};
  const YAML::Node node = entry[axis];
  const YamlLocation axis_at = at.child(axis);
  // A list of values: of scalars, or of pairs ([16, 16] alone is one pair).
  const bool swept =
      node.IsSequence() && (value.is_primitive() || (node.size() > 0 && node[0].IsSequence()));
  if (swept)
    for (size_t i = 0; i < node.size(); ++i)
      if (yaml_to_json(node[i]) == value) return {node[i], axis_at.index(i)};
  return {node, axis_at};
}

// Launch shapes no device accepts. Grids grow with the image and blocks of some variants with
// its channels, so the widest, the tallest and the one with most channels are the ones to try.
void check_impossible_params(const Config& config, const YAML::Node& node,
                             const YamlLocation& where) {
  const auto by = [](auto edge) {
    return [edge](const ImageSpec& a, const ImageSpec& b) { return a.*edge < b.*edge; };
  };
  const ImageSpec& widest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::width));
  const ImageSpec& tallest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::height));
  const ImageSpec& deepest =
      *std::max_element(config.images.begin(), config.images.end(), by(&ImageSpec::channels));
  for (const auto& sweep : config.implementations) {
    const Implementation* impl = &implementation_of(sweep);
    if (!impl->impossible) continue;
    for (const Params& params : sweep.combinations)
      for (const ImageSpec* image : {&widest, &tallest, &deepest})
        if (const auto problem =
                impl->impossible(params, image->width, image->height, image->channels)) {
          const auto [value_node, value_at] = axis_value_node(
              node[sweep.name], where.child(sweep.name), problem->axis, params[problem->axis]);
          value_at.fail(value_node, problem->message);
        }
  }
}

// The product is computed, not expanded: the plan itself is built only when it is small enough.
void check_plan_size(const Config& config, const YAML::Node& node, const YamlLocation& where) {
  size_t per_problem = 0;
  // A search is one point of the plan per strategy and seed: its variants are walked.
  for (const auto& sweep : config.implementations)
    per_problem += sweep.domain ? sweep.search->strategies.size() * sweep.search->seeds.size()
                                : sweep.combinations.size();
  double points = double(per_problem);
  for (size_t factor :
       {config.images.size(), config.filters.size(), config.borders.size(), config.outputs.size()})
    points *= double(factor);
  if (points > double(kMaxPoints))
    where.fail(node, std::to_string(config.images.size()) + " images x " +
                         std::to_string(config.filters.size()) + " kernels x " +
                         std::to_string(config.borders.size()) + " borders x " +
                         std::to_string(config.outputs.size()) + " outputs x " +
                         std::to_string(per_problem) + " implementation settings is more than " +
                         std::to_string(kMaxPoints) +
                         " points; split the sweep into several configs");
}

double combinations_of(const ImplementationSweep& sweep) {
  double combinations = 1.0;
  for (const auto& axis : sweep.axis_list) combinations *= double(axis.values.size());
  return combinations;
}

// A sweep measures every combination: they are listed, as many as a plan may hold, and a grid's
// restrictions remove some.
void list_combinations(ImplementationSweep& sweep, const SearchDomain* restricted,
                       const YAML::Node& entry, const YamlLocation& at) {
  if (combinations_of(sweep) > double(kMaxPoints))
    at.fail(entry, "its axes give more than " + std::to_string(kMaxPoints) +
                       " combinations; split the sweep into several configs, or give it a search "
                       "with a budget, which walks the combinations instead of listing them "
                       "(docs/search.md)");
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
  for (const auto& axis : sweep.axis_list) axes.emplace_back(axis.name, axis.values);
  sweep.combinations = cartesian_product(axes);
  if (restricted == nullptr) return;
  std::vector<Params> kept;
  Coordinate at_value(sweep.axis_list.size(), 0);
  for (const Params& params : sweep.combinations) {
    if (restricted->restrictions.hold(at_value)) kept.push_back(params);
    for (std::size_t k = at_value.size(); k > 0; --k) {
      if (++at_value[k - 1] < static_cast<int>(sweep.axis_list[k - 1].values.size())) break;
      at_value[k - 1] = 0;
    }
  }
  sweep.combinations = std::move(kept);
}

// The config's search block goes to every implementation of several variants that has none of
// its own. A search that chooses its variants walks the combinations (config/search_domain.hpp);
// a sweep lists them, its restrictions removing those they rule out, and a grid search without
// restrictions or a budget is today's sweep.
void apply_searches(Config& config, const YAML::Node& root, const YamlLocation& top) {
  std::optional<SearchSpec> everywhere;
  if (root["search"]) everywhere = parse_search(root["search"], top.child("search"));
  for (auto& sweep : config.implementations) {
    const YAML::Node entry = root["implementations"][sweep.name];
    const YamlLocation entry_at = top.child("implementations").child(sweep.name);
    const bool own = sweep.search.has_value();
    if (!own && everywhere && combinations_of(sweep) > 1) sweep.search = everywhere;
    if (!sweep.search) {
      list_combinations(sweep, nullptr, entry, entry_at);
      continue;
    }
    const YAML::Node block = own ? entry["search"] : root["search"];
    const YamlLocation at = own ? entry_at.child("search") : top.child("search");
    auto domain = std::make_shared<const SearchDomain>(make_search_domain(
        sweep.axis_list, *sweep.search, block["restrict"], at.child("restrict")));
    if (!sweep.search->measures_everything()) {
      sweep.domain = std::move(domain);
      continue;
    }
    list_combinations(sweep, domain.get(), entry, entry_at);
    if (sweep.search->restrict.empty()) sweep.search.reset();
  }
}

nlohmann::json search_json(const SearchSpec& spec) {
  nlohmann::json strategies = nlohmann::json::array();
  for (SearchStrategy s : spec.strategies) strategies.push_back(std::string(to_string(s)));
  nlohmann::json j{{"strategy", strategies},
                   {"seed", spec.seeds},
                   {"restrict", spec.restrict},
                   {"objective", std::string(to_string(spec.objective))}};
  for (const SearchSetting& setting : search_settings())
    j[setting.key] = setting.whole ? nlohmann::json(std::llround(spec.setting(setting.key)))
                                   : nlohmann::json(spec.setting(setting.key));
  // Written only when not the default: the resolved form of earlier searches is kept.
  if (spec.ahead != kDefaultSearchAhead) j["ahead"] = spec.ahead;
  if (spec.budget) j["budget"] = *spec.budget;
  if (spec.max_seconds) j["max_seconds"] = *spec.max_seconds;
  return j;
}

nlohmann::json resolve(const Config& config) {
  nlohmann::json images = nlohmann::json::array();
  for (const auto& image : config.images) {
    nlohmann::json entry{{"name", image.name},
                         {"width", image.width},
                         {"height", image.height},
                         {"channels", image.channels}};
    if (image.kind == ImageSpec::Kind::generated) {
      entry["type"] = "generated";
      entry["seed"] = image.seed;
      entry["pattern"] = image.pattern;
    } else {
      entry["type"] = "file";
      entry["path"] = image.path;
    }
    images.push_back(entry);
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& filter : config.filters)
    kernels.push_back({{"name", filter.name},
                       {"type", filter.type},
                       {"size", filter.size},
                       {"parameters", filter.parameters},
                       {"separable", filter.separable}});
  nlohmann::json borders = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (Border b : config.borders) borders.push_back(std::string(to_string(b)));
  for (OutputType o : config.outputs) outputs.push_back(std::string(to_string(o)));
  nlohmann::json implementations = nlohmann::json::object();
  nlohmann::json searches = nlohmann::json::object();
  for (const auto& sweep : config.implementations) {
    implementations[sweep.name] = sweep.user ? resolved_user_kernel_entry(sweep) : sweep.axes;
    if (sweep.search) searches[sweep.name] = search_json(*sweep.search);
  }
  nlohmann::json resolved{
      {"name", config.name},
      {"title", config.title},
      {"description", config.description},
      {"images", images},
      {"kernels", kernels},
      {"border", borders},
      {"output", outputs},
      {"implementations", implementations},
      {"baseline",
       {{"implementation", config.baseline.implementation}, {"params", config.baseline.params}}},
      {"measure", measure_json(config.measure)},
      {"save_outputs", config.save_outputs}};
  // Written only when a search is configured: other configs keep the resolved form they had.
  if (!searches.empty()) resolved["searches"] = searches;
  if (config.save_outputs)
    resolved["gallery"] = {{"implementation", config.gallery.implementation}};
  for (const auto& [name, measure] : config.measure_overrides)
    resolved["measure"]["per_implementation"][name] = measure_json(measure);
  for (const auto& [key, value] : config.report.items()) resolved[key] = value;
  return resolved;
}

}  // namespace

const Implementation& implementation_of(const ImplementationSweep& sweep) {
  if (sweep.user) return *sweep.user;
  return *find_implementation(sweep.name);
}

nlohmann::json measure_json(const MeasureSpec& m) {
  nlohmann::json j{{"warmup", m.warmup},
                   {"min_reps", m.min_reps},
                   {"max_reps", m.max_reps},
                   {"max_seconds", m.max_seconds},
                   {"l2_flush", m.l2_flush}};
  // Written only when on: points of configs without it keep the identity they always had.
  if (m.interleave) j["interleave"] = true;
  if (m.timeout != MeasureSpec::kDefaultPointTimeout) j["timeout"] = m.timeout;
  if (m.compile_timeout != MeasureSpec::kDefaultCompileTimeout)
    j["compile_timeout"] = m.compile_timeout;
  if (m.compile_memory_gib != MeasureSpec::kDefaultCompileMemoryGib)
    j["compile_memory_gib"] = m.compile_memory_gib;
  return j;
}

const MeasureSpec& measure_for(const Config& config, const std::string& implementation) {
  const auto found = config.measure_overrides.find(implementation);
  return found != config.measure_overrides.end() ? found->second : config.measure;
}

std::uint64_t bytes_needed_for_image(int width, int height, int channels) {
  // input u8 + implementation output f32 + reference double + a second output for CPU scratch.
  const std::uint64_t values =
      std::uint64_t(width) * std::uint64_t(height) * std::uint64_t(channels);
  return values * (1 + 4 + 8 + 4);
}

Config load_config_unguarded(const ConfigFile& file, const YAML::Node& root,
                             const ConfigSectionCheck& check_sections) {
  Config config;
  const std::string& path = file.path;
  config.path = path;
  config.sha256 = file.sha256;
  const YamlLocation top{path, ""};
  if (!root.IsMap())
    top.fail(root,
             "a config is a YAML mapping with at least name, images, kernels and implementations");
  require_known_keys(root, top, key_names(top_level_keys()));

  config.name = read_string(required(root, "name", top), top.child("name"));
  if (config.name.size() > kMaxNameLength)
    top.child("name").fail(root["name"], "name is longer than " + std::to_string(kMaxNameLength) +
                                             " characters: it names outputs/<name>/");
  if (!std::regex_match(config.name, std::regex("[A-Za-z0-9_][A-Za-z0-9_.-]*")))
    top.child("name").fail(root["name"],
                           "name must be a safe identifier (letters, digits, '_', '-', '.'): it "
                           "names outputs/<name>/");
  config.title = root["title"] ? read_string(root["title"], top.child("title")) : config.name;
  config.description =
      root["description"] ? read_string(root["description"], top.child("description")) : "";
  config.images = parse_images(required(root, "images", top), top.child("images"));
  config.filters = parse_kernels(required(root, "kernels", top), top.child("kernels"));

  std::vector<std::string> border_names, output_names;
  for (Border b : all_borders()) border_names.emplace_back(to_string(b));
  for (OutputType o : all_output_types()) output_names.emplace_back(to_string(o));
  config.borders = root["border"] ? parse_enum_sweep<Border>(root["border"], top.child("border"),
                                                             border_names, parse_border)
                                  : std::vector<Border>{Border::replicate};
  config.outputs = root["output"]
                       ? parse_enum_sweep<OutputType>(root["output"], top.child("output"),
                                                      output_names, parse_output_type)
                       : std::vector<OutputType>{OutputType::u8};
  config.implementations =
      parse_implementations(required(root, "implementations", top), top.child("implementations"),
                            std::filesystem::path(path).parent_path().string());
  apply_searches(config, root, top);
  config.baseline = parse_baseline(root, config.implementations, top.child("baseline"));
  config.measure = parse_measure(root["measure"], top.child("measure"), MeasureSpec{}, true);
  for (const auto& sweep : config.implementations)
    if (config.measure.interleave && sweep.search && !sweep.search->measures_everything())
      top.child("measure")
          .child("interleave")
          .fail(root["measure"]["interleave"],
                "interleave times a problem's points together, known before they run; a search "
                "(" +
                    sweep.name + ") chooses its points as it goes: use one or the other");
  if (root["measure"] && root["measure"]["per_implementation"]) {
    const YAML::Node overrides = root["measure"]["per_implementation"];
    const YamlLocation at = top.child("measure").child("per_implementation");
    require_map(overrides, at);
    for (const auto& entry : overrides) {
      const std::string name = entry.first.as<std::string>();
      const bool configured =
          std::any_of(config.implementations.begin(), config.implementations.end(),
                      [&](const auto& s) { return s.name == name; });
      if (!configured)
        at.child(name).fail(entry.first, quoted_value(name) +
                                             " is not one of this config's implementations" +
                                             implementations_words(config.implementations));
      config.measure_overrides[name] =
          parse_measure(entry.second, at.child(name), config.measure, false);
    }
  }
  if (root["save_outputs"])
    config.save_outputs = read_bool(root["save_outputs"], top.child("save_outputs"));
  if (root["gallery"])
    config.gallery = parse_gallery(root["gallery"], config, top.child("gallery"));
  else if (config.save_outputs)
    config.gallery.implementation = config.implementations.front().name;
  if (check_sections)
    check_sections(root, top);  // export re-reads figures from the resolved config
  config.report = nlohmann::json::object();
  for (const char* key : {"derive", "figures", "tables"})
    if (root[key]) config.report[key] = yaml_to_json(root[key], YamlBooleans::true_false_only);
  check_plan_size(config, root["implementations"], top.child("implementations"));
  check_impossible_params(config, root["implementations"], top.child("implementations"));
  config.resolved = resolve(config);
  return config;
}

// Whatever a library throws while a config is read still names the config (and the key, where
// yaml-cpp's mark gives the place).
template <typename Load>
Config guarded_load(const std::string& path, const Load& load) {
  try {
    return load();
  } catch (const YAML::Exception& error) {
    throw ConfigError(path, error.mark.line + 1, error.mark.column + 1, "", error.msg);
  } catch (const std::bad_alloc&) {
    throw ConfigError(path, 0, 0, "", "not enough memory to validate this config");
  } catch (const std::filesystem::filesystem_error& error) {
    throw ConfigError(path, 0, 0, "", error.path1().string() + ": " + error.code().message());
  }
}

Config load_config(const std::string& path, const ConfigSectionCheck& check_sections) {
  return guarded_load(path, [&] { return load_config(read_config(path), check_sections); });
}

Config load_config(const ConfigFile& file, const ConfigSectionCheck& check_sections) {
  return guarded_load(
      file.path, [&] { return load_config_unguarded(file, parse_config(file), check_sections); });
}

Config load_config(const ConfigFile& file, const YAML::Node& root,
                   const ConfigSectionCheck& check_sections) {
  return guarded_load(file.path, [&] { return load_config_unguarded(file, root, check_sections); });
}

}  // namespace convlab
