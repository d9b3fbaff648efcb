// NVRTC, the CUDA Toolkit's run-time compiler: a .cu source to PTX and a cubin. Needs no GPU, so
// validate and CI compile CUDA kernels anywhere the toolkit is. Built only where CMake found
// NVRTC; elsewhere nvrtc_unavailable says so. It runs in a child process (`convlab nvrtc-compile
// FOLDER`), never in convlab itself, so that a source that includes a FIFO or expands without end
// is stopped at the compile's limits in time and address space.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "user_kernels/kernel_source.hpp"
#include "user_kernels/program_output.hpp"

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

// One compile for the child: the source at `source_name` (relative to the child's working folder,
// a private tree's) with the contract header at `header_path`; the results land in `folder`:
// kernel.cubin and kernel.ptx, and nvrtc.log with NVRTC's lines.
struct NvrtcRequest {
  std::string source_name;
  int arch = 90;
  std::vector<Define> defines;
  std::string header_path;
  std::string folder;
};
// Runs the child within `limits`: exit status 0 compiled, 1 NVRTC refused the source (its lines
// in nvrtc_child_log), anything else the child failed.
ProgramOutput run_nvrtc_child(const NvrtcRequest& request, const ProgramLimits& limits);
std::string nvrtc_child_log(const std::string& folder);
// `convlab nvrtc-compile FOLDER`: the child's side.
int run_nvrtc_compile_command(const std::vector<std::string>& args);

}  // namespace convlab
