// The three OpenCV peers a user would call, registered whether or not OpenCV was built in (configs
// naming them validate everywhere; without OpenCV their points are skipped with the reason):
//   opencv_filter2d     cv::filter2D, any kernel (direct, or a DFT for large kernels)
//   opencv_sepfilter2d  cv::sepFilter2D with convlab's own column and row factors, rank-1 kernels
//   opencv_gaussianblur cv::GaussianBlur with the same K and sigma, Gaussian kernels only
// Each has a `threads` axis (cv::setNumThreads).
#include <cmath>

#include "impl/opencv/opencv_calls.hpp"
#include "impl/registry.hpp"

namespace convlab {
namespace {

using opencv::Function;

std::optional<UnmetNeed> unmet_need(Function function, const Problem& problem) {
  if (problem.border == Border::wrap)
    return UnmetNeed{"a border other than wrap", "OpenCV's filters do not support the wrap border"};
  const Filter& filter = problem.filter;
  if (function == Function::sepfilter2d && !filter.separable) return unless_separable(problem);
  if (function == Function::gaussianblur && filter.type != "gaussian")
    return UnmetNeed{
        "a Gaussian kernel",
        "kernel '" + filter.name + "' is not a Gaussian (GaussianBlur makes only those)"};
  return std::nullopt;
}

// GaussianBlur gets the sigma the config gave, or 0: OpenCV's default, getGaussianKernel(K, 0),
// which is what convlab's gaussian weighs without a sigma.
double gaussian_sigma(const Filter& filter) {
  const auto sigma = filter.parameters.find("sigma");
  return sigma != filter.parameters.end() && sigma->is_number() ? sigma->get<double>() : 0.0;
}

// OpenCV's u8 GaussianBlur computes in 16-bit fixed point: it rounds each weight of the 1D kernel
// to 8 fractional bits (cvRound, the rounding error carried to the next weight, the centre weight
// taking what is left so the weights still sum to 1), then multiplies and adds exactly and rounds
// once at the end. So its result differs from the exact one by sum e * x, e = q[ky] q[kx] -
// w[ky] w[kx] the change of each 2D weight, plus rounding. Since the e sum to 0 and 0 <= x <= 255,
// |sum e * x| <= 127.5 * sum |e|: the bound is 1 + 127.5 * sum |e| levels. It is 1 for OpenCV's
// tables (K <= 9 without sigma: multiples of 1/256); noise images show errors of 2 levels from
// K = 13 on and 3 at K = 41, which a bound of 1 would report as failures of the peer, while the
// bound (7.7 at K = 21) still catches a wrong kernel, border or offset. values_not_exact shows
// how many values the fixed point changed.
double gaussianblur_u8_tolerance(const Problem& problem) {
  const std::vector<float>& w = problem.filter.row;
  const int n = static_cast<int>(w.size());
  std::vector<double> q(n);
  double carried = 0.0, outer_sum = 0.0;
  for (int i = 0; i < n / 2; ++i) {
    const double scaled = double(w[i]) * 256.0 + carried;
    const double rounded = std::nearbyint(scaled);  // cvRound: to nearest, ties to even
    carried = scaled - rounded;
    q[i] = q[n - 1 - i] = rounded / 256.0;
    outer_sum += 2.0 * rounded;
  }
  q[n / 2] = (256.0 - outer_sum) / 256.0;
  double moved = 0.0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) moved += std::fabs(q[y] * q[x] - double(w[y]) * double(w[x]));
  return 1.0 + 127.5 * moved;
}

Implementation make_peer(std::string name, Appearance appearance, Function function,
                         std::string description) {
  Implementation impl;
  impl.name = std::move(name);
  impl.family = Family::cpu;
  impl.thread_pool = "opencv";
  impl.description = std::move(description);
  impl.appearance = std::move(appearance);
  impl.factored = function != Function::filter2d;
  impl.axes = {{"threads", AxisKind::integer, "cv::setNumThreads", 1, {}, 1, 1024}};
  if (function == Function::gaussianblur) impl.u8_tolerance = gaussianblur_u8_tolerance;
  impl.unmet_need = [function](const Problem& problem, const Params&) {
    return unmet_need(function, problem);
  };
  impl.unsupported = [function](const Problem& problem, const Params&,
                                const RunContext&) -> std::optional<std::string> {
    if (auto need = unmet_need(function, problem)) return need->reason;
    if (!opencv_built()) return std::string("OpenCV not found at build time");
    return std::nullopt;
  };
  impl.prepare = [function](const Problem& problem, const Params& params, const RunContext&) {
    opencv::PeerRequest request;
    request.function = function;
    request.threads = params.value("threads", 1);
    request.gaussian_sigma = gaussian_sigma(problem.filter);
    return opencv::prepare(problem, request);
  };
  return impl;
}

}  // namespace

std::vector<Implementation> make_opencv_implementations() {
  return {
      make_peer("opencv_filter2d", {"OpenCV filter2d", "#000000", 6}, Function::filter2d,
                "OpenCV cv::filter2D (peer; any kernel, direct or DFT as OpenCV chooses)"),
      make_peer("opencv_sepfilter2d", {"OpenCV sepfilter2d", "#555555", 8}, Function::sepfilter2d,
                "OpenCV cv::sepFilter2D with convlab's column and row factors (peer; rank-1 "
                "kernels)"),
      make_peer("opencv_gaussianblur", {"OpenCV gaussianblur", "#999999", 10},
                Function::gaussianblur,
                "OpenCV cv::GaussianBlur with the same K and sigma (peer; Gaussian kernels, u8 "
                "in fixed point)"),
  };
}

}  // namespace convlab
