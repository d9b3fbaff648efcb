#include "impl/user/kernel_source.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>

#include "core/file_io.hpp"
#include "core/sha256.hpp"

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

// Where `text` stops being UTF-8 (RFC 3629: no overlong forms, surrogates or code points above
// U+10FFFF), or npos.
std::size_t first_invalid_utf8(const std::string& text) {
  const auto byte = [&](std::size_t i) {
    return i < text.size() ? static_cast<unsigned char>(text[i]) : 0u;
  };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned c = byte(i);
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xBF;  // the range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    if (c >= 0xE0 && c <= 0xEF) length = 3;
    if (c >= 0xF0 && c <= 0xF4) length = 4;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
    if (length == 0 || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    i += length;
  }
  return std::string::npos;
}

// The line and column (from 1) of byte `at`, which is not a line break.
std::string line_and_column(const std::string& text, std::size_t at) {
  const std::size_t newline = text.rfind('\n', at);
  const std::size_t column = newline == std::string::npos ? at : at - newline - 1;
  const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
}

// The path as messages show it: relative to the working folder when it lies below it.
std::string shown_path(const std::string& path) {
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == nullptr) return path;
  const std::string base = std::string(cwd) + "/";
  return path.rfind(base, 0) == 0 ? path.substr(base.size()) : path;
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
  UserKernelSource source;
  source.implementation = implementation;
  source.path = shown_path(path);
  source.config_path = config_path;
  source.language = language_of(path).value_or(KernelLanguage::cpp);
  source.text = read_file(path, kMaxKernelSourceBytes);
  // results.json keeps the text (run.config.sources) and JSON holds UTF-8 only.
  if (const std::size_t bad = first_invalid_utf8(source.text); bad != std::string::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(source.text[bad]));
    throw FileError(source.path + ": not UTF-8 text (byte " + hex + " at " +
                    line_and_column(source.text, bad) +
                    "); the results keep the source's text, so save it as UTF-8");
  }
  source.sha256 = sha256_hex(source.text);
  source.mentions = {mentions(source.text, "CONVLAB_KSIZE"),
                     mentions(source.text, "CONVLAB_CHANNELS"),
                     mentions(source.text, "CONVLAB_OUTPUT")};
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
