#include "impl/user/kernel_compiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/file_io.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "impl/user/kernel_cache.hpp"
#include "impl/user/kernel_host_client.hpp"
#include "impl/user/nvrtc_compile.hpp"
#include "impl/user/program_output.hpp"

namespace convlab {

const char* embedded_kernel_header();  // generated from include/convlab/kernel.h

namespace {

// A compile that takes longer is stopped (a runaway template, say) and reported.
constexpr double kCompileSeconds = 120.0;

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

const CompilerFacts& host_compiler() {
  static const CompilerFacts facts = [] {
    CompilerFacts f;
    f.name = CONVLAB_USER_CXX_COMPILER;
    f.flags = split_words(CONVLAB_USER_CXX_FLAGS);
    const ProgramOutput version = run_program({f.name, "--version"}, 30.0, 4096);
    f.version = version.output.substr(0, version.output.find('\n'));
    return f;
  }();
  return facts;
}

CompilerFacts nvrtc_compiler(int arch) {
  return {"NVRTC", nvrtc_version(), nvrtc_options(arch)};
}

// The language and its standard lead the flags, so that records[].source.flags name them too.
CompilerFacts compiler_for(const VariantRequest& request) {
  if (request.source->language == KernelLanguage::cuda) return nvrtc_compiler(request.cuda_arch);
  CompilerFacts facts = host_compiler();
  const std::vector<std::string> language = request.source->language == KernelLanguage::c
                                                ? std::vector<std::string>{"-x", "c", "-std=gnu11"}
                                                : std::vector<std::string>{"-std=gnu++17"};
  facts.flags.insert(facts.flags.begin(), language.begin(), language.end());
  return facts;
}

std::string words_of(const Params& params) {
  std::string words;
  for (const auto& [key, value] : params.items())
    words += " " + key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  return words;
}

nlohmann::json cache_key(const VariantRequest& request, const std::vector<Define>& defines,
                         const CompilerFacts& compiler) {
  nlohmann::json key{{"language", std::string(to_string(request.source->language))},
                     {"source", request.source->sha256},
                     {"defines", defines},
                     {"compiler", compiler.name},
                     {"version", compiler.version},
                     {"flags", compiler.flags},
                     {"header", sha256_hex(kernel_header_text())}};
  if (request.source->language == KernelLanguage::cuda) key["arch"] = request.cuda_arch;
  return key;
}

std::string entry_folder(const VariantRequest& request, const std::vector<Define>& defines,
                         const CompilerFacts& compiler) {
  return cache_entry_folder(kernel_cache_folder(), request.source->implementation,
                            cache_key(request, defines, compiler));
}

CompiledVariant variant_of_manifest(const std::string& folder, const nlohmann::json& manifest) {
  CompiledVariant variant;
  variant.folder = folder;
  variant.artifact = folder + "/" + manifest.at("artifact").get<std::string>();
  variant.contract = contract_from_json(manifest.at("contract"));
  variant.compiler.name = manifest.at("compiler").get<std::string>();
  variant.compiler.version = manifest.at("version").get<std::string>();
  variant.compiler.flags = manifest.at("flags").get<std::vector<std::string>>();
  variant.defines = manifest.at("defines").get<std::vector<Define>>();
  variant.log = manifest.value("log", "");
  variant.seconds = manifest.value("seconds", 0.0);
  variant.cached = true;
  return variant;
}

// The folder holding include/convlab/kernel.h for the C++ compiler.
std::string header_include_folder() {
  static std::once_flag once;
  static std::string folder;
  std::call_once(once, [] {
    folder = kernel_cache_folder() + "/include";
    create_folders(folder + "/convlab");
    write_file_if_changed(folder + "/convlab/kernel.h", kernel_header_text(), WriteTarget::owned);
  });
  return folder;
}

struct Built {
  std::string artifact;  // file name in the entry
  KernelContract contract;
  std::string log;
};

Built build_cuda(const VariantRequest& request, const std::vector<Define>& defines,
                 const std::string& building, const std::string& heading) {
  const NvrtcOutput out = nvrtc_compile(request.source->path, request.source->text, defines,
                                        request.cuda_arch, kernel_header_text());
  if (!out.ok) throw KernelCompileError(heading, out.log);
  write_file(building + "/kernel.cubin", out.cubin, WriteTarget::owned);
  write_file(building + "/kernel.ptx", out.ptx, WriteTarget::owned);
  return {"kernel.cubin",
          contract_from_declarations(declared_ints_of_ptx(out.ptx), ptx_entries(out.ptx)), out.log};
}

Built build_host(const VariantRequest& request, const std::vector<Define>& defines,
                 const CompilerFacts& compiler, const std::string& building,
                 const std::string& heading) {
  std::vector<std::string> argv{compiler.name};
  argv.insert(argv.end(), compiler.flags.begin(), compiler.flags.end());
  argv.insert(argv.end(), {"-fPIC", "-shared", "-I", header_include_folder()});
  for (const auto& [macro, value] : defines) argv.push_back("-D" + macro + "=" + value);
  argv.insert(argv.end(), {request.source->path, "-o", building + "/kernel.so"});
  const ProgramOutput out = run_program(argv, kCompileSeconds);
  if (out.exit_code == -1) throw KernelCompileError(heading, out.failure);
  if (out.timed_out)
    throw KernelCompileError(heading, "the compiler did not finish within " +
                                          format_number(kCompileSeconds) + " s and was stopped");
  if (out.exit_code != 0) throw KernelCompileError(heading, out.output);
  const LibraryDeclarations declared = describe_shared_library(building + "/kernel.so");
  if (!declared.error.empty()) throw KernelCompileError(heading, declared.error);
  return {"kernel.so", contract_from_declarations(declared.ints, declared.entries), out.output};
}

std::string heading_of(const VariantRequest& request, const CompilerFacts& compiler) {
  std::string target =
      request.source->language == KernelLanguage::cuda
          ? "NVRTC " + compiler.version + " for sm_" + std::to_string(request.cuda_arch)
          : compiler.name;
  return variant_words(request) + ", compiled with " + target + ":";
}

}  // namespace

const std::string& kernel_header_text() {
  static const std::string text = embedded_kernel_header();
  return text;
}

std::string kernel_cache_folder() {
  if (const char* chosen = std::getenv("CONVLAB_KERNEL_CACHE"); chosen && *chosen) return chosen;
  char exe[PATH_MAX];
  const ssize_t size = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (size <= 0) return "kernel-cache";
  return std::filesystem::path(std::string(exe, size)).parent_path().string() + "/kernel-cache";
}

std::optional<std::string> compiler_unavailable(KernelLanguage language) {
  if (language == KernelLanguage::cuda) return nvrtc_unavailable();
  return std::nullopt;
}

std::string variant_words(const VariantRequest& request) {
  const UserKernelSource& source = *request.source;
  std::string facts;
  if (source.mentions.ksize) facts += ", K=" + std::to_string(request.shape.ksize);
  if (source.mentions.channels)
    facts += ", " + std::to_string(request.shape.channels) + " channel(s)";
  if (source.mentions.output) facts += ", " + std::string(to_string(request.shape.output));
  Params shown = request.params;
  shown.erase("threads");
  return source.implementation + words_of(shown) + " (" + source.path + facts + ")";
}

std::optional<CompiledVariant> cached_variant(const VariantRequest& request) {
  if (compiler_unavailable(request.source->language)) return std::nullopt;
  const std::vector<Define> defines =
      variant_defines(*request.source, request.params, request.shape);
  const std::string folder = entry_folder(request, defines, compiler_for(request));
  const auto manifest = read_cache_manifest(folder);
  if (!manifest) return std::nullopt;
  try {
    return variant_of_manifest(folder, *manifest);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // an entry of another version: compiled again
  }
}

CompileSummary compile_variants(const std::vector<VariantRequest>& requests, unsigned parallel) {
  CompileSummary summary;
  const auto start = std::chrono::steady_clock::now();
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  std::vector<std::pair<std::size_t, KernelCompileError>> failed;  // in request order, below
  const auto work = [&] {
    for (std::size_t i = next++; i < requests.size(); i = next++) {
      const VariantRequest& request = requests[i];
      if (auto missing = compiler_unavailable(request.source->language)) {
        std::lock_guard<std::mutex> lock(mutex);
        summary.unavailable.push_back(variant_words(request) + ": " + *missing);
        continue;
      }
      try {
        const CompiledVariant variant = compile_variant(request);
        std::lock_guard<std::mutex> lock(mutex);
        ++(variant.cached ? summary.cached : summary.compiled);
      } catch (const KernelCompileError& error) {
        std::lock_guard<std::mutex> lock(mutex);
        failed.emplace_back(i, error);
      }
    }
  };
  std::vector<std::thread> threads;
  const unsigned count = std::max(1u, std::min<unsigned>(parallel, requests.size()));
  for (unsigned t = 1; t < count; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  std::sort(failed.begin(), failed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, error] : failed) summary.errors.push_back(error);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

CompiledVariant compile_variant(const VariantRequest& request) {
  if (auto found = cached_variant(request)) return *found;
  const CompilerFacts compiler = compiler_for(request);
  const std::vector<Define> defines =
      variant_defines(*request.source, request.params, request.shape);
  const std::string folder = entry_folder(request, defines, compiler);
  const std::string heading = heading_of(request, compiler);
  const bool cuda = request.source->language == KernelLanguage::cuda;
  const std::string building = begin_cache_entry(folder);
  const auto start = std::chrono::steady_clock::now();
  Built built;
  try {
    built = cuda ? build_cuda(request, defines, building, heading)
                 : build_host(request, defines, compiler, building, heading);
    if (auto problem = contract_problem(built.contract, cuda))
      throw KernelCompileError(heading, request.source->path + ": " + *problem);
  } catch (...) {
    abandon_cache_entry(building);
    throw;
  }
  CompiledVariant variant;
  variant.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json manifest{{"artifact", built.artifact},
                          {"contract", to_json(built.contract)},
                          {"compiler", compiler.name},
                          {"version", compiler.version},
                          {"flags", compiler.flags},
                          {"defines", defines},
                          {"log", built.log},
                          {"seconds", variant.seconds},
                          {"source", request.source->path}};
  finish_cache_entry(building, folder, manifest);
  variant.folder = folder;
  variant.artifact = folder + "/" + built.artifact;
  variant.contract = built.contract;
  variant.compiler = compiler;
  variant.defines = defines;
  variant.log = built.log;
  variant.cached = false;
  return variant;
}

}  // namespace convlab
