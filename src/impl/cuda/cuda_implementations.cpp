// Registration of the CUDA implementations: names, axes, descriptions and the reasons a point is
// skipped. Always compiled, also without nvcc, so configs naming cuda_* validate everywhere; the
// work itself goes through device_calls.hpp to the .cu files (or to no_cuda/ stubs).
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "impl/cuda/cuda_axes.hpp"
#include "impl/cuda/device_calls.hpp"
#include "impl/cuda/device_facts.hpp"
#include "impl/cuda/launch_shape.hpp"
#include "impl/cuda/rungs.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using cuda::Variant;

// Identifies the image for the device buffer cache: name, content hash, shape and address.
std::string image_key(const Image& image) {
  char address[32];
  std::snprintf(address, sizeof(address), "%p", static_cast<const void*>(image.pixels.data()));
  return image.name + "|" + image.sha256 + "|" + std::to_string(image.width) + "x" +
         std::to_string(image.height) + "x" + std::to_string(image.channels) + "|" + address;
}

cuda::ProblemDesc problem_desc(const Problem& problem) {
  cuda::ProblemDesc desc;
  desc.pixels = problem.input.pixels.data();
  desc.width = problem.input.width;
  desc.height = problem.input.height;
  desc.channels = problem.input.channels;
  desc.image_key = image_key(problem.input);
  desc.ksize = problem.filter.size;
  desc.weights = problem.filter.weights.data();
  desc.separable = problem.filter.separable;
  desc.column = problem.filter.column.data();
  desc.row = problem.filter.row.data();
  desc.border = problem.border;
  desc.output = problem.output;
  return desc;
}

// What a rung needs of a problem beyond the device, and how it counts its arithmetic.
struct RungTraits {
  bool factored = false;    // 2K multiply-adds per value (row and column passes)
  bool rank1_only = false;  // needs a separable kernel
  std::string arithmetic = "fp32";
  bool needs_npp = false;
  std::optional<UnmetNeed> (*requirements)(const Problem&) = nullptr;
  double (*weight_roundoff)(const Params&) = nullptr;  // Implementation::weight_roundoff
};

std::optional<UnmetNeed> npp_requirements(const Problem& problem) {
  if (problem.border != Border::replicate)
    return UnmetNeed{"the replicate border",
                     "NPP's nppiFilterBorder32f_8u supports only the replicate border, not " +
                         std::string(to_string(problem.border))};
  if (problem.output != OutputType::u8)
    return UnmetNeed{"u8 output",
                     "NPP's nppiFilterBorder32f_8u filters 8u to 8u: f32 output is not "
                     "available"};
  return std::nullopt;
}

RungTraits direct_traits() {
  return {};
}
RungTraits rank1_traits() {
  RungTraits traits;
  traits.factored = true;
  traits.rank1_only = true;
  return traits;
}
RungTraits tensor_traits() {
  RungTraits traits;
  traits.arithmetic = "tensor_fp16";
  // fp16: each weight rounded to FP16 (2^-11); fp16x2: high part plus FP16-rounded remainder.
  traits.weight_roundoff = [](const Params& params) {
    return params.value("weights", std::string("fp16")) == "fp16x2" ? std::ldexp(1.0, -22)
                                                                    : std::ldexp(1.0, -11);
  };
  return traits;
}
// Rung 8 runs rank-1 kernels as two passes (2K multiply-adds per value) and others directly; the
// runner counts 2K only for its points with a separable kernel (factored_rank1_only).
RungTraits streaming_traits() {
  RungTraits traits;
  traits.factored = true;
  return traits;
}
RungTraits tensor_separable_traits() {
  RungTraits traits;
  traits.factored = true;
  traits.rank1_only = true;
  traits.arithmetic = "tensor_fp16";
  // Three roundings to FP16: the row factor, the filtered value between the passes and the
  // column factor (k9_tensor_separable.cu).
  traits.weight_roundoff = [](const Params&) { return 3.0 * std::ldexp(1.0, -11); };
  return traits;
}
RungTraits npp_traits() {
  RungTraits traits;
  traits.needs_npp = true;
  traits.requirements = npp_requirements;
  return traits;
}

// A row of rungs.hpp on the host.
struct CudaRung {
  Variant variant;
  const char* name;
  Appearance appearance;
  const char* axes;  // keys of cuda_axes.cpp's catalogue
  LaunchShape shape;
  RungTraits (*traits)();
  const char* description;
};

#define CONVLAB_CUDA_HOST_RUNG(stem, name, words, colour, point_type, axes, threads, step_x, \
                               step_y, traits, description)                                  \
  CudaRung{Variant::stem,                                                                    \
           name,                                                                             \
           Appearance{words, colour, point_type},                                            \
           axes,                                                                             \
           LaunchShape{threads, step_x, step_y},                                             \
           traits,                                                                           \
           description},
const CudaRung kCudaRungs[] = {CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_HOST_RUNG)};
#undef CONVLAB_CUDA_HOST_RUNG

// Reasons that hold on any device, checked before the build and the device: what the point asks
// of the rung (the plan counts these points apart before anything runs).
std::optional<UnmetNeed> unmet_need(const CudaRung& rung, const RungTraits& traits,
                                    const Problem& problem, const cuda::LaunchParams& launch) {
  const Image& image = problem.input;
  const Filter& filter = problem.filter;
  if (image.channels != 1 && image.channels != 3)
    return UnmetNeed{"1 or 3 channels", "CUDA implementations handle 1 or 3 channels, not " +
                                            std::to_string(image.channels)};
  if (image.width <= 0 || image.height <= 0) return UnmetNeed{"a non-empty image", "empty image"};
  if (filter.size <= 0 || filter.size % 2 == 0 ||
      filter.weights.size() != static_cast<size_t>(filter.size) * filter.size)
    return UnmetNeed{"a KxK kernel with odd K",
                     "kernel must be KxK with odd K, got size " + std::to_string(filter.size)};
  if (launch.streams && launch.layout != cuda::Layout::planar)
    return UnmetNeed{"layout: planar with streams: true",
                     "streams overlap the transfers and kernels of separate channel planes: they "
                     "need layout: planar"};
  if (traits.rank1_only) {
    if (!filter.separable)
      return UnmetNeed{"a separable (rank-1) kernel",
                       "kernel " + filter.name + " is not separable (rank > 1): " + rung.name +
                           " needs a rank-1 kernel"};
    if (filter.row.size() != static_cast<size_t>(filter.size) ||
        filter.column.size() != static_cast<size_t>(filter.size))
      return UnmetNeed{"row and column factors of size K",
                       "kernel " + filter.name +
                           " is marked separable but its row/column factors are not of size " +
                           std::to_string(filter.size)};
  }
  if (traits.requirements) return traits.requirements(problem);
  return std::nullopt;
}

class CudaPreparedPoint final : public PreparedPoint {
 public:
  CudaPreparedPoint(std::unique_ptr<cuda::DeviceRun> run, OutputType type, size_t count)
      : run_(std::move(run)), type_(type), count_(count) {}

  std::optional<PhaseTimes> execute() override { return run_->execute(); }

  OutputView output() const override {
    OutputView view;
    view.type = type_;
    view.data = run_->output();
    view.count = count_;
    return view;
  }

 private:
  std::unique_ptr<cuda::DeviceRun> run_;
  OutputType type_;
  size_t count_;
};

Implementation make_cuda_implementation(const CudaRung& rung) {
  const RungTraits traits = rung.traits();
  const Variant variant = rung.variant;
  Implementation impl;
  impl.name = rung.name;
  impl.family = Family::cuda;
  impl.description = rung.description;
  impl.appearance = rung.appearance;
  impl.factored = traits.factored;  // roofline counts 2K multiply-adds per value
  impl.factored_rank1_only = traits.factored && !traits.rank1_only;
  impl.arithmetic = traits.arithmetic;
  if (traits.weight_roundoff) impl.weight_roundoff = traits.weight_roundoff;
  impl.axes = cuda_axes(rung.axes);
  // A shape naming an axis the rung lacks throws here, when the registry is built.
  impossible_launch(rung.shape, launch_params(impl.axes, Params::object()), 1, 1, 1);
  impl.unmet_need = [&rung, traits, axes = impl.axes](const Problem& problem,
                                                      const Params& params) {
    return unmet_need(rung, traits, problem, launch_params(axes, params));
  };
  impl.unsupported = [&rung, traits, axes = impl.axes](
                         const Problem& problem, const Params& params,
                         const RunContext& context) -> std::optional<std::string> {
    const cuda::LaunchParams launch = launch_params(axes, params);
    if (auto need = unmet_need(rung, traits, problem, launch)) return need->reason;
    if (!cuda::built()) return cuda::device_unavailable(context.cuda_device);
    if (traits.needs_npp && !cuda::npp_built()) return std::string("NPP not found at build time");
    if (auto reason = cuda::device_unavailable(context.cuda_device)) return reason;
    return cuda::variant_unsupported(rung.variant, problem_desc(problem), launch,
                                     context.cuda_device);
  };
  impl.impossible = [&rung, axes = impl.axes](const Params& params, int width, int height,
                                              int channels) {
    return impossible_launch(rung.shape, launch_params(axes, params), width, height, channels);
  };
  impl.prepare = [variant, axes = impl.axes](
                     const Problem& problem, const Params& params,
                     const RunContext& context) -> std::unique_ptr<PreparedPoint> {
    auto run = cuda::prepare(variant, problem_desc(problem), launch_params(axes, params),
                             context.cuda_device, context.l2_flush);
    return std::make_unique<CudaPreparedPoint>(std::move(run), problem.output,
                                               problem.input.value_count());
  };
  return impl;
}

}  // namespace

bool cuda_built() {
  return cuda::built();
}

std::vector<Implementation> make_cuda_implementations() {
  std::vector<Implementation> impls;
  for (const CudaRung& rung : kCudaRungs) impls.push_back(make_cuda_implementation(rung));
  return impls;
}

}  // namespace convlab
