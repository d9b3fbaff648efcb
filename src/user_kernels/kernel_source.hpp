// A user's own kernel as a config names it (docs/own-kernels.md): the source file, its language,
// its text and hash, and the macros one variant of it is compiled with. The params of the config
// become preprocessor macros, as Kernel Tuner's tunable parameters do: TILE: 16 gives TILE=16, a
// pair BLOCK: [32, 8] gives BLOCK_X=32 and BLOCK_Y=8, a word gives the word, true and false 1 and
// 0.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/problem.hpp"
#include "impl/implementation.hpp"
#include "user_kernels/source_snapshot.hpp"

namespace convlab {

enum class KernelLanguage { cuda, cpp, c };

std::string_view to_string(KernelLanguage language);
// The language of a source path by its extension (.cu, .cpp/.cc/.cxx, .c); nullopt for others.
std::optional<KernelLanguage> language_of(const std::string& path);

// The problem facts a source may take as compile-time constants: it is compiled once per value of
// each fact it mentions (CONVLAB_KSIZE, CONVLAB_CHANNELS, CONVLAB_OUTPUT anywhere in its text).
struct ProblemFacts {
  bool ksize = false;
  bool channels = false;
  bool output = false;
};

struct UserKernelSource {
  std::string implementation;  // the config's name for it
  std::string path;            // as the compiler and messages name it (relative to the working
                               // folder when below it, else absolute)
  std::string config_path;     // as written in the config, relative to the config's folder
  std::string absolute_path;   // lexically normal: its place in the compile's private folder
  KernelLanguage language = KernelLanguage::cpp;
  std::string text;
  std::string sha256;                  // of the text
  std::vector<IncludedFile> includes;  // the user's files it includes, read with it
  std::string version;                 // source_snapshot.hpp: what a record's identity names
  ProblemFacts mentions;               // in the source or any file it includes
};

// Reads the source and the files it includes (source_snapshot.hpp) and describes them; throws
// FileError naming the file when one cannot be read or is refused, is larger than
// kMaxKernelSourceBytes or is not UTF-8 text (results.json keeps the text).
UserKernelSource read_kernel_source(const std::string& implementation, const std::string& path,
                                    const std::string& config_path);
inline constexpr std::size_t kMaxKernelSourceBytes = kMaxSnapshotFileBytes;

// One macro: name and value, as -DNAME=VALUE.
using Define = std::pair<std::string, std::string>;

// What of a problem a variant may be compiled for.
struct ProblemShape {
  int ksize = 0;
  int channels = 0;
  OutputType output = OutputType::u8;
};

// The macros of one variant: the params in their order (threads excepted: a run-time setting),
// then the problem facts the source mentions.
std::vector<Define> variant_defines(const UserKernelSource& source, const Params& params,
                                    const ProblemShape& shape);

// Whether `name` can be a param of a user kernel: a C identifier that is not reserved (CONVLAB_*,
// threads, names starting with an underscore), at most 64 characters; else why not.
std::optional<std::string> param_name_problem(const std::string& name);

}  // namespace convlab
