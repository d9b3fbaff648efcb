// The family of an implementation: where its points run. Code compares the enum; the name ("cpu",
// "cuda") appears only where a family is written or read as text: plan descriptions, results
// records, `convlab list` and the kernel host's requests.
#pragma once

#include <optional>
#include <string>

namespace convlab {

enum class Family {
  cpu,   // on the host's CPUs: the CPU rungs, the OpenCV peers, users' C/C++ kernels
  cuda,  // on a CUDA device: the CUDA rungs, the NPP peer, users' CUDA kernels
};

// "cpu" or "cuda".
const char* family_name(Family family);

// The family of that name; nothing for a name of no family.
std::optional<Family> family_named(const std::string& name);

}  // namespace convlab
