// Registration of the CUDA implementations: names, axes, descriptions and the reasons a point is
// skipped. Always compiled, also without nvcc, so configs naming cuda_* validate everywhere; the
// work itself goes through backend.hpp to the .cu files (or to no_cuda/ stubs).
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "impl/cuda/backend.hpp"
#include "impl/cuda/device_facts.hpp"
#include "impl/cuda/rungs.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using cuda::Variant;

AxisSpec block_axis() {
  AxisSpec axis;
  axis.name = "block";
  axis.kind = AxisKind::integer_pair;
  axis.help = "threads per block [x, y]; x * y at most the device's limit (1024)";
  axis.default_value = nlohmann::json::array({16, 16});
  axis.min_value = 1;
  axis.max_value = 1024;
  return axis;
}

AxisSpec tile_axis() {
  AxisSpec axis;
  axis.name = "tile";
  axis.kind = AxisKind::integer;
  axis.help =
      "output tile edge in pixels computed by one block (8..32 typical); its input "
      "footprint must fit the device's shared memory";
  axis.default_value = 16;
  axis.min_value = 1;
  axis.max_value = 256;
  return axis;
}

AxisSpec pair_axis(std::string name, std::string help, int x, int y, int max_value) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::integer_pair;
  axis.help = std::move(help);
  axis.default_value = nlohmann::json::array({x, y});
  axis.min_value = 1;
  axis.max_value = max_value;
  return axis;
}

AxisSpec integer_axis(std::string name, std::string help, int default_value, int max_value) {
  AxisSpec axis;
  axis.name = std::move(name);
  axis.kind = AxisKind::integer;
  axis.help = std::move(help);
  axis.default_value = default_value;
  axis.min_value = 1;
  axis.max_value = max_value;
  return axis;
}

AxisSpec layout_axis();
AxisSpec streams_axis();

// Rung 5's axes: outputs per thread and threads per channel plane.
std::vector<AxisSpec> regblock_axes() {
  return {
      pair_axis("per_thread",
                "outputs per thread [x, y]: x adjacent pixels of one channel (4 or 8) on y rows "
                "(1, 2 or 4); the tile is block x per_thread",
                8, 2, 8),
      pair_axis("block",
                "threads per block and channel plane [x, y] (the block has x * y * channels "
                "threads); x a multiple of 32 / per_thread x, y of per_thread x",
                4, 16, 1024),
      layout_axis(), streams_axis()};
}

// Rung 6's axes: strip geometry, rows per step, threads.
std::vector<AxisSpec> fused_axes() {
  return {
      pair_axis("strip",
                "[width, height] in pixels of the strip one block walks down: width 32, 64 or 128, "
                "height any (rows per block)",
                32, 256, 1 << 20),
      integer_axis("chunk",
                   "filtered rows a block produces per step (ring buffer: chunk + K - 1 rows)", 32,
                   1024),
      integer_axis("rows_per_thread", "output rows per thread in the column pass (4 or 8)", 8, 8),
      integer_axis("threads", "threads per block (a multiple of 32)", 256, 1024),
      layout_axis(),
      streams_axis()};
}

// Rung 7's axes: warp tile, warps per block and channel, weight precision.
std::vector<AxisSpec> tensor_axes() {
  AxisSpec weights;
  weights.name = "weights";
  weights.kind = AxisKind::choice;
  weights.help =
      "weight precision on the tensor cores: fp16 (one product, weights rounded to 2^-11) or "
      "fp16x2 (high and low fp16 parts, two products, about 2^-22)";
  weights.default_value = "fp16";
  weights.choices = {"fp16", "fp16x2"};
  return {integer_axis("n_tiles",
                       "8-column mma tiles per warp (4 or 8): a warp computes 16 rows x "
                       "8 n_tiles pixels of one channel",
                       8, 8),
          integer_axis("warp_rows", "warps stacked vertically per channel plane in a block", 2, 32),
          weights, layout_axis(), streams_axis()};
}

// Rung 8's axes: rows per warp and warps per block.
std::vector<AxisSpec> streaming_axes() {
  return {integer_axis("rows",
                       "output rows one warp walks down (its segment); more rows amortise the "
                       "2r rows of the window's prologue, fewer make more warps",
                       64, 1 << 20),
          integer_axis("warps", "warps per block (1 to 8), each walking its own strip", 4, 8),
          layout_axis(), streams_axis()};
}

// Rung 9's axes: 16-pixel tiles per block and rows per block.
std::vector<AxisSpec> tensor_separable_axes() {
  return {
      integer_axis("n_tiles",
                   "16-pixel tiles across a block's strip, one warp per tile and channel", 4, 32),
      integer_axis("rows", "output rows one block walks down in steps of 16", 128, 1 << 20),
      layout_axis(), streams_axis()};
}

AxisSpec layout_axis() {
  AxisSpec axis;
  axis.name = "layout";
  axis.kind = AxisKind::choice;
  axis.help =
      "device layout: interleaved (HWC, one launch for all channels) or planar (CHW, one "
      "launch per channel; converted on the host outside timing)";
  axis.default_value = "interleaved";
  axis.choices = {"interleaved", "planar"};
  return axis;
}

AxisSpec streams_axis() {
  AxisSpec axis;
  axis.name = "streams";
  axis.kind = AxisKind::boolean;
  axis.help =
      "one CUDA stream per channel so uploads, kernels and downloads of different "
      "channels overlap (needs layout: planar)";
  axis.default_value = false;
  return axis;
}

// Rungs 1-2: block shape; rungs 3-4: output tile and block; the peer: layout and streams only.
std::vector<AxisSpec> direct_axes() {
  return {block_axis(), layout_axis(), streams_axis()};
}
std::vector<AxisSpec> tiled_axes() {
  return {tile_axis(), block_axis(), layout_axis(), streams_axis()};
}
std::vector<AxisSpec> peer_axes() {
  return {layout_axis(), streams_axis()};
}

cuda::LaunchParams launch_params(const Params& params) {
  cuda::LaunchParams launch;
  if (params.contains("block")) {
    launch.block_x = params.at("block").at(0).get<int>();
    launch.block_y = params.at("block").at(1).get<int>();
  }
  if (params.contains("tile")) launch.tile = params.at("tile").get<int>();
  if (params.contains("layout"))
    launch.layout = params.at("layout").get<std::string>() == "planar" ? cuda::Layout::planar
                                                                       : cuda::Layout::interleaved;
  if (params.contains("streams")) launch.streams = params.at("streams").get<bool>();
  if (params.contains("per_thread")) {
    launch.per_thread_x = params.at("per_thread").at(0).get<int>();
    launch.per_thread_y = params.at("per_thread").at(1).get<int>();
  }
  if (params.contains("strip")) {
    launch.strip_w = params.at("strip").at(0).get<int>();
    launch.strip_h = params.at("strip").at(1).get<int>();
  }
  if (params.contains("chunk")) launch.chunk = params.at("chunk").get<int>();
  if (params.contains("rows_per_thread"))
    launch.rows_per_thread = params.at("rows_per_thread").get<int>();
  if (params.contains("threads")) launch.threads = params.at("threads").get<int>();
  if (params.contains("n_tiles")) launch.n_tiles = params.at("n_tiles").get<int>();
  if (params.contains("warp_rows")) launch.warp_rows = params.at("warp_rows").get<int>();
  if (params.contains("rows")) launch.rows = params.at("rows").get<int>();
  if (params.contains("warps")) launch.warps = params.at("warps").get<int>();
  if (params.contains("weights"))
    launch.weight_parts = params.at("weights").get<std::string>() == "fp16x2" ? 2 : 1;
  return launch;
}

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

// Launch limits every CUDA device shares (compute capability 3.0 and later): at most 1024 threads
// per block, grids of at most 2^31 - 1 blocks in x and 65535 in y. Known without a device.
constexpr long long kMaxThreadsPerBlock = 1024;
constexpr long long kMaxGridX = 2147483647LL;
constexpr long long kMaxGridY = 65535;

// How a variant launches (the launch() of k1..k7): threads per block, and the output region one
// block covers, with the axes that set them. `planes`: channel planes per launch.
struct LaunchShape {
  long long threads = 0;
  std::string threads_axis;
  long long step_x = 1, step_y = 1;
  std::string grid_axis;
  bool per_plane = false;  // the block has threads for every channel plane
};

// The launch() of each rung: rungs 1-2 cover block-sized regions, 3-4 tiles, 5 per_thread
// outputs per thread with threads for every plane, 6 strips, 7 warp tiles of 16 rows.
std::optional<LaunchShape> block_shape(const cuda::LaunchParams& p, int) {
  return LaunchShape{1LL * p.block_x * p.block_y, "block", p.block_x, p.block_y, "block"};
}
std::optional<LaunchShape> tile_shape(const cuda::LaunchParams& p, int) {
  return LaunchShape{1LL * p.block_x * p.block_y, "block", p.tile, p.tile, "tile"};
}
std::optional<LaunchShape> regblock_shape(const cuda::LaunchParams& p, int planes) {
  return LaunchShape{
      1LL * p.block_x * p.block_y * planes, "block", 1LL * p.block_x * p.per_thread_x,
      1LL * p.block_y * p.per_thread_y,     "block", true};
}
std::optional<LaunchShape> fused_shape(const cuda::LaunchParams& p, int) {
  return LaunchShape{p.threads, "threads", p.strip_w, p.strip_h, "strip"};
}
std::optional<LaunchShape> tensor_shape(const cuda::LaunchParams& p, int planes) {
  return LaunchShape{32LL * p.warp_rows * planes, "warp_rows", 8LL * p.n_tiles,
                     16LL * p.warp_rows,          "warp_rows", true};
}
// Rung 8: a block of `warps` warps, each one strip (at least one pixel wide), `rows` rows high.
std::optional<LaunchShape> streaming_shape(const cuda::LaunchParams& p, int) {
  return LaunchShape{32LL * p.warps, "warps", p.warps, p.rows, "rows"};
}
// Rung 9: a warp per 16-pixel tile and channel plane; a block walks `rows` rows.
std::optional<LaunchShape> tensor_separable_shape(const cuda::LaunchParams& p, int planes) {
  return LaunchShape{32LL * p.n_tiles * planes, "n_tiles", 16LL * p.n_tiles, p.rows, "rows", true};
}
std::optional<LaunchShape> no_shape(const cuda::LaunchParams&, int) {
  return std::nullopt;  // the vendor's launch is its own
}

// What a rung needs of a problem beyond the device, and how it counts its arithmetic.
struct RungTraits {
  bool factored = false;    // 2K multiply-adds per value (row and column passes)
  bool rank1_only = false;  // needs a separable kernel
  std::string arithmetic = "fp32";
  bool needs_npp = false;
  std::optional<UnmetNeed> (*requirements)(const Problem&) = nullptr;
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
  std::vector<AxisSpec> (*axes)();
  std::optional<LaunchShape> (*shape)(const cuda::LaunchParams&, int planes);
  RungTraits (*traits)();
  const char* description;
};

#define CONVLAB_CUDA_HOST_RUNG(stem, name, axes, shape, traits, description) \
  {Variant::stem, name, axes, shape, traits, description},
const CudaRung kCudaRungs[] = {CONVLAB_CUDA_RUNGS(CONVLAB_CUDA_HOST_RUNG)};
#undef CONVLAB_CUDA_HOST_RUNG

std::optional<ParamsProblem> impossible_launch(const CudaRung& rung, const Params& params,
                                               int width, int height, int channels) {
  const cuda::LaunchParams launch = launch_params(params);
  const int planes = launch.layout == cuda::Layout::planar ? 1 : channels;
  const auto shape = rung.shape(launch, planes);
  if (!shape || shape->step_x < 1 || shape->step_y < 1) return std::nullopt;
  if (shape->threads > kMaxThreadsPerBlock)
    return ParamsProblem{shape->threads_axis,
                         "this " + shape->threads_axis + " makes blocks of " +
                             std::to_string(shape->threads) + " threads" +
                             (shape->per_plane && planes > 1
                                  ? " for " + std::to_string(planes) + " interleaved channels"
                                  : "") +
                             "; CUDA devices run at most " + std::to_string(kMaxThreadsPerBlock) +
                             " per block"};
  const long long grid_x = (width + shape->step_x - 1) / shape->step_x;
  const long long grid_y = (height + shape->step_y - 1) / shape->step_y;
  const std::string image = std::to_string(width) + "x" + std::to_string(height);
  if (grid_y > kMaxGridY || grid_x > kMaxGridX)
    return ParamsProblem{shape->grid_axis,
                         "the " + image + " image needs " +
                             std::to_string(grid_y > kMaxGridY ? grid_y : grid_x) + " blocks in " +
                             (grid_y > kMaxGridY ? "y" : "x") + " with this " + shape->grid_axis +
                             "; CUDA grids have at most " +
                             std::to_string(grid_y > kMaxGridY ? kMaxGridY : kMaxGridX)};
  return std::nullopt;
}

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
  if (launch.block_x < 1 || launch.block_y < 1 || launch.tile < 1)
    return UnmetNeed{"a positive block and tile", "block and tile must be positive"};
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
  impl.factored = traits.factored;  // roofline counts 2K multiply-adds per value
  impl.factored_rank1_only = traits.factored && !traits.rank1_only;
  impl.arithmetic = traits.arithmetic;
  if (rung.variant == Variant::tensor_separable) {
    // Three roundings to FP16: the row factor, the filtered value between the passes and the
    // column factor (k9_tensor_separable.cu).
    impl.weight_roundoff = [](const Params&) { return 3.0 * std::ldexp(1.0, -11); };
  } else if (traits.arithmetic == "tensor_fp16") {
    // fp16: each weight rounded to FP16 (2^-11); fp16x2: high part plus FP16-rounded remainder.
    impl.weight_roundoff = [](const Params& params) {
      return params.value("weights", std::string("fp16")) == "fp16x2" ? std::ldexp(1.0, -22)
                                                                      : std::ldexp(1.0, -11);
    };
  }
  impl.axes = rung.axes();
  impl.unmet_need = [&rung, traits](const Problem& problem, const Params& params) {
    return unmet_need(rung, traits, problem, launch_params(params));
  };
  impl.unsupported = [&rung, traits](const Problem& problem, const Params& params,
                                     const RunContext& context) -> std::optional<std::string> {
    const cuda::LaunchParams launch = launch_params(params);
    if (auto need = unmet_need(rung, traits, problem, launch)) return need->reason;
    if (!cuda::built()) return cuda::device_unavailable(context.cuda_device);
    if (traits.needs_npp && !cuda::npp_built()) return std::string("NPP not found at build time");
    if (auto reason = cuda::device_unavailable(context.cuda_device)) return reason;
    const Variant variant = rung.variant;
    return cuda::variant_unsupported(variant, problem_desc(problem), launch, context.cuda_device);
  };
  impl.impossible = [&rung](const Params& params, int width, int height, int channels) {
    return impossible_launch(rung, params, width, height, channels);
  };
  impl.prepare = [variant](const Problem& problem, const Params& params,
                           const RunContext& context) -> std::unique_ptr<PreparedPoint> {
    auto run = cuda::prepare(variant, problem_desc(problem), launch_params(params),
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
bool npp_built() {
  return cuda::npp_built();
}

std::vector<Implementation> make_cuda_implementations() {
  std::vector<Implementation> impls;
  for (const CudaRung& rung : kCudaRungs) impls.push_back(make_cuda_implementation(rung));
  return impls;
}

}  // namespace convlab
