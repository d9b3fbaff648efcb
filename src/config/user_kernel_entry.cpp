#include "config/user_kernel_entry.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "config/axis_values.hpp"
#include "config/config_keys.hpp"
#include "config/yaml_load.hpp"
#include "config/yaml_read.hpp"
#include "core/file_io.hpp"
#include "impl/registry.hpp"
#include "user_kernels/user_implementation.hpp"

namespace convlab {
namespace {

constexpr long long kParamLimit = 1LL << 30;

bool is_pair(const YAML::Node& node) {
  return node.IsSequence() && node.size() == 2 && node[0].IsScalar() && node[1].IsScalar();
}

// The kind of a param from the values written: integers, pairs [x, y] (in a list of pairs),
// booleans or words; one kind per param.
AxisSpec param_axis(const std::string& name, const YAML::Node& node, const YamlLocation& at) {
  const std::vector<YAML::Node> values = node.IsSequence()
                                             ? std::vector<YAML::Node>(node.begin(), node.end())
                                             : std::vector<YAML::Node>{node};
  if (values.empty()) at.fail(node, "an empty list sweeps nothing; give at least one value");
  AxisSpec axis{name,         AxisKind::integer, "a param of this kernel", nullptr, {},
                -kParamLimit, kParamLimit};
  const auto kind_of = [&](const YAML::Node& value) {
    if (is_pair(value)) return AxisKind::integer_pair;
    if (!value.IsScalar())
      at.fail(value, "a param value is an integer, a pair [x, y], a word or true/false");
    const std::string text = value.Scalar();
    if (std::regex_match(text, std::regex(R"(-?[0-9]+)"))) return AxisKind::integer;
    if (text == "true" || text == "false") return AxisKind::boolean;
    if (!std::regex_match(text, std::regex("[A-Za-z_][A-Za-z0-9_]{0,63}")))
      at.fail(value, "'" + text.substr(0, 64) +
                         "' cannot be a macro's value: write an integer, a pair [x, y], "
                         "true/false or a word of letters, digits and underscores");
    axis.choices.push_back(text);
    return AxisKind::choice;
  };
  axis.kind = kind_of(values.front());
  for (const auto& value : values)
    if (kind_of(value) != axis.kind)
      at.fail(value, "the values of " + name +
                         " mix kinds: give all integers, all pairs [x, y], all words or all "
                         "true/false");
  return axis;
}

std::string resolve_source_path(const std::string& written, const std::string& config_folder) {
  const std::filesystem::path path(written);
  if (path.is_absolute() || config_folder.empty()) return written;
  return (std::filesystem::path(config_folder) / path).lexically_normal().string();
}

std::shared_ptr<const UserKernelSource> read_source(const std::string& name, const YAML::Node& node,
                                                    const YamlLocation& at,
                                                    const std::string& config_folder) {
  const std::string written = read_string(node, at);
  if (written.empty() || written.size() > 4096) at.fail(node, "give the path of a source file");
  if (!language_of(written))
    at.fail(node, "'" + written +
                      "' is not a kernel source: name a .cu (CUDA, compiled with NVRTC), "
                      ".cpp/.cc/.cxx or .c file");
  try {
    return std::make_shared<const UserKernelSource>(
        read_kernel_source(name, resolve_source_path(written, config_folder), written));
  } catch (const FileError& error) {
    at.fail(node, error.what());
  }
}

}  // namespace

bool is_user_kernel_entry(const YAML::Node& entry) {
  return entry && entry.IsMap() && entry["source"];
}

ImplementationSweep parse_user_kernel_entry(const std::string& name, const YAML::Node& entry,
                                            const YamlLocation& at,
                                            const std::string& config_folder) {
  if (find_implementation(name) != nullptr)
    at.fail(entry,
            "'" + name + "' is a built-in implementation; give your kernel a name of its own");
  if (!std::regex_match(name, std::regex(kUserKernelNamePattern)))
    at.fail(entry, "name your kernel with letters, digits, '_' and '-' (at most 64 characters)");
  require_known_keys(entry, at, key_names(user_kernel_keys()));
  auto source = read_source(name, entry["source"], at.child("source"), config_folder);
  const bool cuda = source->language == KernelLanguage::cuda;

  std::vector<AxisSpec> axes;
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> swept;
  if (const YAML::Node params = entry["params"]) {
    const YamlLocation params_at = at.child("params");
    require_map(params, params_at);
    for (const auto& param : params) {
      const std::string param_name = param.first.as<std::string>();
      const YamlLocation param_at = params_at.child(param_name);
      if (auto problem = param_name_problem(param_name)) param_at.fail(param.first, *problem);
      AxisSpec axis = param_axis(param_name, param.second, param_at);
      std::vector<nlohmann::json> values;
      // A list is always a list of values: a single pair is written [[16, 16]].
      if (param.second.IsSequence()) {
        for (std::size_t i = 0; i < param.second.size(); ++i) {
          nlohmann::json value = read_axis_value(axis, param.second[i], param_at.index(i));
          if (std::find(values.begin(), values.end(), value) == values.end())
            values.push_back(value);
        }
      } else {
        values.push_back(read_axis_value(axis, param.second, param_at));
      }
      axis.default_value = values.front();
      swept.emplace_back(param_name, values);
      axes.push_back(axis);
    }
  }
  if (const YAML::Node threads = entry["threads"]) {
    if (cuda)
      at.child("threads").fail(threads,
                               "threads is for CPU sources; a CUDA kernel's launch is "
                               "its CONVLAB_CUDA_PASS");
    AxisSpec axis{"threads", AxisKind::integer, "OpenMP threads", 1, {}, 1, 1024};
    swept.emplace_back("threads", read_axis_values(axis, threads, at.child("threads")));
    axes.push_back(axis);
  }
  ImplementationSweep sweep;
  sweep.name = name;
  for (const auto& [axis, values] : swept) {
    sweep.axes[axis] = values;
    sweep.axis_list.push_back({axis, values});
  }
  // The combinations are listed, or walked by a search, once the search blocks are read.
  sweep.user_source = source;
  sweep.user = std::make_shared<const Implementation>(make_user_implementation(source, axes));
  if (entry["search"]) sweep.search = parse_search(entry["search"], at.child("search"));
  return sweep;
}

std::optional<std::vector<std::string>> named_kernel_sources(const ConfigFile& config) {
  YAML::Node root;
  try {
    root = parse_config(config);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const YAML::Node implementations = root.IsMap() ? root["implementations"] : YAML::Node();
  if (!implementations || !implementations.IsMap()) return std::nullopt;
  const std::string folder = std::filesystem::path(config.path).parent_path().string();
  std::vector<std::string> sources;
  for (const auto& entry : implementations) {
    if (!is_user_kernel_entry(entry.second) || !entry.second["source"].IsScalar()) continue;
    const std::string written = entry.second["source"].Scalar();
    if (written.empty() || written.size() > 4096) continue;
    const std::string path = resolve_source_path(written, folder);
    sources.push_back(path);
    // The files it includes are the kernel too: an edited header is an edited kernel.
    try {
      for (const IncludedFile& included : take_snapshot(path).includes)
        sources.push_back(included.file.path);
    } catch (const FileError&) {
      // Read again, and refused with the reason, when the config is loaded.
    }
  }
  return sources;
}

nlohmann::json resolved_user_kernel_entry(const ImplementationSweep& sweep) {
  nlohmann::json entry{{"source", sweep.user_source->config_path},
                       {"sha256", sweep.user_source->sha256},
                       {"params", nlohmann::json::object()}};
  for (const auto& [axis, values] : sweep.axes.items()) {
    if (axis == "threads")
      entry["threads"] = values;
    else
      entry["params"][axis] = values;
  }
  return entry;
}

}  // namespace convlab
