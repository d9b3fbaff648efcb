#include "user_kernels/nvrtc_compile.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>
#include <regex>

#include "core/file_io.hpp"
#include "user_kernels/kernel_host_client.hpp"

#if defined(CONVLAB_WITH_NVRTC)
#include <nvrtc.h>
#endif

namespace convlab {

std::vector<std::string> nvrtc_options(int arch) {
  // -lineinfo as convlab's own kernels get it: sanitizer reports name source lines; the code is
  // the same. C++17 as nvcc builds convlab's kernels.
  return {"--gpu-architecture=sm_" + std::to_string(arch), "--std=c++17", "-lineinfo"};
}

#if defined(CONVLAB_WITH_NVRTC)

std::optional<std::string> nvrtc_unavailable() {
  return std::nullopt;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

namespace {

// NVRTC writes "path(12): error: ..."; compilers and editors read "path:12: error: ...".
std::string gcc_style(const std::string& log) {
  static const std::regex location(R"(^(.+?)\((\d+)\): )", std::regex::multiline);
  return std::regex_replace(log, location, "$1:$2: ");
}

struct Program {
  nvrtcProgram handle = nullptr;
  ~Program() {
    if (handle) nvrtcDestroyProgram(&handle);
  }
};

std::string read_log(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  log.resize(size - 1);
  return log;
}

}  // namespace

NvrtcOutput nvrtc_compile(const std::string& name, const std::string& text,
                          const std::vector<Define>& defines, int arch, const std::string& header) {
  NvrtcOutput output;
  Program program;
  const char* header_text = header.c_str();
  const char* header_name = "convlab/kernel.h";
  if (nvrtcCreateProgram(&program.handle, text.c_str(), name.c_str(), 1, &header_text,
                         &header_name) != NVRTC_SUCCESS) {
    output.log = name + ": NVRTC could not create a program";
    return output;
  }
  std::vector<std::string> options = nvrtc_options(arch);
  for (const auto& [macro, value] : defines) options.push_back("-D" + macro + "=" + value);
  std::vector<const char*> pointers;
  for (const auto& option : options) pointers.push_back(option.c_str());
  const nvrtcResult result =
      nvrtcCompileProgram(program.handle, static_cast<int>(pointers.size()), pointers.data());
  output.log = gcc_style(read_log(program.handle));
  if (result != NVRTC_SUCCESS) {
    if (output.log.empty()) output.log = name + ": " + nvrtcGetErrorString(result);
    return output;
  }
  size_t size = 0;
  nvrtcGetPTXSize(program.handle, &size);
  output.ptx.assign(size, '\0');
  nvrtcGetPTX(program.handle, output.ptx.data());
  if (!output.ptx.empty() && output.ptx.back() == '\0') output.ptx.pop_back();
  nvrtcGetCUBINSize(program.handle, &size);
  output.cubin.assign(size, '\0');
  nvrtcGetCUBIN(program.handle, output.cubin.data());
  output.ok = true;
  return output;
}

#else

std::optional<std::string> nvrtc_unavailable() {
  return std::string(
      "convlab was built without NVRTC (the CUDA Toolkit's run-time compiler): CUDA sources "
      "cannot be compiled here");
}

std::string nvrtc_version() {
  return "";
}

NvrtcOutput nvrtc_compile(const std::string& name, const std::string&, const std::vector<Define>&,
                          int, const std::string&) {
  NvrtcOutput output;
  output.log = name + ": " + *nvrtc_unavailable();
  return output;
}

#endif

namespace {

constexpr const char* kRequestFile = "nvrtc-request.json";
constexpr const char* kLogFile = "nvrtc.log";

}  // namespace

ProgramOutput run_nvrtc_child(const NvrtcRequest& request, const ProgramLimits& limits) {
  const nlohmann::json body{{"source", request.source_name},
                            {"arch", request.arch},
                            {"defines", request.defines},
                            {"header", request.header_path}};
  write_file(request.folder + "/" + kRequestFile, body.dump(), WriteTarget::owned);
  return run_program({kernel_host_program(), "nvrtc-compile", request.folder}, limits);
}

std::string nvrtc_child_log(const std::string& folder) {
  try {
    return read_file_if_present(folder + "/" + kLogFile, 4u << 20, Links::refuse).value_or("");
  } catch (const FileError&) {
    return "";
  }
}

int run_nvrtc_compile_command(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "convlab nvrtc-compile: compiles users' kernels for convlab itself\n");
    return 2;
  }
  const std::string folder = args[0];
  const nlohmann::json request =
      nlohmann::json::parse(read_file(folder + "/" + kRequestFile, 1 << 20, Links::refuse));
  const std::string name = request.at("source").get<std::string>();
  const NvrtcOutput out =
      nvrtc_compile(name, read_file(name, kMaxKernelSourceBytes, Links::refuse),
                    request.at("defines").get<std::vector<Define>>(), request.at("arch").get<int>(),
                    read_file(request.at("header").get<std::string>(), 1 << 20, Links::refuse));
  write_file(folder + "/" + kLogFile, out.log, WriteTarget::owned);
  if (!out.ok) return 1;
  write_file(folder + "/kernel.cubin", out.cubin, WriteTarget::owned);
  write_file(folder + "/kernel.ptx", out.ptx, WriteTarget::owned);
  return 0;
}

}  // namespace convlab
