// The Gaussian family: the Gaussian itself, the Laplacian of Gaussian and the difference of
// Gaussians, which share the sampled Gaussian and OpenCV's default sigma.
#include <cmath>

#include "filters/filter_descriptor.hpp"
#include "filters/filter_library.hpp"
#include "filters/filter_math.hpp"

namespace convlab {
namespace {

constexpr double kPi = 3.14159265358979323846;
// cv::getGaussianKernel(K, 0) takes its weights from fixed tables up to this size.
constexpr int kOpencvGaussianTableMax = 9;

// cv::getGaussianKernel(K, 0): OpenCV's fixed tables for K <= 9 (the exact values its
// getGaussianKernelBitExact returns), otherwise sigma = 0.15 K + 0.35 (one rounding, as OpenCV's
// mulAdd; equal to 0.3 ((K-1)/2 - 1) + 0.8), the outer weights scaled by the reciprocal of their
// sum and the centre weight being that reciprocal, in OpenCV's order of operations.
std::vector<double> opencv_default_gaussian(int size) {
  switch (size) {
    case 1:
      return {1.0};
    case 3:
      return {0.25, 0.5, 0.25};
    case 5:
      return {0.0625, 0.25, 0.375, 0.25, 0.0625};
    case 7:
      return {2 / 64.0, 7 / 64.0, 14 / 64.0, 18 / 64.0, 14 / 64.0, 7 / 64.0, 2 / 64.0};
    case 9:
      return {4 / 256.0,  13 / 256.0, 30 / 256.0, 51 / 256.0, 60 / 256.0,
              51 / 256.0, 30 / 256.0, 13 / 256.0, 4 / 256.0};
    default:
      break;
  }
  const double sigma = std::fma(static_cast<double>(size), 0.15, 0.35);
  const double scale = -0.125 / (sigma * sigma);  // x below counts half-pixels: x = 2 (i - r)
  const int half = size / 2;
  std::vector<double> g(size);
  double sum = 0.0;
  for (int i = 0, x = 1 - size; i < half; ++i, x += 2) {
    g[i] = std::exp(static_cast<double>(x * x) * scale);
    sum += g[i];
  }
  sum = sum * 2.0 + 1.0;
  const double reciprocal = 1.0 / sum;
  for (int i = 0; i < half; ++i) g[i] = g[size - 1 - i] = g[i] * reciprocal;
  g[half] = reciprocal;
  return g;
}

FilterMatrix laplacian_of_gaussian(int size, double sigma) {
  FilterMatrix m(size * size);
  const int r = size / 2;
  const double s2 = sigma * sigma;
  double mean = 0.0;
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const double q = ((x - r) * (x - r) + (y - r) * (y - r)) / (2.0 * s2);
      m[y * size + x] = -1.0 / (kPi * s2 * s2) * (1.0 - q) * std::exp(-q);
      mean += m[y * size + x];
    }
  mean /= m.size();
  // Zero sum: a flat region gives exactly 0, as the continuous operator does.
  for (double& v : m) v -= mean;
  return m;
}

const char* const kDefaultSigmaWords = "default 0.3*((K-1)/2-1)+0.8";

}  // namespace

double default_sigma(int size) {
  return 0.3 * ((size - 1) * 0.5 - 1.0) + 0.8;
}

FilterDescriptor make_gaussian_filter() {
  FilterDescriptor d;
  d.type = "gaussian";
  d.summary =
      "Gaussian blur; without sigma OpenCV's getGaussianKernel(K, 0) (tables for K <= 9, then "
      "sigma = 0.3*((K-1)/2-1)+0.8)";
  d.parameters = {size_parameter(0),
                  sigma_parameter("standard deviation in pixels; without it the weights of "
                                  "OpenCV's getGaussianKernel(K, 0)"),
                  normalize_parameter()};
  d.build = [](const FilterRequest& request, nlohmann::json& parameters,
               std::vector<double>& factor) {
    const int size = request.size;
    // No sigma: exactly what OpenCV users get by default. An explicit sigma: the formula.
    if (!request.sigma) {
      parameters["opencv_default"] = true;  // the weights of cv::getGaussianKernel(K, 0)
      if (size > kOpencvGaussianTableMax) parameters["default_sigma"] = default_sigma(size);
      factor = opencv_default_gaussian(size);
    } else {
      parameters["sigma"] = *request.sigma;
      factor = gaussian_1d(size, *request.sigma);
    }
    return outer(factor, factor);
  };
  return d;
}

FilterDescriptor make_log_filter() {
  FilterDescriptor d;
  d.type = "log";
  d.summary = "Laplacian of Gaussian, zero-sum, sigma defaults to 0.3*((K-1)/2-1)+0.8";
  d.parameters = {
      size_parameter(0),
      sigma_parameter(std::string("standard deviation in pixels; ") + kDefaultSigmaWords),
      normalize_parameter()};
  d.build = [](const FilterRequest& request, nlohmann::json& parameters, std::vector<double>&) {
    const double sigma = request.sigma.value_or(default_sigma(request.size));
    parameters["sigma"] = sigma;
    return laplacian_of_gaussian(request.size, sigma);
  };
  return d;
}

FilterDescriptor make_dog_filter() {
  FilterDescriptor d;
  d.type = "dog";
  d.summary = "difference of Gaussians G(sigma) - G(sigma2), sigma2 = 1.6 sigma";
  d.parameters = {size_parameter(0),
                  sigma_parameter(std::string("the narrower Gaussian's standard deviation; ") +
                                  kDefaultSigmaWords),
                  {"sigma2", FilterParameterKind::positive_number,
                   "the wider Gaussian's standard deviation; default 1.6 x sigma", false,
                   &FilterRequest::sigma2},
                  normalize_parameter()};
  d.check = [](const FilterRequest& request) -> std::optional<FilterProblem> {
    if (request.sigma && request.sigma2 && *request.sigma == *request.sigma2)
      return FilterProblem{"sigma2",
                           "sigma2 equals sigma: the difference of two equal Gaussians is 0 "
                           "everywhere; give a wider sigma2 (default 1.6 x sigma)"};
    return std::nullopt;
  };
  d.build = [](const FilterRequest& request, nlohmann::json& parameters, std::vector<double>&) {
    const int size = request.size;
    const double sigma = request.sigma.value_or(default_sigma(size));
    const double sigma2 = request.sigma2.value_or(1.6 * sigma);
    parameters["sigma"] = sigma;
    parameters["sigma2"] = sigma2;
    const auto narrow = gaussian_1d(size, sigma);
    const auto wide = gaussian_1d(size, sigma2);
    FilterMatrix m = outer(narrow, narrow);
    const FilterMatrix w = outer(wide, wide);
    for (size_t i = 0; i < m.size(); ++i) m[i] -= w[i];
    return m;
  };
  return d;
}

}  // namespace convlab
