#include "config/kernels_section.hpp"

#include <regex>
#include <set>
#include <string>

#include "config/config_keys.hpp"
#include "config/kernel_checks.hpp"
#include "core/closest_name.hpp"
#include "filters/filter_library.hpp"

namespace convlab {
namespace {

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
  const std::string type = read_string(require_key(entry, "type", at), type_at);
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
        parameter.required ? require_key(entry, parameter.key, at) : entry[parameter.key];
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

}  // namespace

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

}  // namespace convlab
