// The contract between the runner and every implementation (CPU or GPU).
//
// An implementation declares its parameter axes; the plan sweeps them from YAML. For each point the
// runner asks `unsupported` (a reason, or nothing when it can run), then `prepare`, which does all
// allocation and copying of constants outside any timing. The runner then calls `execute` on the
// prepared point for warm-up and timed repetitions, and reads the result through `output`.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/filter.hpp"
#include "core/image.hpp"
#include "core/output_view.hpp"
#include "core/phase_times.hpp"
#include "core/problem.hpp"
#include "core/types.hpp"
#include "impl/family.hpp"

namespace convlab {

// One value of every axis of an implementation, e.g. {"threads": 4, "schedule": "static"}.
using Params = nlohmann::json;

enum class AxisKind {
  integer,       // e.g. threads: 4
  integer_pair,  // e.g. block: [32, 8]  (x, y)
  choice,        // one of `choices`, e.g. schedule: static
  boolean,       // e.g. streams: true
};

struct AxisSpec {
  std::string name;
  AxisKind kind = AxisKind::integer;
  std::string help;
  nlohmann::json default_value;      // used when a config leaves the axis out
  std::vector<std::string> choices;  // for AxisKind::choice
  long long min_value = 1;           // for integers and both members of pairs
  long long max_value = 1 << 20;
};

// Settings of the whole run that implementations may need.
// What compiling one variant of a user's kernel may take (measure.compile_timeout,
// measure.compile_memory_gib): wall time, and address space for the compiler and every program
// it starts (cc1, NVRTC's child process).
struct CompileLimits {
  double seconds = 120.0;
  double address_space_gib = 4.0;
};

struct RunContext {
  int cuda_device = 0;
  bool l2_flush = false;  // clear the GPU L2 before every repetition
  // The time one point of an isolated implementation (a user's kernel) may take, prepare and
  // every call together, before its process is stopped and the point failed (measure.timeout).
  double isolated_point_seconds = 300.0;
  CompileLimits compile_limits;  // a user's kernel compiled when its point is prepared
};

class PreparedPoint {
 public:
  virtual ~PreparedPoint() = default;
  // Device implementations time their phases with events and report them; host implementations
  // return nothing and are timed by the runner with steady_clock.
  virtual std::optional<PhaseTimes> execute() = 0;
  virtual OutputView output() const = 0;
  // Called around every execute(), outside its timing: process-wide settings the point needs
  // while it runs (a library's thread count, the calling thread's CPU affinity) are set in
  // before_call and given back in after_call, so points prepared side by side (interleaved
  // timing) never run with each other's settings.
  virtual void before_call() {}
  virtual void after_call() {}
  // A host implementation that runs in another process (a user's kernel in its kernel host)
  // times its call there, around the call alone, and reports it here after execute(); the runner
  // takes it instead of its own timing of execute(), which would count the round trip between the
  // processes. nullopt for everyone else.
  virtual std::optional<double> self_timed_ms() const { return std::nullopt; }
  // True for a point that runs in a kernel host (a user's kernel): before every call of any other
  // point, the kernel host that ran last is stopped, so that what its kernels left running takes
  // no CPU from that call (measure/repetitions.cpp).
  virtual bool runs_in_kernel_host() const { return false; }
};

// Params that no device can run on an image of a given shape, found at validation: the axis at
// fault and why.
struct ParamsProblem {
  std::string axis;
  std::string message;
};

// What a point asks that an implementation cannot give on any machine: `needs` in a few words,
// for counting points before a run ("a Gaussian kernel"), and `reason` as a skipped record says
// it ("kernel 'box3' is not a Gaussian (GaussianBlur makes only those)").
struct UnmetNeed {
  std::string needs;
  std::string reason;
};

inline std::optional<std::string> reason_of(const std::optional<UnmetNeed>& need) {
  if (!need) return std::nullopt;
  return need->reason;
}

// The unmet need of implementations that need a rank-1 kernel, or nullopt when it is one.
inline std::optional<UnmetNeed> unless_separable(const Problem& problem) {
  if (problem.filter.separable) return std::nullopt;
  return UnmetNeed{"a separable (rank-1) kernel",
                   "kernel '" + problem.filter.name + "' is not separable (rank > 1)"};
}

// Where a user's own kernel came from and how it was compiled, as each of its records keeps it
// (docs/results-schema.md, records[].source).
struct SourceFacts {
  std::string path;      // as the config names it, relative to the config's folder
  std::string sha256;    // of the source text
  // The files it includes, relative to its folder, with their sha256; with any, the version
  // (source_snapshot.hpp) that tells edits of them apart, else empty (the version is sha256).
  std::vector<std::pair<std::string, std::string>> includes;
  std::string snapshot_sha256;
  std::string header_sha256;  // include/convlab/kernel.h as compiled with it
  std::string language;  // "cuda", "c++" or "c"
  std::string compiler, compiler_version;
  std::vector<std::string> flags;
  std::vector<std::pair<std::string, std::string>> defines;  // the variant's macros
  int contract_version = 0;
};

// The version of a user's kernel a record names: the snapshot's hash when the source includes
// files of its own, else the source's (source_snapshot.hpp).
inline const std::string& source_version(const SourceFacts& source) {
  return source.snapshot_sha256.empty() ? source.sha256 : source.snapshot_sha256;
}

// How readers see an implementation, the same on every page: its words in prose and table cells
// ("CUDA shared memory"), and its colour and point type in every figure. CPU rungs take blues and
// greens, CUDA rungs warm colours, the vendor peers black and greys. A user's kernel has none: its
// words are made from its name and its colour is the next of the figure's (query/, figures/).
struct Appearance {
  std::string words;
  std::string colour;  // "#rrggbb"
  int point_type = 7;  // gnuplot's pt
};

// The thread pool of the implementations whose `threads` are OpenMP threads.
inline constexpr const char* kOpenMpThreadPool = "openmp";

struct Implementation {
  std::string name;
  Family family = Family::cpu;
  // The pool its `threads` run on (kOpenMpThreadPool, "opencv"), empty for none. Idle workers of a
  // pool spin for a while after a call; interleaved timing warns when one problem mixes pools.
  std::string thread_pool;
  std::string description;
  // Set for convlab's own implementations (their registry row or registration); empty for a
  // user's kernel.
  std::optional<Appearance> appearance;
  // The implementation a config's speedups are measured over when it names no baseline and
  // sweeps this one (else its first implementation).
  bool baseline_by_default = false;
  // Multiply-accumulates per second per thread, only for the plan's estimate of a CPU point's
  // duration (run/plan_report.cpp); a CUDA point's rate is its family's.
  double estimated_macs_per_thread_second = 8e9;
  // True when the algorithm does 2K multiply-adds per value (separable passes) instead of K^2;
  // roofline fractions then use that count.
  bool factored = false;
  // With `factored`: the implementation also runs kernels of rank > 1, directly (K^2), so only its
  // points with a separable kernel count 2K.
  bool factored_rank1_only = false;
  // The unit the multiply-adds run on: "fp32" (FMA pipes) or "tensor_fp16" (tensor cores, FP16
  // inputs, FP32 accumulation). Roofline floors use the calibrated rate of that unit.
  std::string arithmetic = "fp32";
  // Unit roundoff of the weights as the implementation multiplies them, when coarser than float
  // (FP16 weights: 2^-11); nullptr or 0 when the weights are used as float. Widens the f32
  // verification tolerance by the error this rounding can cause (verify.hpp).
  std::function<double(const Params&)> weight_roundoff;
  std::vector<AxisSpec> axes;
  // The u8 verification bound when it is not the usual 1 level (a fixed-point peer whose rounded
  // weights alone can move a value further); empty for 1. Documented where it is set.
  std::function<double(const Problem&)> u8_tolerance;
  // A reason the point cannot run here (no CUDA device, kernel not separable, ...), or nullopt.
  // Its unmet need (below), when it has one, comes first: it holds on every machine.
  std::function<std::optional<std::string>(const Problem&, const Params&, const RunContext&)>
      unsupported;
  // Optional: why a point cannot run on any machine, from the config alone (its kernel, border,
  // output or params do not suit the implementation). The plan asks it before anything runs,
  // so validate and --dry-run count those points apart (plan/skips.hpp); the input image has
  // its shape there but no pixels.
  std::function<std::optional<UnmetNeed>(const Problem&, const Params&)> unmet_need;
  std::function<std::unique_ptr<PreparedPoint>(const Problem&, const Params&, const RunContext&)>
      prepare;
  // Optional: a problem when no device whatever could run `params` on a width x height image of
  // `channels` channels (launch limits every CUDA device shares), so the config is refused before
  // anything runs.
  std::function<std::optional<ParamsProblem>(const Params&, int width, int height, int channels)>
      impossible;
  // A user's own kernel (user_kernels): its source as the config names it and the text's SHA-256,
  // part of every point's identity, so that an edited source is measured again; empty for
  // convlab's own implementations. source_facts gives what a record keeps of its variant.
  std::string source_path, source_sha256;
  std::function<std::optional<SourceFacts>(const Problem&, const Params&)> source_facts;
  // Optional: called once a run has no more points of the implementation (and again, harmlessly,
  // when the run ends): a user's kernel's host ends there, with every thread and process its
  // kernels left running.
  std::function<void()> finished;
};

}  // namespace convlab
