#include "user_kernels/kernel_source.hpp"

#include <algorithm>
#include <cctype>

namespace convlab {
namespace {

bool ends_with(const std::string& text, std::string_view end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

bool mentions(const std::string& text, std::string_view name) {
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool word_end =
        end >= text.size() ||
        !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
    const bool word_start =
        at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    if (word_start && word_end) return true;
  }
  return false;
}

std::string define_value(const nlohmann::json& value) {
  if (value.is_boolean()) return value.get<bool>() ? "1" : "0";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

}  // namespace

std::string_view to_string(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::cuda:
      return "cuda";
    case KernelLanguage::cpp:
      return "c++";
    case KernelLanguage::c:
      return "c";
  }
  return "c++";
}

std::optional<KernelLanguage> language_of(const std::string& path) {
  if (ends_with(path, ".cu")) return KernelLanguage::cuda;
  if (ends_with(path, ".cpp") || ends_with(path, ".cc") || ends_with(path, ".cxx"))
    return KernelLanguage::cpp;
  if (ends_with(path, ".c")) return KernelLanguage::c;
  return std::nullopt;
}

UserKernelSource read_kernel_source(const std::string& implementation, const std::string& path,
                                    const std::string& config_path) {
  SourceSnapshot snapshot = take_snapshot(path);
  UserKernelSource source;
  source.implementation = implementation;
  source.path = snapshot.main.path;
  source.absolute_path = snapshot.main.absolute;
  source.config_path = config_path;
  source.language = language_of(path).value_or(KernelLanguage::cpp);
  source.text = std::move(snapshot.main.text);
  source.sha256 = snapshot.main.sha256;
  source.includes = std::move(snapshot.includes);
  source.version = snapshot.version;
  const auto any_mentions = [&](std::string_view name) {
    if (mentions(source.text, name)) return true;
    for (const IncludedFile& included : source.includes)
      if (mentions(included.file.text, name)) return true;
    return false;
  };
  source.mentions = {any_mentions("CONVLAB_KSIZE"), any_mentions("CONVLAB_CHANNELS"),
                     any_mentions("CONVLAB_OUTPUT")};
  return source;
}

std::vector<Define> variant_defines(const UserKernelSource& source, const Params& params,
                                    const ProblemShape& shape) {
  std::vector<Define> defines;
  for (const auto& [name, value] : params.items()) {
    if (name == "threads") continue;
    if (value.is_array() && value.size() == 2) {
      defines.emplace_back(name + "_X", define_value(value[0]));
      defines.emplace_back(name + "_Y", define_value(value[1]));
    } else {
      defines.emplace_back(name, define_value(value));
    }
  }
  if (source.mentions.ksize) defines.emplace_back("CONVLAB_KSIZE", std::to_string(shape.ksize));
  if (source.mentions.channels)
    defines.emplace_back("CONVLAB_CHANNELS", std::to_string(shape.channels));
  if (source.mentions.output)
    defines.emplace_back("CONVLAB_OUTPUT", shape.output == OutputType::u8 ? "0" : "1");
  return defines;
}

std::optional<std::string> param_name_problem(const std::string& name) {
  if (name.empty() || name.size() > 64) return "a param name has 1 to 64 characters";
  if (!(std::isalpha(static_cast<unsigned char>(name[0]))))
    return "a param name starts with a letter (it becomes a C macro)";
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return "a param name is letters, digits and underscores (it becomes a C macro)";
  if (name.rfind("CONVLAB_", 0) == 0) return "names starting with CONVLAB_ are convlab's own";
  if (name == "threads") return "threads is a key of its own, next to params";
  return std::nullopt;
}

}  // namespace convlab
