#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>

#include "filters/filter_library.hpp"
#include "impl/opencv/opencv_calls.hpp"

namespace convlab {
namespace {

Filter make(const std::string& type, int size = 3) {
  FilterRequest request;
  request.type = type;
  request.size = size;
  return make_filter(request);
}

FilterRequest request_of(const std::string& type, int size, std::optional<double> sigma = {}) {
  FilterRequest request;
  request.type = type;
  request.size = size;
  request.sigma = sigma;
  return request;
}

double weight_sum(const Filter& f) {
  return std::accumulate(f.weights.begin(), f.weights.end(), 0.0);
}

// OpenCV's getGaussianKernel(K, 0) tables, as literal fractions (OpenCV 4.x).
const std::map<int, std::vector<double>> kOpencvGaussianTables{
    {1, {1}},
    {3, {1 / 4.0, 2 / 4.0, 1 / 4.0}},
    {5, {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0}},
    {7, {2 / 64.0, 7 / 64.0, 14 / 64.0, 18 / 64.0, 14 / 64.0, 7 / 64.0, 2 / 64.0}},
    {9,
     {4 / 256.0, 13 / 256.0, 30 / 256.0, 51 / 256.0, 60 / 256.0, 51 / 256.0, 30 / 256.0, 13 / 256.0,
      4 / 256.0}},
};

void expect_outer_square(const Filter& f, const std::vector<double>& g) {
  ASSERT_EQ(f.weights.size(), g.size() * g.size());
  for (size_t y = 0; y < g.size(); ++y)
    for (size_t x = 0; x < g.size(); ++x)
      EXPECT_EQ(f.at(y, x), static_cast<float>(g[y] * g[x])) << f.name << " " << y << "," << x;
}

TEST(Filters, GaussianWithoutSigmaUsesOpenCVsTables) {
  for (const auto& [size, table] : kOpencvGaussianTables) {
    const Filter f = make("gaussian", size);
    expect_outer_square(f, table);
    EXPECT_EQ(f.row, std::vector<float>(table.begin(), table.end())) << size;
    EXPECT_EQ(f.column, f.row);
    EXPECT_FALSE(f.parameters.contains("sigma"));
    EXPECT_EQ(f.name, "gaussian" + std::to_string(size));
    EXPECT_DOUBLE_EQ(weight_sum(f), 1.0);
    EXPECT_TRUE(f.separable);
  }
}

TEST(Filters, GaussianWithoutSigmaBeyondTheTablesUsesOpenCVsSigma) {
  for (int size : {11, 15, 21, 31}) {
    const Filter f = make("gaussian", size);
    const double sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8;
    EXPECT_DOUBLE_EQ(f.parameters["default_sigma"].get<double>(), sigma);
    const int r = size / 2;
    double norm = 0.0;
    for (int i = -r; i <= r; ++i) norm += std::exp(-i * i / (2 * sigma * sigma));
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x) {
        const double expected = std::exp(-(x * x + y * y) / (2 * sigma * sigma)) / (norm * norm);
        EXPECT_NEAR(f.at(y + r, x + r), expected, 1e-7) << "size " << size;
      }
    EXPECT_NEAR(weight_sum(f), 1.0, 1e-5);
    EXPECT_TRUE(f.separable);
  }
}

TEST(Filters, GaussianWithoutSigmaEqualsOpenCVsGetGaussianKernel) {
  if (!opencv_built()) GTEST_SKIP() << "OpenCV not found at build time";
  for (int size : {1, 3, 5, 7, 9, 11, 13, 15, 21, 31, 51}) {
    const std::vector<double> cv = opencv::gaussian_kernel(size, 0.0);
    const Filter f = make("gaussian", size);
    ASSERT_EQ(f.row.size(), cv.size());
    for (int i = 0; i < size; ++i) {
      // The float weights every implementation uses are OpenCV's CV_32F kernel exactly; the
      // double kernel agrees to the last bits (OpenCV computes exp in software).
      EXPECT_EQ(f.row[i], static_cast<float>(cv[i])) << "K=" << size << " i=" << i;
      EXPECT_NEAR(f.row[i], cv[i], 1e-7 * cv[i]) << "K=" << size << " i=" << i;
    }
    expect_outer_square(f, cv);
  }
  // An explicit sigma keeps the formula, which is also OpenCV's.
  for (const auto& [size, sigma] : {std::pair{5, 2.0}, std::pair{9, 1.0}, std::pair{21, 4.5}}) {
    const std::vector<double> cv = opencv::gaussian_kernel(size, sigma);
    const Filter f = make_filter(request_of("gaussian", size, sigma));
    for (int i = 0; i < size; ++i) EXPECT_FLOAT_EQ(f.row[i], cv[i]) << size << " " << sigma;
  }
}

TEST(Filters, GaussianThreeByThreeBlursAnImpulseToASixteenth) {
  // 255 at the centre: [1 2 1]/4 squared puts 255 / 4 = 63.75 there, which rounds to 64.
  const Filter f = make("gaussian", 3);
  EXPECT_EQ(f.at(1, 1), 0.25f);
  EXPECT_EQ(std::floor(255.0 * f.at(1, 1) + 0.5), 64.0);
  EXPECT_EQ(f.at(0, 0), 1 / 16.0f);
}

TEST(Filters, GaussianExplicitSigma) {
  FilterRequest request = request_of("gaussian", 5, 2.0);
  const Filter f = make_filter(request);
  EXPECT_EQ(f.parameters["sigma"].get<double>(), 2.0);
  EXPECT_NEAR(f.at(2, 0) / f.at(2, 2), std::exp(-4.0 / 8.0), 1e-6);
  EXPECT_EQ(f.name, "gaussian5-s2");
}

TEST(Filters, FixedKernelsHaveTheirTextbookWeights) {
  EXPECT_EQ(make("sharpen").weights, (std::vector<float>{0, -1, 0, -1, 5, -1, 0, -1, 0}));
  EXPECT_EQ(make("laplacian").weights, (std::vector<float>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
  EXPECT_EQ(make("edge").weights, (std::vector<float>{-1, -1, -1, -1, 8, -1, -1, -1, -1}));
  EXPECT_EQ(make("emboss").weights, (std::vector<float>{-2, -1, 0, -1, 1, 1, 0, 1, 2}));
  EXPECT_EQ(make("prewitt_x").weights, (std::vector<float>{-1, 0, 1, -1, 0, 1, -1, 0, 1}));
  EXPECT_EQ(make("prewitt_y").weights, (std::vector<float>{-1, -1, -1, 0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(make("sobel_x").weights, (std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
  EXPECT_EQ(make("sobel_y").weights, (std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
}

TEST(Filters, Sobel5IsOpenCvsConstruction) {
  const Filter f = make("sobel_x", 5);
  // rows: binomial [1 4 6 4 1]; columns: [-1 -2 0 2 1]
  const float smooth[5] = {1, 4, 6, 4, 1}, derivative[5] = {-1, -2, 0, 2, 1};
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) EXPECT_EQ(f.at(y, x), smooth[y] * derivative[x]);
}

TEST(Filters, BoxIsUniformAndSumsToOne) {
  const Filter f = make("box", 5);
  for (float w : f.weights) EXPECT_FLOAT_EQ(w, 1.0f / 25);
  EXPECT_NEAR(weight_sum(f), 1.0, 1e-6);
}

TEST(Filters, ZeroSumOperators) {
  for (const char* type : {"laplacian", "edge", "log", "prewitt_x", "sobel_y"})
    EXPECT_NEAR(weight_sum(make(type, std::string(type) == "log" ? 7 : 3)), 0.0, 1e-6) << type;
  EXPECT_LT(make("log", 5).at(2, 2), 0.f);  // the Laplacian of a Gaussian is negative at its centre
}

TEST(Filters, SeparabilityIsDetectedFromWeights) {
  for (const auto& [type, size, separable] :
       std::vector<std::tuple<std::string, int, bool>>{{"gaussian", 7, true},
                                                       {"box", 3, true},
                                                       {"sobel_x", 5, true},
                                                       {"prewitt_y", 3, true},
                                                       {"sharpen", 3, false},
                                                       {"laplacian", 3, false},
                                                       {"edge", 3, false},
                                                       {"emboss", 3, false},
                                                       {"log", 5, false},
                                                       {"dog", 7, false},
                                                       {"gaussian", 1, true}}) {
    const Filter f = make(type, size);
    EXPECT_EQ(f.separable, separable) << type << size;
    if (!f.separable) continue;
    ASSERT_EQ(f.column.size(), static_cast<size_t>(size));
    double largest = 0;
    for (float w : f.weights) largest = std::max(largest, std::fabs(double(w)));
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        EXPECT_NEAR(f.column[y] * f.row[x], f.at(y, x), 1e-6 * largest)
            << type << size << " at " << y << "," << x;
  }
}

TEST(Filters, Rank1FactorisationRejectsRankTwo) {
  EXPECT_FALSE(factor_rank1({1, 0, 0, 1}, 2).has_value());
  const auto s = factor_rank1({2, 4, 3, 6}, 2);
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR(s->column[1] * s->row[0], 3.0, 1e-12);
  EXPECT_NEAR(s->column[0] * s->row[1], 4.0, 1e-12);
}

TEST(Filters, CustomAndNormalize) {
  FilterRequest request;
  request.type = "custom";
  request.custom_name = "ramp";
  request.size = 3;
  request.matrix = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  request.normalize = true;
  const Filter f = make_filter(request);
  EXPECT_EQ(f.name, "ramp");
  EXPECT_NEAR(f.at(0, 0), 1.0 / 45, 1e-7);
  EXPECT_NEAR(weight_sum(f), 1.0, 1e-6);
  EXPECT_FALSE(f.separable);  // rank 2
}

TEST(Filters, BadRequestsAreRefusedWithTheReason) {
  FilterRequest even = request_of("gaussian", 4);
  EXPECT_THROW(make_filter(even), FilterError);
  FilterRequest fixed = request_of("sharpen", 5);
  try {
    make_filter(fixed);
    FAIL() << "sharpen 5 accepted";
  } catch (const FilterError& e) {
    EXPECT_NE(std::string(e.what()).find("size 3"), std::string::npos);
  }
  FilterRequest zero_sum = request_of("laplacian", 3);
  zero_sum.normalize = true;
  EXPECT_THROW(make_filter(zero_sum), FilterError);
  FilterRequest bad_sigma = request_of("gaussian", 3, -1.0);
  EXPECT_THROW(make_filter(bad_sigma), FilterError);
}

}  // namespace
}  // namespace convlab
