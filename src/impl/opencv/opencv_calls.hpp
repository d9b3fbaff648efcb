// The OpenCV peers' side that calls into OpenCV, seen from the registration without OpenCV's
// headers: peers/opencv_peers.cpp when CMake found OpenCV (core, imgproc), otherwise
// not_built/opencv_not_built.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "impl/implementation.hpp"
#include "impl/vendor_peers.hpp"  // opencv_built, opencv_version

namespace convlab::opencv {

enum class Function { filter2d, sepfilter2d, gaussianblur };

struct PeerRequest {
  Function function = Function::filter2d;
  int threads = 1;  // cv::setNumThreads, set when the point is prepared and before each call
  // gaussianblur: the sigma handed to cv::GaussianBlur; 0 asks for getGaussianKernel(K, 0),
  // the weights convlab's gaussian uses when the config gives no sigma.
  double gaussian_sigma = 0.0;
};

// cv::getGaussianKernel(size, sigma, CV_64F), for tests of convlab's own Gaussian weights.
std::vector<double> gaussian_kernel(int size, double sigma);

// The border is one OpenCV supports (not wrap); sepfilter2d needs a separable filter.
std::unique_ptr<PreparedPoint> prepare(const Problem& problem, const PeerRequest& request);

}  // namespace convlab::opencv
