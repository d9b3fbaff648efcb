// Compiling a user's kernel, one variant (params and problem facts as macros) at a time, into the
// kernel cache: a .cu with NVRTC into a cubin for the device's architecture (and its PTX, where the
// contract is read), a .c/.cpp with the system compiler into a shared library, with the flags
// convlab's own CPU implementations get. A variant is compiled once: its entry in the cache is
// keyed by the version of the source's snapshot (the source and every file it includes), the
// macros, the compiler and its version, the flags, the architecture and the contract header, and
// found again by every later run.
//
// Every compile works from the snapshot laid out in the entry's private folder (private_tree.hpp),
// never from the files on disk, and runs in a process of its own bounded in time and address
// space (CompileLimits): the C/C++ compiler, and NVRTC in a child (`convlab nvrtc-compile`), so
// that an include of a FIFO, a macro bomb or a runaway template stops at a limit it names.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "user_kernels/kernel_contract.hpp"
#include "user_kernels/kernel_source.hpp"

namespace convlab {

// The compiler as results record it.
struct CompilerFacts {
  std::string name;     // "NVRTC" or the C++ compiler's path
  std::string version;  // "13.0", or the first line of `c++ --version`
  std::vector<std::string> flags;
};

struct VariantRequest {
  const UserKernelSource* source = nullptr;
  Params params;
  ProblemShape shape;
  int cuda_arch = 90;  // compute capability x 10 (CUDA sources)
  CompileLimits limits;
};

struct CompiledVariant {
  std::string folder;           // the cache entry
  std::string artifact;         // kernel.so or kernel.cubin in it
  std::string artifact_sha256;  // as the manifest records it; the host checks what it loads
  KernelContract contract;
  CompilerFacts compiler;
  std::vector<Define> defines;
  std::string log;  // the compiler's warnings, if any
  bool cached = false;
  double seconds = 0.0;  // compile time (0 when cached)
};

// A variant that did not compile, or whose contract is unusable: `heading` names the
// implementation, params and source ("VARIANT, compiled with COMPILER:"); `log` holds the
// compiler's own lines. variant() and compiler() are the heading's two parts.
class KernelCompileError : public std::runtime_error {
 public:
  KernelCompileError(std::string variant, std::string compiler, std::string log)
      : std::runtime_error(variant + ", compiled with " + compiler + ":\n" + log),
        variant_(std::move(variant)),
        compiler_(std::move(compiler)),
        log_(std::move(log)) {}
  std::string heading() const { return variant_ + ", compiled with " + compiler_ + ":"; }
  const std::string& variant() const { return variant_; }
  const std::string& compiler() const { return compiler_; }
  const std::string& log() const { return log_; }

 private:
  std::string variant_, compiler_, log_;
};

// The toolchain a language needs is missing from this build or machine (no NVRTC): why, else
// nullopt.
std::optional<std::string> compiler_unavailable(KernelLanguage language);

// Compiles the variant, or finds it in the cache; throws KernelCompileError.
CompiledVariant compile_variant(const VariantRequest& request);
// The variant from the cache, without compiling; nullopt when it was not compiled yet.
std::optional<CompiledVariant> cached_variant(const VariantRequest& request);

// Many variants at once, `parallel` compiles at a time: what was compiled and found, and every
// variant that does not compile (not only the first). Throws KernelCacheRefused when the cache
// folder cannot be trusted (kernel_cache.hpp).
struct CompileSummary {
  std::size_t compiled = 0, cached = 0;
  double seconds = 0.0;                  // wall time of the whole batch
  std::vector<std::string> unavailable;  // variants not compiled: no toolchain here (why)
  std::vector<KernelCompileError> errors;
};
CompileSummary compile_variants(const std::vector<VariantRequest>& requests, unsigned parallel);

// "my_tiled TILE=16 BLOCK=[16, 16] (kernels/my_tiled.cu, K=5, 3 channels)": a variant in words.
std::string variant_words(const VariantRequest& request);

// The errors of a batch as one text: variants whose compiler said the same are one block, under
// a heading listing them all, instead of the same lines once per variant.
std::string compile_errors_text(const std::vector<KernelCompileError>& errors);

// The kernel cache: $CONVLAB_KERNEL_CACHE, else kernel-cache/ beside the convlab executable.
std::string kernel_cache_folder();

// The contract header's text (include/convlab/kernel.h, built into the executable).
const std::string& kernel_header_text();

}  // namespace convlab
