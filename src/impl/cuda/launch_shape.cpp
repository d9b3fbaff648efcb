// impossible_launch (see launch_shape.hpp): evaluates a row's launch shape and compares it with the
// launch limits every CUDA device shares (compute capability 3.0 and later).
#include "impl/cuda/launch_shape.hpp"

#include <cctype>
#include <sstream>
#include <string>

namespace convlab {
namespace {

constexpr long long kMaxThreadsPerBlock = 1024;
constexpr long long kMaxGridX = 2147483647LL;
constexpr long long kMaxGridY = 65535;

// One of the shape's products, with the first axis it names and whether it counts planes.
struct Product {
  long long value = 1;
  std::string axis;
  bool per_plane = false;
};

long long factor_value(const std::string& factor, const cuda::LaunchParams& launch) {
  const size_t dot = factor.find('.');
  if (dot == std::string::npos) return launch.integer(factor);
  const cuda::AxisPair pair = launch.pair(factor.substr(0, dot));
  return factor.substr(dot + 1) == "x" ? pair.x : pair.y;
}

Product evaluate(const char* expression, const cuda::LaunchParams& launch, int planes) {
  Product product;
  std::istringstream factors(expression);
  for (std::string factor; std::getline(factors, factor, '*');) {
    if (std::isdigit(static_cast<unsigned char>(factor.front()))) {
      product.value *= std::stoll(factor);
    } else if (factor == "planes") {
      product.value *= planes;
      product.per_plane = true;
    } else {
      product.value *= factor_value(factor, launch);
      if (product.axis.empty()) product.axis = factor.substr(0, factor.find('.'));
    }
  }
  return product;
}

}  // namespace

std::optional<ParamsProblem> impossible_launch(const LaunchShape& shape,
                                               const cuda::LaunchParams& launch, int width,
                                               int height, int channels) {
  if (*shape.threads == '\0') return std::nullopt;
  const int planes = launch.layout == cuda::Layout::planar ? 1 : channels;
  const Product threads = evaluate(shape.threads, launch, planes);
  const Product step_x = evaluate(shape.step_x, launch, planes);
  const Product step_y = evaluate(shape.step_y, launch, planes);
  if (step_x.value < 1 || step_y.value < 1) return std::nullopt;
  if (threads.value > kMaxThreadsPerBlock)
    return ParamsProblem{
        threads.axis,
        "this " + threads.axis + " makes blocks of " + std::to_string(threads.value) + " threads" +
            (threads.per_plane && planes > 1
                 ? " for " + std::to_string(planes) + " interleaved channels"
                 : "") +
            "; CUDA devices run at most " + std::to_string(kMaxThreadsPerBlock) + " per block"};
  const long long grid_x = (width + step_x.value - 1) / step_x.value;
  const long long grid_y = (height + step_y.value - 1) / step_y.value;
  const std::string image = std::to_string(width) + "x" + std::to_string(height);
  const bool rows = grid_y > kMaxGridY;  // too many blocks in y, else in x
  if (rows || grid_x > kMaxGridX) {
    const Product& step = rows ? step_y : step_x;
    return ParamsProblem{
        step.axis, "the " + image + " image needs " + std::to_string(rows ? grid_y : grid_x) +
                       " blocks in " + (rows ? "y" : "x") + " with this " + step.axis +
                       "; CUDA grids have at most " + std::to_string(rows ? kMaxGridY : kMaxGridX)};
  }
  return std::nullopt;
}

}  // namespace convlab
