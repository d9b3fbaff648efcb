#include "user_kernels/kernel_compiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/file_io.hpp"
#include "core/number_text.hpp"
#include "core/sha256.hpp"
#include "user_kernels/kernel_cache.hpp"
#include "user_kernels/kernel_host_client.hpp"
#include "user_kernels/nvrtc_compile.hpp"
#include "user_kernels/private_tree.hpp"
#include "user_kernels/program_output.hpp"

namespace convlab {

const char* embedded_kernel_header();  // generated from include/convlab/kernel.h

namespace {

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
                     {"source", request.source->version},
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
  variant.artifact_sha256 = manifest.at("artifact_sha256").get<std::string>();
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

// Throws the variant's KernelCompileError with the compiler's lines.
struct CompileError {
  std::string variant, compiler;
  [[noreturn]] void operator()(const std::string& log) const {
    throw KernelCompileError(variant, compiler, log);
  }
};

struct Built {
  std::string artifact;  // file name in the entry
  KernelContract contract;
  std::string log;
};

ProgramLimits program_limits(const CompileLimits& limits, const std::string& folder) {
  ProgramLimits program;
  program.seconds = limits.seconds;
  program.address_space_bytes = static_cast<std::size_t>(limits.address_space_gib * (1ull << 30));
  program.folder = folder;
  return program;
}

// Why a compile that did not succeed stopped, naming the limit it met, if it met one.
std::optional<std::string> limit_met(const ProgramOutput& out, const CompileLimits& limits,
                                     const std::string& what) {
  if (out.timed_out)
    return what + " did not finish within " + format_exact(limits.seconds) +
           " s (measure.compile_timeout) and was stopped";
  static const char* const kOutOfMemory[] = {"out of memory", "virtual memory exhausted",
                                             "std::bad_alloc", "Cannot allocate memory",
                                             "cannot allocate memory"};
  bool memory = out.signal == SIGKILL || out.signal == SIGSEGV || out.signal == SIGABRT;
  for (const char* words : kOutOfMemory)
    memory = memory || out.output.find(words) != std::string::npos;
  if (!memory) return std::nullopt;
  return what + " ran out of memory under its limit of " + format_exact(limits.address_space_gib) +
         " GiB of address space (measure.compile_memory_gib)" +
         (out.signal != 0 ? ": it " + program_end_words(out) : "");
}

Built build_cuda(const VariantRequest& request, const std::vector<Define>& defines,
                 const std::string& building, const CompileError& fail) {
  const PrivateTree tree = lay_out_snapshot(*request.source, kernel_header_text(), building);
  NvrtcRequest nvrtc{tree.main_argument, request.cuda_arch, defines,
                     tree.include_folder + "/convlab/kernel.h", building};
  const ProgramOutput out =
      run_nvrtc_child(nvrtc, program_limits(request.limits, tree.working_folder));
  const std::string log = tree.shown(nvrtc_child_log(building));
  if (out.exit_code == -1) fail(out.failure);
  if (auto limit = limit_met(out, request.limits, "NVRTC")) fail(*limit + "\n" + log);
  if (out.exit_code == 1) fail(log);
  if (out.exit_code != 0)
    fail("NVRTC's process " + program_end_words(out) + "\n" + tree.shown(out.output) + log);
  const std::string ptx = read_file(building + "/kernel.ptx", 256u << 20, Links::refuse);
  return {"kernel.cubin", contract_from_declarations(declared_ints_of_ptx(ptx), ptx_entries(ptx)),
          log};
}

Built build_host(const VariantRequest& request, const std::vector<Define>& defines,
                 const CompilerFacts& compiler, const std::string& building,
                 const CompileError& fail) {
  const PrivateTree tree = lay_out_snapshot(*request.source, kernel_header_text(), building);
  std::vector<std::string> argv{compiler.name};
  argv.insert(argv.end(), compiler.flags.begin(), compiler.flags.end());
  argv.insert(argv.end(), {"-fPIC", "-shared", "-I", tree.include_folder});
  for (const auto& [macro, value] : defines) argv.push_back("-D" + macro + "=" + value);
  argv.insert(argv.end(), {tree.main_argument, "-o", building + "/kernel.so"});
  const ProgramOutput out = run_program(argv, program_limits(request.limits, tree.working_folder));
  if (out.exit_code == -1) fail(out.failure);
  if (auto limit = limit_met(out, request.limits, "the compiler"))
    fail(*limit + "\n" + tree.shown(out.output));
  if (out.exit_code != 0) fail(tree.shown(out.output));
  const LibraryDeclarations declared = describe_shared_library(building + "/kernel.so");
  if (!declared.error.empty()) fail(declared.error);
  return {"kernel.so", contract_from_declarations(declared.ints, declared.entries),
          tree.shown(out.output)};
}

std::string compiler_words(const VariantRequest& request, const CompilerFacts& compiler) {
  return request.source->language == KernelLanguage::cuda
             ? "NVRTC " + compiler.version + " for sm_" + std::to_string(request.cuda_arch)
             : compiler.name;
}

// A damaged entry is said once per entry and process.
void report_damaged_entry(const std::string& folder) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::cerr << "convlab: kernel cache entry " << folder
            << ": its artefact does not match the sha256 its manifest recorded (replaced or "
               "damaged); compiling the variant again\n";
}

// Entries checked by this process: an artefact is hashed once, not at every look-up.
bool checked_intact(const std::string& folder, const nlohmann::json& manifest) {
  static std::mutex mutex;
  static std::map<std::string, std::string> checked;  // folder -> artifact_sha256 found intact
  const std::string recorded = manifest.value("artifact_sha256", "");
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = checked.find(folder);
    if (found != checked.end() && found->second == recorded) return true;
  }
  if (!cache_entry_intact(folder, manifest)) return false;
  std::lock_guard<std::mutex> lock(mutex);
  checked[folder] = recorded;
  return true;
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
  const std::string cache = kernel_cache_folder();
  try {
    require_private_cache(cache);
  } catch (const KernelCacheRefused&) {
    return std::nullopt;  // said by the compile, which refuses it
  }
  const std::vector<Define> defines =
      variant_defines(*request.source, request.params, request.shape);
  const std::string folder = entry_folder(request, defines, compiler_for(request));
  const auto manifest = read_cache_manifest(folder);
  if (!manifest) return std::nullopt;
  try {
    CompiledVariant variant = variant_of_manifest(folder, *manifest);
    if (checked_intact(folder, *manifest)) return variant;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // an entry of another version: compiled again, and renamed over
  }
  report_damaged_entry(folder);
  discard_cache_entry(folder);
  return std::nullopt;
}

CompileSummary compile_variants(const std::vector<VariantRequest>& requests, unsigned parallel) {
  CompileSummary summary;
  if (requests.empty()) return summary;
  require_private_cache(kernel_cache_folder());
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
      } catch (const std::exception& error) {  // the cache folder could not be written, say
        std::lock_guard<std::mutex> lock(mutex);
        failed.emplace_back(
            i, KernelCompileError(variant_words(request),
                                  compiler_words(request, compiler_for(request)), error.what()));
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

std::string compile_errors_text(const std::vector<KernelCompileError>& errors) {
  std::vector<std::vector<const KernelCompileError*>> groups;  // same compiler and lines
  for (const KernelCompileError& error : errors) {
    auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& group) {
      return group.front()->log() == error.log() && group.front()->compiler() == error.compiler();
    });
    if (same == groups.end())
      groups.push_back({&error});
    else
      same->push_back(&error);
  }
  std::string text;
  for (const auto& group : groups) {
    const KernelCompileError& first = *group.front();
    if (group.size() == 1) {
      text += first.heading() + "\n";
    } else {
      text += std::to_string(group.size()) + " variants, compiled with " + first.compiler() +
              ", failed with the same lines:\n";
      for (const KernelCompileError* error : group) text += "  " + error->variant() + "\n";
    }
    text += first.log();
    if (!first.log().empty() && first.log().back() != '\n') text += "\n";
  }
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

CompiledVariant compile_variant(const VariantRequest& request) {
  if (auto found = cached_variant(request)) return *found;
  require_private_cache(kernel_cache_folder());
  const CompilerFacts compiler = compiler_for(request);
  const std::vector<Define> defines =
      variant_defines(*request.source, request.params, request.shape);
  const std::string folder = entry_folder(request, defines, compiler);
  const CompileError fail{variant_words(request), compiler_words(request, compiler)};
  const bool cuda = request.source->language == KernelLanguage::cuda;
  const std::string building = begin_cache_entry(folder);
  const auto start = std::chrono::steady_clock::now();
  Built built;
  try {
    built = cuda ? build_cuda(request, defines, building, fail)
                 : build_host(request, defines, compiler, building, fail);
    if (auto problem = contract_problem(built.contract, cuda))
      fail(request.source->path + ": " + *problem);
  } catch (...) {
    abandon_cache_entry(building);
    throw;
  }
  CompiledVariant variant;
  variant.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  variant.artifact_sha256 =
      sha256_hex(read_file(building + "/" + built.artifact, 1u << 30, Links::refuse));
  nlohmann::json manifest{{"artifact", built.artifact},
                          {"artifact_sha256", variant.artifact_sha256},
                          {"contract", to_json(built.contract)},
                          {"compiler", compiler.name},
                          {"version", compiler.version},
                          {"flags", compiler.flags},
                          {"defines", defines},
                          {"log", built.log},
                          {"seconds", variant.seconds},
                          {"source", request.source->path},
                          {"source_version", request.source->version}};
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
