// How `convlab history run` builds the convlab of a commit: a git worktree of the commit in a
// cache folder, configured with the CMake arguments of the build of this convlab (read from the
// CMakeCache.txt beside it) and built for the one target `convlab`. A build is cached by its
// commit and arguments: a stamp in its build folder says whether it succeeded, so neither a
// good nor a broken build is made twice. Only argument vectors and texts are made here; app/
// runs them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace convlab {

struct BuildRecipe {
  std::vector<std::string> cmake_args;  // "-DCMAKE_BUILD_TYPE=Release", ...
  unsigned jobs = 1;                    // cmake --build -j
  std::string target = "convlab";
};

// The arguments a build that made `cmake_cache` (the text of a CMakeCache.txt) was configured
// with, as far as they shape a build: the build type, the compilers and their launchers (ccache
// is shared that way), the CUDA architectures and every CONVLAB_ option. Cache entries of type
// INTERNAL and STATIC are CMake's own and left out.
std::vector<std::string> inherited_cmake_args(const std::string& cmake_cache);

// With no compiler launcher among `args` and ccache on PATH: the launchers that share its cache
// (a commit's build then reuses the objects of every other); `args` as they are otherwise.
std::vector<std::string> with_ccache(std::vector<std::string> args, bool ccache_available);

// The worktree of `commit` and its build folder under `cache`: cache/<commit> and
// cache/<commit>/build, laid out as a checkout and its build/, so that ccache (with base_dir)
// finds the objects of any other checkout built the same way.
std::string worktree_folder(const std::string& cache, const std::string& commit);
std::string build_folder(const std::string& cache, const std::string& commit);
std::string built_executable(const std::string& cache, const std::string& commit);

// git worktree add --detach FOLDER COMMIT (run in the repository).
std::vector<std::string> worktree_add_argv(const std::string& folder, const std::string& commit);
std::vector<std::string> configure_argv(const BuildRecipe& recipe, const std::string& source,
                                        const std::string& build);
std::vector<std::string> build_argv(const BuildRecipe& recipe, const std::string& build);

// The stamp a build leaves in its build folder: its recipe's digest, whether it built and why not.
struct BuildStamp {
  std::string recipe;  // recipe_digest
  bool built = false;
  std::string reason;  // the end of the build's log when it failed
  double seconds = 0.0;
};
inline constexpr const char* kBuildStampFile = "convlab-history-build.json";

// The SHA-256 of the recipe's arguments and target (not its jobs, which do not change the build).
std::string recipe_digest(const BuildRecipe& recipe);
std::string build_stamp_text(const BuildStamp& stamp);
// Nullopt for a text that is not a stamp (then the build is made again).
std::optional<BuildStamp> build_stamp_from_text(const std::string& text);

// The last `lines` lines of a log, for a reason: at most 2,000 characters, from the end.
std::string log_tail(const std::string& log, std::size_t lines);

}  // namespace convlab
