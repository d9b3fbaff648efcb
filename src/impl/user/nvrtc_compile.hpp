// NVRTC, the CUDA Toolkit's run-time compiler: a .cu source to PTX and a cubin, in this process
// (compiling runs no user code). Needs no GPU, so validate and CI compile CUDA kernels anywhere
// the toolkit is. Built only where CMake found NVRTC; elsewhere nvrtc_unavailable says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "impl/user/kernel_source.hpp"

namespace convlab {

struct NvrtcOutput {
  bool ok = false;
  std::string log;  // the compiler's lines, "path:line: error: ..." as GCC writes them
  std::string ptx;
  std::string cubin;
};

std::optional<std::string> nvrtc_unavailable();
// "13.0"
std::string nvrtc_version();
// The options a compile for `arch` (e.g. 90) passes, defines excepted.
std::vector<std::string> nvrtc_options(int arch);

NvrtcOutput nvrtc_compile(const std::string& name, const std::string& text,
                          const std::vector<Define>& defines, int arch, const std::string& header);

}  // namespace convlab
