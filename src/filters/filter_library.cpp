#include "filters/filter_library.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace convlab {
namespace {

constexpr double kPi = 3.14159265358979323846;
// cv::getGaussianKernel(K, 0) takes its weights from fixed tables up to this size.
constexpr int kOpencvGaussianTableMax = 9;

using Matrix = std::vector<double>;  // size * size, row-major

std::vector<double> gaussian_1d(int size, double sigma) {
  std::vector<double> g(size);
  const int r = size / 2;
  double sum = 0.0;
  for (int i = 0; i < size; ++i) {
    const double d = i - r;
    g[i] = std::exp(-d * d / (2.0 * sigma * sigma));
    sum += g[i];
  }
  for (double& v : g) v /= sum;
  return g;
}

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

Matrix outer(const std::vector<double>& column, const std::vector<double>& row) {
  Matrix m(column.size() * row.size());
  for (size_t i = 0; i < column.size(); ++i)
    for (size_t j = 0; j < row.size(); ++j) m[i * row.size() + j] = column[i] * row[j];
  return m;
}

Matrix transpose(const Matrix& m, int size) {
  Matrix t(m.size());
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) t[j * size + i] = m[i * size + j];
  return t;
}

std::vector<double> binomial(int order) {
  std::vector<double> c{1.0};
  for (int n = 0; n < order; ++n) {
    std::vector<double> next(c.size() + 1, 0.0);
    for (size_t i = 0; i < c.size(); ++i) {
      next[i] += c[i];
      next[i + 1] += c[i];
    }
    c = next;
  }
  return c;
}

// Sobel of any odd size as OpenCV builds it: binomial smoothing across, and a binomial of order
// K-3 convolved with the central difference [-1, 0, 1] along the derivative.
std::pair<std::vector<double>, std::vector<double>> sobel_factors(int size) {
  const std::vector<double> smooth = binomial(size - 1);
  const std::vector<double> base = binomial(size - 3);
  std::vector<double> derivative(size, 0.0);
  const double difference[3] = {-1.0, 0.0, 1.0};
  for (size_t i = 0; i < base.size(); ++i)
    for (int j = 0; j < 3; ++j) derivative[i + j] += base[i] * difference[j];
  return {smooth, derivative};
}

Matrix laplacian_of_gaussian(int size, double sigma) {
  Matrix m(size * size);
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

Matrix fixed_3x3(const std::string& type) {
  if (type == "sharpen") return {0, -1, 0, -1, 5, -1, 0, -1, 0};
  if (type == "edge") return {-1, -1, -1, -1, 8, -1, -1, -1, -1};
  if (type == "laplacian") return {0, 1, 0, 1, -4, 1, 0, 1, 0};
  if (type == "emboss") return {-2, -1, 0, -1, 1, 1, 0, 1, 2};
  if (type == "prewitt_x") return {-1, 0, 1, -1, 0, 1, -1, 0, 1};
  if (type == "prewitt_y") return {-1, -1, -1, 0, 0, 0, 1, 1, 1};
  return {};
}

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// `factor`: for Gaussians, the one-dimensional kernel (the matrix is its outer square).
Matrix build_matrix(const FilterRequest& request, nlohmann::json& parameters,
                    std::vector<double>& factor) {
  const int size = request.size;
  const std::string& type = request.type;
  if (type == "gaussian") {
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
  }
  if (type == "box") return Matrix(size * size, 1.0 / (size * size));
  if (type == "log") {
    const double sigma = request.sigma.value_or(default_sigma(size));
    parameters["sigma"] = sigma;
    return laplacian_of_gaussian(size, sigma);
  }
  if (type == "dog") {
    const double sigma = request.sigma.value_or(default_sigma(size));
    const double sigma2 = request.sigma2.value_or(1.6 * sigma);
    parameters["sigma"] = sigma;
    parameters["sigma2"] = sigma2;
    const auto narrow = gaussian_1d(size, sigma);
    const auto wide = gaussian_1d(size, sigma2);
    Matrix m = outer(narrow, narrow);
    const Matrix w = outer(wide, wide);
    for (size_t i = 0; i < m.size(); ++i) m[i] -= w[i];
    return m;
  }
  if (type == "sobel_x" || type == "sobel_y") {
    const auto [smooth, derivative] = sobel_factors(size);
    const Matrix x = outer(smooth, derivative);
    return type == "sobel_x" ? x : transpose(x, size);
  }
  if (type == "custom") {
    parameters["matrix"] = request.matrix;
    Matrix m;
    for (const auto& row : request.matrix) m.insert(m.end(), row.begin(), row.end());
    return m;
  }
  return fixed_3x3(type);
}

void check_request(const FilterRequest& request, const FilterTypeInfo& info) {
  if (request.size <= 0 || request.size % 2 == 0)
    throw FilterError("size must be a positive odd number, got " + std::to_string(request.size));
  if (info.fixed_size != 0 && request.size != info.fixed_size)
    throw FilterError("'" + info.type + "' exists only in size " + std::to_string(info.fixed_size) +
                      ", got " + std::to_string(request.size));
  if (request.type == "sobel_x" || request.type == "sobel_y") {
    if (request.size < 3) throw FilterError("sobel needs size >= 3");
  }
  for (const auto& sigma : {request.sigma, request.sigma2})
    if (sigma && !(*sigma > 0.0 && std::isfinite(*sigma)))
      throw FilterError("sigma must be a positive number, got " + format_number(*sigma));
  if (request.type == "custom") {
    if (request.matrix.size() != static_cast<size_t>(request.size))
      throw FilterError("matrix must be square with an odd number of rows");
    for (const auto& row : request.matrix)
      if (row.size() != request.matrix.size())
        throw FilterError("matrix must be square: every row needs " +
                          std::to_string(request.matrix.size()) + " values");
  }
}

std::string display_name(const FilterRequest& request) {
  if (request.type == "custom") return request.custom_name;
  std::string name = request.type + std::to_string(request.size);
  if (request.sigma) name += "-s" + format_number(*request.sigma);
  if (request.sigma2) name += "-t" + format_number(*request.sigma2);
  if (request.normalize) name += "-n";
  return name;
}

}  // namespace

const std::vector<FilterTypeInfo>& filter_types() {
  static const std::vector<FilterTypeInfo> types{
      {"gaussian",
       "Gaussian blur; without sigma OpenCV's getGaussianKernel(K, 0) (tables for K <= 9, then "
       "sigma = 0.3*((K-1)/2-1)+0.8)",
       0,
       {"size", "sigma", "normalize"}},
      {"box", "mean of the KxK window", 0, {"size", "normalize"}},
      {"sharpen", "[0 -1 0; -1 5 -1; 0 -1 0]", 3, {"size", "normalize"}},
      {"edge", "8-neighbour edge detector [-1 -1 -1; -1 8 -1; -1 -1 -1]", 3, {"size", "normalize"}},
      {"laplacian", "4-neighbour Laplacian [0 1 0; 1 -4 1; 0 1 0]", 3, {"size", "normalize"}},
      {"log",
       "Laplacian of Gaussian, zero-sum, sigma defaults to 0.3*((K-1)/2-1)+0.8",
       0,
       {"size", "sigma", "normalize"}},
      {"dog",
       "difference of Gaussians G(sigma) - G(sigma2), sigma2 = 1.6 sigma",
       0,
       {"size", "sigma", "sigma2", "normalize"}},
      {"prewitt_x", "Prewitt x derivative (right minus left)", 3, {"size", "normalize"}},
      {"prewitt_y", "Prewitt y derivative (below minus above)", 3, {"size", "normalize"}},
      {"sobel_x",
       "Sobel x derivative, any odd K >= 3 (OpenCV's construction)",
       0,
       {"size", "normalize"}},
      {"sobel_y", "Sobel y derivative, any odd K >= 3", 0, {"size", "normalize"}},
      {"emboss", "[-2 -1 0; -1 1 1; 0 1 2]", 3, {"size", "normalize"}},
      {"custom", "your own square matrix of odd size", 0, {"name", "matrix", "normalize"}},
  };
  return types;
}

const FilterTypeInfo* find_filter_type(const std::string& type) {
  for (const auto& info : filter_types())
    if (info.type == type) return &info;
  return nullptr;
}

double default_sigma(int size) {
  return 0.3 * ((size - 1) * 0.5 - 1.0) + 0.8;
}

std::optional<Separation> factor_rank1(const std::vector<double>& weights, int size,
                                       double relative_tolerance) {
  size_t pivot = 0;
  for (size_t i = 1; i < weights.size(); ++i)
    if (std::fabs(weights[i]) > std::fabs(weights[pivot])) pivot = i;
  const double p = weights[pivot];
  if (p == 0.0) return std::nullopt;  // the zero matrix: nothing worth separating
  const int pivot_row = static_cast<int>(pivot) / size;
  const int pivot_col = static_cast<int>(pivot) % size;
  // Split the pivot's magnitude evenly so both factors have similar scale.
  const double scale = std::sqrt(std::fabs(p));
  Separation s{std::vector<double>(size), std::vector<double>(size)};
  for (int i = 0; i < size; ++i) s.column[i] = weights[i * size + pivot_col] / scale;
  for (int j = 0; j < size; ++j)
    s.row[j] = weights[pivot_row * size + j] / scale * (p > 0 ? 1 : -1);
  const double bound = relative_tolerance * std::fabs(p);
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      if (std::fabs(weights[i * size + j] - s.column[i] * s.row[j]) > bound) return std::nullopt;
  return s;
}

Filter make_filter(const FilterRequest& request) {
  const FilterTypeInfo* info = find_filter_type(request.type);
  if (info == nullptr) throw FilterError("unknown kernel type '" + request.type + "'");
  check_request(request, *info);

  Filter filter;
  filter.type = request.type;
  filter.name = display_name(request);
  filter.size = request.size;
  filter.parameters = nlohmann::json::object();
  std::vector<double> factor;
  Matrix m = build_matrix(request, filter.parameters, factor);
  if (request.normalize) {
    double sum = 0.0;
    for (double v : m) sum += v;
    if (std::fabs(sum) < 1e-12)
      throw FilterError("normalize: the weights sum to 0, they cannot be normalised");
    for (double& v : m) v /= sum;
  }
  filter.parameters["normalize"] = request.normalize;

  filter.weights.assign(m.begin(), m.end());
  // Separability is judged on the float weights every implementation actually uses.
  const std::vector<double> used(filter.weights.begin(), filter.weights.end());
  if (auto separation = factor_rank1(used, filter.size)) {
    filter.separable = true;
    filter.column.assign(separation->column.begin(), separation->column.end());
    filter.row.assign(separation->row.begin(), separation->row.end());
    // A Gaussian's factors are its one-dimensional kernel itself (OpenCV's, without a sigma).
    if (!factor.empty() && !request.normalize) {
      filter.column.assign(factor.begin(), factor.end());
      filter.row = filter.column;
    }
  }
  return filter;
}

}  // namespace convlab
