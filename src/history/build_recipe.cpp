#include "history/build_recipe.hpp"

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "core/sha256.hpp"

namespace convlab {
namespace {

// NAME:TYPE=VALUE, a line of a CMakeCache.txt.
struct CacheEntry {
  std::string name, type, value;
};

std::optional<CacheEntry> cache_entry(const std::string& line) {
  if (line.empty() || line[0] == '#' || line.compare(0, 2, "//") == 0) return std::nullopt;
  const std::size_t equals = line.find('=');
  const std::size_t colon = line.find(':');
  if (equals == std::string::npos || colon == std::string::npos || colon > equals)
    return std::nullopt;
  return CacheEntry{line.substr(0, colon), line.substr(colon + 1, equals - colon - 1),
                    line.substr(equals + 1)};
}

bool shapes_the_build(const CacheEntry& entry) {
  if (entry.type == "INTERNAL" || entry.type == "STATIC") return false;
  const std::string not_found = "-NOTFOUND";
  const bool found =
      entry.value.size() < not_found.size() ||
      entry.value.compare(entry.value.size() - not_found.size(), not_found.size(), not_found) != 0;
  if (entry.value.empty() || !found) return false;
  static const std::regex kept(
      "CMAKE_BUILD_TYPE|CMAKE_(C|CXX|CUDA)_COMPILER(_LAUNCHER)?|CMAKE_CUDA_ARCHITECTURES|"
      "CONVLAB_[A-Z0-9_]+");
  return std::regex_match(entry.name, kept);
}

bool has_launcher(const std::vector<std::string>& args) {
  for (const auto& arg : args)
    if (arg.find("_COMPILER_LAUNCHER") != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<std::string> inherited_cmake_args(const std::string& cmake_cache) {
  std::vector<std::string> args;
  std::istringstream lines(cmake_cache);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto entry = cache_entry(line);
    if (entry && shapes_the_build(*entry)) args.push_back("-D" + entry->name + "=" + entry->value);
  }
  return args;
}

std::vector<std::string> with_ccache(std::vector<std::string> args, bool ccache_available) {
  if (!ccache_available || has_launcher(args)) return args;
  for (const char* language : {"C", "CXX", "CUDA"})
    args.push_back(std::string("-DCMAKE_") + language + "_COMPILER_LAUNCHER=ccache");
  return args;
}

std::string worktree_folder(const std::string& cache, const std::string& commit) {
  return cache + "/" + commit;
}

std::string build_folder(const std::string& cache, const std::string& commit) {
  return worktree_folder(cache, commit) + "/build";
}

std::string built_executable(const std::string& cache, const std::string& commit) {
  return build_folder(cache, commit) + "/convlab";
}

std::vector<std::string> worktree_add_argv(const std::string& folder, const std::string& commit) {
  return {"git", "worktree", "add", "--detach", "--force", "--", folder, commit};
}

std::vector<std::string> configure_argv(const BuildRecipe& recipe, const std::string& source,
                                        const std::string& build) {
  std::vector<std::string> argv{"cmake", "-S", source, "-B", build};
  argv.insert(argv.end(), recipe.cmake_args.begin(), recipe.cmake_args.end());
  return argv;
}

std::vector<std::string> build_argv(const BuildRecipe& recipe, const std::string& build) {
  return {"cmake", "--build", build, "--target", recipe.target, "-j", std::to_string(recipe.jobs)};
}

std::string recipe_digest(const BuildRecipe& recipe) {
  std::string text = recipe.target;
  for (const auto& arg : recipe.cmake_args) text += '\0' + arg;
  return sha256_hex(text);
}

std::string build_stamp_text(const BuildStamp& stamp) {
  return nlohmann::json{{"recipe", stamp.recipe},
                        {"built", stamp.built},
                        {"reason", stamp.reason},
                        {"seconds", stamp.seconds}}
             .dump(1) +
         "\n";
}

std::optional<BuildStamp> build_stamp_from_text(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    BuildStamp stamp;
    stamp.recipe = j.at("recipe").get<std::string>();
    stamp.built = j.at("built").get<bool>();
    stamp.reason = j.value("reason", "");
    stamp.seconds = j.value("seconds", 0.0);
    return stamp;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string log_tail(const std::string& log, std::size_t lines) {
  constexpr std::size_t kLimit = 2000;
  std::size_t start = log.size();
  while (start > 0 && (log[start - 1] == '\n' || log[start - 1] == ' ')) --start;
  const std::size_t end = start;
  for (std::size_t seen = 0; start > 0; --start)
    if (log[start - 1] == '\n' && ++seen == lines) break;
  std::string tail = log.substr(start, end - start);
  if (tail.size() > kLimit) tail = "..." + tail.substr(tail.size() - kLimit);
  return tail;
}

}  // namespace convlab
