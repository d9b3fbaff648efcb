#include "user_kernels/kernel_contract.hpp"

#include <algorithm>
#include <regex>

#include "impl/cuda/device_calls.hpp"

namespace convlab {
namespace {

std::optional<long long> find_int(const DeclaredInts& ints, const std::string& name) {
  for (const auto& [key, value] : ints)
    if (key == name) return value;
  return std::nullopt;
}

std::string words_of_borders(unsigned mask) {
  std::string words;
  for (Border border : all_borders())
    if (mask & (1u << static_cast<int>(border)))
      words += (words.empty() ? "" : ", ") + std::string(to_string(border));
  return words.empty() ? "none" : words;
}

}  // namespace

DeclaredInts declared_ints_of_ptx(std::string_view ptx) {
  static const std::regex line(
      R"(^\.(?:global|const)\s+\.align\s+\d+\s+\.[usb]32\s+(convlab_\w+)\s*(?:=\s*(-?\d+))?\s*;)",
      std::regex::multiline);
  DeclaredInts ints;
  const std::string text(ptx);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator();
       ++it)
    ints.emplace_back((*it)[1].str(), (*it)[2].matched ? std::stoll((*it)[2].str()) : 0);
  return ints;
}

std::vector<std::string> ptx_entries(std::string_view ptx) {
  static const std::regex entry(R"(\.entry\s+(\w+)\s*\()");
  std::vector<std::string> names;
  const std::string text(ptx);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
       it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].str());
  return names;
}

KernelContract contract_from_declarations(const DeclaredInts& ints,
                                          const std::vector<std::string>& entries) {
  KernelContract contract;
  const auto get = [&](const char* name, long long fallback) {
    return find_int(ints, name).value_or(fallback);
  };
  contract.version = static_cast<int>(get("convlab_contract", 0));
  contract.borders = static_cast<unsigned>(get("convlab_supported_borders", 31));
  contract.outputs = static_cast<unsigned>(get("convlab_supported_outputs", 3));
  contract.channels = static_cast<unsigned>(get("convlab_supported_channels", 10));
  contract.needs_separable = get("convlab_needs_separable", 0) != 0;
  contract.needs_scratch = get("convlab_needs_scratch", 0) != 0;
  contract.max_ksize = static_cast<int>(get("convlab_max_ksize", 0));
  contract.constant_capacity = static_cast<int>(get("convlab_constant_capacity", 0));
  for (int n = 1; n <= 2; ++n) {
    const std::string prefix = "convlab_pass" + std::to_string(n) + "_";
    const bool declared = find_int(ints, prefix + "block_x").has_value();
    const bool defined = std::find(entries.begin(), entries.end(),
                                   "convlab_pass" + std::to_string(n)) != entries.end();
    if (!declared && !defined) break;
    KernelPass pass;
    pass.block_x = static_cast<int>(get((prefix + "block_x").c_str(), 0));
    pass.block_y = static_cast<int>(get((prefix + "block_y").c_str(), 0));
    pass.pixels_x = static_cast<int>(get((prefix + "pixels_x").c_str(), 0));
    pass.pixels_y = static_cast<int>(get((prefix + "pixels_y").c_str(), 0));
    pass.shared_bytes = static_cast<int>(get((prefix + "shared_bytes").c_str(), 0));
    contract.passes.push_back(pass);
  }
  contract.has_cpu_entry =
      std::find(entries.begin(), entries.end(), "convlab_convolve") != entries.end();
  return contract;
}

std::optional<std::string> contract_problem(const KernelContract& contract, bool cuda) {
  if (contract.version == 0)
    return "declares no contract version: add CONVLAB_CONTRACT(" +
           std::to_string(kKernelContractVersion) + "); after #include <convlab/kernel.h>";
  if (contract.version != kKernelContractVersion)
    return "is written for kernel contract version " + std::to_string(contract.version) +
           "; this convlab speaks version " + std::to_string(kKernelContractVersion) +
           " (include/convlab/kernel.h, docs/own-kernels.md)";
  if (!cuda) {
    if (!contract.has_cpu_entry)
      return "defines no entry point: write CONVLAB_CPU_ENTRY(const convlab_problem* p) { ... }";
    return std::nullopt;
  }
  if (contract.passes.empty())
    return "defines no kernel: write CONVLAB_CUDA_PASS(1, block_x, block_y, pixels_x, "
           "pixels_y) { ... }";
  for (std::size_t i = 0; i < contract.passes.size(); ++i) {
    const KernelPass& pass = contract.passes[i];
    const std::string name = "pass " + std::to_string(i + 1);
    if (pass.block_x < 1 || pass.block_y < 1 || pass.pixels_x < 1 || pass.pixels_y < 1)
      return name + " declares block " + std::to_string(pass.block_x) + "x" +
             std::to_string(pass.block_y) + " covering " + std::to_string(pass.pixels_x) + "x" +
             std::to_string(pass.pixels_y) +
             " pixels: every value must be at least 1 (CONVLAB_CUDA_PASS)";
    if (static_cast<long long>(pass.block_x) * pass.block_y > 1024)
      return name + " declares a block of " + std::to_string(pass.block_x) + "x" +
             std::to_string(pass.block_y) + " threads, more than the 1024 a block may have";
    if (pass.shared_bytes < 0) return name + " declares negative shared memory";
  }
  if (contract.passes.size() > 1 && !contract.needs_scratch)
    return "has two passes but does not ask for the scratch image they pass through: add "
           "CONVLAB_NEEDS_SCRATCH();";
  return std::nullopt;
}

std::optional<UnmetNeed> contract_unmet_need(const KernelContract& contract,
                                             const Problem& problem) {
  const int border_bit = 1 << static_cast<int>(problem.border);
  if (!(contract.borders & border_bit))
    return UnmetNeed{"another border (it handles " + words_of_borders(contract.borders) + ")",
                     "the kernel handles the borders " + words_of_borders(contract.borders) +
                         ", not " + std::string(to_string(problem.border)) + " (CONVLAB_SUPPORTS)"};
  const int output_bit = problem.output == OutputType::u8 ? 1 : 2;
  if (!(contract.outputs & output_bit))
    return UnmetNeed{"another output type", "the kernel does not write " +
                                                std::string(to_string(problem.output)) +
                                                " output (CONVLAB_SUPPORTS)"};
  const int channels = problem.input.channels;
  if (channels < 0 || channels > 31 || !(contract.channels & (1u << channels)))
    return UnmetNeed{"another channel count", "the kernel does not handle images of " +
                                                  std::to_string(channels) +
                                                  " channel(s) (CONVLAB_SUPPORTS)"};
  if (contract.needs_separable && !problem.filter.separable)
    return UnmetNeed{"a separable (rank-1) kernel",
                     "kernel '" + problem.filter.name +
                         "' is not separable (rank > 1); the source declares "
                         "CONVLAB_NEEDS_SEPARABLE"};
  if (contract.max_ksize > 0 && problem.filter.size > contract.max_ksize)
    return UnmetNeed{"a kernel of at most " + std::to_string(contract.max_ksize) + "x" +
                         std::to_string(contract.max_ksize),
                     "kernel " + std::to_string(problem.filter.size) + "x" +
                         std::to_string(problem.filter.size) + " is larger than the " +
                         std::to_string(contract.max_ksize) +
                         " the source handles (CONVLAB_MAX_KSIZE)"};
  if (contract.constant_capacity > 0) {
    const long long needed = static_cast<long long>(problem.filter.size) * problem.filter.size +
                             (problem.filter.separable ? 2LL * problem.filter.size : 0);
    if (needed > contract.constant_capacity)
      return UnmetNeed{"fewer weights than its __constant__ buffer holds",
                       "kernel " + std::to_string(problem.filter.size) + "x" +
                           std::to_string(problem.filter.size) + " has " + std::to_string(needed) +
                           " weights and factors, more than the " +
                           std::to_string(contract.constant_capacity) +
                           " floats of CONVLAB_CONSTANT_WEIGHTS"};
  }
  return std::nullopt;
}

nlohmann::json to_json(const KernelContract& contract) {
  nlohmann::json passes = nlohmann::json::array();
  for (const KernelPass& pass : contract.passes)
    passes.push_back({{"block", {pass.block_x, pass.block_y}},
                      {"pixels", {pass.pixels_x, pass.pixels_y}},
                      {"shared_bytes", pass.shared_bytes}});
  return {{"version", contract.version},
          {"borders", contract.borders},
          {"outputs", contract.outputs},
          {"channels", contract.channels},
          {"needs_separable", contract.needs_separable},
          {"needs_scratch", contract.needs_scratch},
          {"max_ksize", contract.max_ksize},
          {"constant_capacity", contract.constant_capacity},
          {"passes", passes},
          {"cpu_entry", contract.has_cpu_entry}};
}

KernelContract contract_from_json(const nlohmann::json& json) {
  KernelContract contract;
  contract.version = json.at("version").get<int>();
  contract.borders = json.at("borders").get<unsigned>();
  contract.outputs = json.at("outputs").get<unsigned>();
  contract.channels = json.at("channels").get<unsigned>();
  contract.needs_separable = json.at("needs_separable").get<bool>();
  contract.needs_scratch = json.at("needs_scratch").get<bool>();
  contract.max_ksize = json.at("max_ksize").get<int>();
  contract.constant_capacity = json.at("constant_capacity").get<int>();
  for (const auto& pass : json.at("passes"))
    contract.passes.push_back({pass.at("block")[0].get<int>(), pass.at("block")[1].get<int>(),
                               pass.at("pixels")[0].get<int>(), pass.at("pixels")[1].get<int>(),
                               pass.at("shared_bytes").get<int>()});
  contract.has_cpu_entry = json.at("cpu_entry").get<bool>();
  return contract;
}

cuda::UserKernelModule launch_of(const KernelContract& contract) {
  cuda::UserKernelModule module;
  for (const KernelPass& pass : contract.passes)
    module.passes.push_back(
        {pass.block_x, pass.block_y, pass.pixels_x, pass.pixels_y, pass.shared_bytes});
  module.constant_capacity = contract.constant_capacity;
  module.needs_scratch = contract.needs_scratch;
  return module;
}

}  // namespace convlab
