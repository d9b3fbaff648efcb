// What a compiled user kernel declares through include/convlab/kernel.h: the contract version it
// is written for, what it handles and needs, and (CUDA) the launch of each pass. Read from the PTX
// of a .cu (NVRTC needs no GPU for that, so validate reads it anywhere) and from the shared library
// of a .c/.cpp (by a kernel host process, so user code never runs in convlab's own process), and
// kept as JSON beside the compiled variant in the kernel cache.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/problem.hpp"
#include "impl/implementation.hpp"

namespace convlab {
namespace cuda {
struct UserKernelModule;
}

// The version of include/convlab/kernel.h this convlab speaks (CONVLAB_CONTRACT_VERSION).
inline constexpr int kKernelContractVersion = 1;

struct KernelPass {
  int block_x = 0, block_y = 0;    // threads per block
  int pixels_x = 0, pixels_y = 0;  // output pixels a block covers
  int shared_bytes = 0;            // dynamic shared memory per block
};

struct KernelContract {
  int version = 0;         // 0: the source declares none (CONVLAB_CONTRACT missing)
  unsigned borders = 31;   // bit i: CONVLAB_BORDER_i (Border order)
  unsigned outputs = 3;    // bit 0 u8, bit 1 f32
  unsigned channels = 10;  // bit n: n channels
  bool needs_separable = false;
  bool needs_scratch = false;
  int max_ksize = 0;               // 0: any
  int constant_capacity = 0;       // floats of convlab_constant_weights; 0: none
  std::vector<KernelPass> passes;  // CUDA: pass 1, then pass 2
  bool has_cpu_entry = false;      // .c/.cpp: convlab_convolve is defined
};

// The named integer constants (convlab_*) a compiled source holds, by name.
using DeclaredInts = std::vector<std::pair<std::string, long long>>;

// The declarations of a PTX text: lines `.global .align 4 .u32 convlab_NAME = VALUE;` (a constant
// declared 0 has no initializer).
DeclaredInts declared_ints_of_ptx(std::string_view ptx);

// The contract from the declared constants; `entries` names the kernels or functions defined.
KernelContract contract_from_declarations(const DeclaredInts& ints,
                                          const std::vector<std::string>& entries);
// The kernel entries (.entry NAME) of a PTX text.
std::vector<std::string> ptx_entries(std::string_view ptx);

// Why a compiled source cannot be used at all: no or another contract version, no entry point,
// a pass without its launch; nullopt when it can.
std::optional<std::string> contract_problem(const KernelContract& contract, bool cuda);

// Why the kernel cannot run `problem` (a border, output, channel count or kernel it does not
// handle), as a plan's unmet need; nullopt when it can.
std::optional<UnmetNeed> contract_unmet_need(const KernelContract& contract,
                                             const Problem& problem);

nlohmann::json to_json(const KernelContract& contract);
KernelContract contract_from_json(const nlohmann::json& json);

// The launch of each pass and the needs the CUDA backend takes, the module image left to the
// caller.
cuda::UserKernelModule launch_of(const KernelContract& contract);

}  // namespace convlab
